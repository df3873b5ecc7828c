/** Entity tags: the ETag item reads send, learned from an entity field, and the stale If-Match refusal it explains. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

type Page = { id: number; title: string; version: number };
const pages: Page[] = [
  { id: 1, title: "Home", version: 1 },
  { id: 2, title: "About", version: 3 },
];
const tag = (p: Page) => `"v${p.version}"`;
const listRead = (rows: Page[]): RecordSpec => ({ path: "/api/pages", status: 200, res: rows });
const itemRead = (p: Page, etag: string | null = tag(p)): RecordSpec => ({
  path: `/api/pages/${p.id}`,
  status: 200,
  res: p,
  ...(etag === null ? {} : { resHeaders: [{ name: "ETag", value: etag }] }),
});
const put = (id: number, title: string, ifMatch: string, res: unknown, status = 200): RecordSpec => ({
  method: "PUT",
  path: `/api/pages/${id}`,
  status,
  req: { title },
  headers: [{ name: "If-Match", value: ifMatch }],
  res,
});
const stale = { error: "precondition failed" };

/** Training: a read, a write with the fresh tag, its read-back, then the old tag again (412), and another page. */
function training(etag = (p: Page) => tag(p)): RecordSpec[] {
  const home2 = { id: 1, title: "Welcome", version: 2 };
  return [
    listRead(pages),
    itemRead(pages[0]!, etag(pages[0]!)),
    put(1, "Welcome", '"v1"', home2),
    itemRead(home2, etag(home2)),
    put(1, "Hello", '"v1"', stale, 412),
    itemRead(pages[1]!, etag(pages[1]!)),
  ];
}

describe("entity tags", () => {
  it("sends the ETag its item reads sent, and answers a stale If-Match with the recorded 412", () => {
    const { model, seed } = learnSpecs(training());
    const c = model.collections.find((x) => x.name === "pages")!;
    expect(c.etag).toEqual({ header: "etag", field: "version", prefix: '"v', suffix: '"' });
    expect(
      (model.validations ?? []).map((v) => [v.tool_name, v.kind, v.header, v.status, v.explain]),
    ).toEqual([
      [
        "put_pages_by_id",
        "stale",
        "if-match",
        412,
        "PUT /api/pages/{id} answers 412 with the recorded body when the request's If-Match names another tag than the entity's ETag (\"v{version}\"): a stale tag, where every successful request that sent one sent its entity's (recorded at records[4]).",
      ],
    ]);
    const ep = createEpisode(model, seed, { episodeId: "e" });
    const ifMatch = (t: string) => ({
      ...twinRequest("PUT", "/api/pages/2", { title: "Us" }),
      headers: { "if-match": t },
    });
    expect(handleRequest(model, ep, twinRequest("GET", "/api/pages/2")).headers.etag).toBe('"v3"');
    expect(handleRequest(model, ep, ifMatch('"v2"'))).toMatchObject({
      status: 412,
      body: { kind: "json", value: stale },
      served_by: "validation",
    });
    expect(handleRequest(model, ep, ifMatch('"v3"'))).toMatchObject({ status: 200, served_by: "state" });
    // A write without the header: the recording never showed the app's answer to one, so no rule fires.
    expect(handleRequest(model, ep, twinRequest("PUT", "/api/pages/2", { title: "Us!" })).served_by).toBe(
      "state",
    );
  });

  it("lets `*` and a list naming the held tag through, as RFC 9110 If-Match does, and refuses a list without it", () => {
    const { model, seed } = learnSpecs(training());
    // Each on a fresh episode, where page 2 holds "v3".
    const status = (t: string) =>
      handleRequest(model, createEpisode(model, seed, { episodeId: "lists" }), {
        ...twinRequest("PUT", "/api/pages/2", { title: "Us" }),
        headers: { "if-match": t },
      }).status;
    expect([status("*"), status('"v2", "v3"'), status('"v1", "v2"'), status('W/"v3"')]).toEqual([
      200, 200, 412, 412,
    ]);
  });

  it("learns no tag from reads that all sent one (a constant fits), nor the refusal it would explain", () => {
    const { model } = learnSpecs(training(() => '"same"'));
    expect(model.collections.find((x) => x.name === "pages")!.etag).toBeUndefined();
    expect(model.validations).toEqual([]);
  });

  it("learns no tag two fields explain alike in every read (the recording does not tell which)", () => {
    const both: RecordSpec[] = [
      listRead(pages),
      itemRead({ id: 1, title: "Home", version: 1 }),
      itemRead({ id: 2, title: "About", version: 2 }),
    ];
    expect(learnSpecs(both).model.collections.find((x) => x.name === "pages")!.etag).toBeUndefined();
  });

  it("learns no stale rule when a refused write sent the tag its entity held (refused for another reason)", () => {
    const home2 = { id: 1, title: "Welcome", version: 2 };
    const specs = [
      listRead(pages),
      itemRead(pages[0]!),
      put(1, "Welcome", '"v1"', home2),
      itemRead(home2),
      put(1, "Hello", '"v2"', stale, 412),
      itemRead(pages[1]!),
    ];
    const { model } = learnSpecs(specs);
    expect(model.collections.find((x) => x.name === "pages")!.etag?.field).toBe("version");
    expect((model.validations ?? []).filter((v) => v.header !== undefined)).toEqual([]);
  });
});
