/**
 * The two read bugs seen on a real app (issue 17 item 7), end to end from a recording: a literal path segment
 * holding a reserved character is matched however it is sent, and a list read with a query parameter the model
 * never learned is an explained miss, never the whole list.
 */
import { describe, expect, it } from "vitest";
import { createEpisode } from "../src/serve/runtime/create-episode.js";
import { handleRequest } from "../src/serve/runtime/handle-request.js";
import type { TwinRequest } from "../src/serve/runtime/twin-types.js";
import { learnSpecs } from "./support/learn-specs.js";

const articles = [
  { id: 1, title: "Hello" },
  { id: 2, title: "World" },
];
const base = "/content-manager/collection-types/api::article.article";
const get = (path: string, query: [string, string][] = []): TwinRequest => ({
  method: "GET",
  path,
  query,
  headers: {},
  body: null,
});

describe("reads seen failing on a real app", () => {
  const { model, seed } = learnSpecs([
    { path: base, status: 200, res: { results: articles } },
    { path: `${base}/1`, status: 200, res: articles[0] },
  ]);
  const episode = createEpisode(model, seed, { episodeId: "b" });

  it("serves a route whose literal holds a reserved character, sent plain or percent-encoded", () => {
    for (const path of [base, base.replaceAll(":", "%3A"), base.replaceAll(":", "%3a")]) {
      const r = handleRequest(model, episode, get(path));
      expect([r.status, r.served_by, r.body]).toEqual([
        200,
        "state",
        { kind: "json", value: { results: articles } },
      ]);
    }
    const item = handleRequest(model, episode, get(`${base.replaceAll(":", "%3A")}/2`));
    expect([item.served_by, item.body]).toEqual(["state", { kind: "json", value: articles[1] }]);
  });

  it("answers a list read with a query parameter never learned with unlearned_query, not the whole list", () => {
    const r = handleRequest(model, episode, get(base, [["search", "zzz"]]));
    expect([r.status, r.served_by]).toEqual([501, "miss"]);
    expect(r.body).toMatchObject({
      kind: "json",
      value: { error: "unlearned_query", unlearned: [{ param: "search" }] },
    });
  });
});
