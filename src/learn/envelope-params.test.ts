/** A parameter whose value adds envelope leaves (`meta=total_count`): confirmed per value by every read's counts. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";
import { findEnvelopeParam } from "./envelope-params.js";

const A = [
  { id: 1, title: "Alpha", status: "published" },
  { id: 2, title: "Beta", status: "draft" },
  { id: 3, title: "Gamma", status: "published" },
  { id: 4, title: "Delta", status: "published" },
];
const read = (query: string, rows: unknown[], meta?: unknown): RecordSpec => ({
  path: `/items${query}`,
  status: 200,
  res: meta === undefined ? { data: rows } : { data: rows, meta },
});
const get = (path: string, query: [string, string][] = []) => ({
  method: "GET",
  path,
  query,
  headers: {},
  body: null,
});
const published = A.filter((a) => a.status === "published");

describe("findEnvelopeParam", () => {
  const plain = new Set(["data"]);
  it("names the one parameter every answer with an added key sends, per value the keys it adds", () => {
    const p = findEnvelopeParam(
      [
        { query: [["limit", "2"]], body: { data: [] } },
        {
          query: [
            ["limit", "2"],
            ["meta", "total_count"],
          ],
          body: { data: [], meta: { total_count: 4 } },
        },
        { query: [["meta", "filter_count"]], body: { data: [], meta: { filter_count: 4 } } },
      ],
      plain,
    );
    expect(p).toEqual({
      name: "meta",
      adds: new Map([
        ["total_count", ["meta"]],
        ["filter_count", ["meta"]],
      ]),
    });
  });

  it("is refused when an answer without the parameter holds the key too, or two parameters fit alike", () => {
    expect(
      findEnvelopeParam(
        [
          { query: [["meta", "total_count"]], body: { data: [], meta: { total_count: 4 } } },
          { query: [["limit", "1"]], body: { data: [], meta: { total_count: 4 } } },
        ],
        plain,
      ),
    ).toBeNull();
    expect(
      findEnvelopeParam(
        [
          {
            query: [
              ["meta", "total_count"],
              ["x", "1"],
            ],
            body: { data: [], meta: { total_count: 4 } },
          },
        ],
        plain,
      ),
    ).toBeNull();
  });
});

describe("a parameter value that adds envelope leaves", () => {
  it("is learned per value from the reads' counts and served from state, the other readings refused where they differ", () => {
    const { model, seed } = learnSpecs([
      read("", A),
      read("?status=published", published),
      read("?limit=2&meta=total_count", A.slice(0, 2), { total_count: 4 }),
      read("?status=published&meta=filter_count", published, { filter_count: 3 }),
    ]);
    const rules = model.collections[0]!.query!.rules.filter((r) => r.kind === "envelope");
    expect(rules.map((r) => [r.value, r.fields])).toEqual([
      // Unpaged: the page's length and the matches agree, so both readings stand.
      ["filter_count", [{ pointer: "/meta/filter_count", of: ["total", "count"] }]],
      // Unfiltered: the matches and the whole list agree, so both readings stand.
      ["total_count", [{ pointer: "/meta/total_count", of: ["total", "scope_total"] }]],
    ]);
    const ep = createEpisode(model, seed, { episodeId: "m" });
    const paged = handleRequest(
      model,
      ep,
      get("/items", [
        ["limit", "1"],
        ["meta", "total_count"],
      ]),
    );
    expect(paged.served_by).toBe("state");
    expect(paged.body).toEqual({ kind: "json", value: { data: [A[0]], meta: { total_count: 4 } } });
    const draft = handleRequest(
      model,
      ep,
      get("/items", [
        ["status", "draft"],
        ["meta", "filter_count"],
      ]),
    );
    expect(draft.body).toEqual({ kind: "json", value: { data: [A[1]], meta: { filter_count: 1 } } });
    // Filtered: the whole list (4) and the matches (1) differ, and the recording never told which total_count is.
    const open = handleRequest(
      model,
      ep,
      get("/items", [
        ["status", "draft"],
        ["meta", "total_count"],
      ]),
    );
    expect(open.status).toBe(501);
    expect(JSON.stringify(open.body)).toContain(
      "did not tell whether meta.total_count counts the matches before the page or the entities the plain list shows",
    );
    // A value never recorded is unlearned.
    expect(handleRequest(model, ep, get("/items", [["meta", "*"]])).status).toBe(501);
  });

  it("takes the one count every read confirms once a read tells them apart", () => {
    const specs = [
      read("", A),
      read("?status=published", published),
      read("?status=published&limit=2&meta=total_count", published.slice(0, 2), { total_count: 4 }),
    ];
    // limit=2 was only ever sent beside meta=total_count: which of them adds meta is not decided, nothing is learned.
    const undecided = learnSpecs(specs).model.collections[0]!.query!.rules;
    expect(undecided.some((r) => r.kind === "envelope")).toBe(false);
    const { model } = learnSpecs([...specs, read("?limit=2", A.slice(0, 2))]);
    const rule = model.collections[0]!.query!.rules.find((r) => r.kind === "envelope");
    expect(rule?.kind === "envelope" && rule.fields).toEqual([
      { pointer: "/meta/total_count", of: ["scope_total"] },
    ]);
  });

  it("is refused when an added leaf is no count of its read: the read replays, the parameter stays unlearned", () => {
    const { model, seed } = learnSpecs([
      read("", A),
      read("?status=published", published),
      read("?limit=2&meta=total_count", A.slice(0, 2), { total_count: 4 }),
      read("?status=published&meta=total_count", published, { total_count: 7 }),
    ]);
    expect(model.collections[0]!.query!.rules.some((r) => r.kind === "envelope")).toBe(false);
    const ep = createEpisode(model, seed, { episodeId: "r" });
    const replay = handleRequest(
      model,
      ep,
      get("/items", [
        ["status", "published"],
        ["meta", "total_count"],
      ]),
    );
    expect(replay.served_by).toBe("replay");
    const other = handleRequest(
      model,
      ep,
      get("/items", [
        ["limit", "3"],
        ["meta", "total_count"],
      ]),
    );
    expect(other.status).toBe(501);
  });
});
