/**
 * Inferred item routes: a sibling collection whose list alone was recorded gets the item route of the app's
 * confirmed list + item pairs when it shares their style; labelled inferred, off with `infer: false`, and refused
 * when the styles differ.
 */
import { describe, expect, it } from "vitest";
import { buildEvidence, type RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnModel } from "../bundle/learn-model.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const items = [
  { id: 1, title: "Milk" },
  { id: 2, title: "Bread" },
];
const tags = [
  { id: 1, label: "home" },
  { id: 2, label: "work" },
];
const missing = { error: "not_found", message: "No such record." };
const pair: RecordSpec[] = [
  { path: "/api/items", status: 200, res: { data: items, total: 2 } },
  { path: "/api/items/1", status: 200, res: { data: items[0] } },
  { path: "/api/items/99", status: 404, res: missing },
];
const tagList = (res: unknown): RecordSpec => ({ path: "/api/tags", status: 200, res });
const get = (path: string) => ({ method: "GET", path, query: [], headers: {}, body: null });

describe("inferred item routes", () => {
  it("gives a sibling the item route of the confirmed pair's style, labelled inferred, and serves it", () => {
    const { model, seed, coverage } = learnModel(buildEvidence([...pair, tagList({ data: tags, total: 2 })]));
    const ep = model.endpoints.find((e) => e.template === "/api/tags/{id}")!;
    expect(ep).toMatchObject({
      tool_name: "get_tags_by_id",
      kind: "item",
      collection: "tags",
      serving: "state",
      observations: 0,
      inferred: { from: "get_items_by_id" },
    });
    expect(ep.explain).toContain("inferred, not recorded");
    expect(model.collections.find((c) => c.name === "tags")).toMatchObject({
      item_endpoint: "get_tags_by_id",
      item_envelope: { kind: "object", item_key: "data" },
      not_found: { status: 404, body: missing },
    });
    expect(coverage.reads.find((r) => r.tool_name === "get_tags_by_id")!.serving).toBe("inferred");
    const episode = createEpisode(model, seed, { episodeId: "i" });
    expect(handleRequest(model, episode, get("/api/tags/2")).body).toEqual({
      kind: "json",
      value: { data: tags[1] },
    });
    const miss = handleRequest(model, episode, get("/api/tags/7"));
    expect([miss.status, miss.body]).toEqual([404, { kind: "json", value: missing }]);
  });

  it("infers nothing with infer: false (apptwin build --no-infer)", () => {
    const { model, coverage } = learnModel(buildEvidence([...pair, tagList({ data: tags, total: 2 })]), {
      infer: false,
    });
    expect(model.endpoints.map((e) => e.template)).not.toContain("/api/tags/{id}");
    expect(model.collections.find((c) => c.name === "tags")!.item_endpoint).toBeNull();
    expect(coverage.reads.map((r) => r.serving)).not.toContain("inferred");
  });

  it("is refused when the sibling's style differs (a bare list beside enveloped ones)", () => {
    const { model } = learnModel(buildEvidence([...pair, tagList(tags)]));
    expect(model.endpoints.map((e) => e.template)).not.toContain("/api/tags/{id}");
    expect(model.collections.find((c) => c.name === "tags")!.item_endpoint).toBeNull();
  });

  it("is refused when the not-found answer names its collection (a sibling's would name its own)", () => {
    const named = { error: "not_found", message: "Item 99 does not exist." };
    const specs = pair.map((s) => (s.status === 404 ? { ...s, res: named } : s));
    const { model } = learnModel(buildEvidence([...specs, tagList({ data: tags, total: 2 })]));
    expect(model.endpoints.map((e) => e.template)).not.toContain("/api/tags/{id}");
    expect(model.collections.find((c) => c.name === "tags")!.item_endpoint).toBeNull();
  });

  it("is refused when the confirmed pairs under the prefix disagree on their style", () => {
    const users = [
      { id: 1, name: "ann" },
      { id: 2, name: "bob" },
    ];
    const { model } = learnModel(
      buildEvidence([
        ...pair,
        { path: "/api/users", status: 200, res: { data: users, total: 2 } },
        { path: "/api/users/1", status: 200, res: users[0] },
        tagList({ data: tags, total: 2 }),
      ]),
    );
    expect(model.endpoints.map((e) => e.template)).not.toContain("/api/tags/{id}");
    expect(model.collections.find((c) => c.name === "tags")!.item_endpoint).toBeNull();
  });
});
