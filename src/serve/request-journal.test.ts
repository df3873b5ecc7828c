import { describe, expect, it } from "vitest";
import { type JournalEntry, journalBody, parseJournalFilter, RequestJournal } from "./request-journal.js";

function entry(over: Partial<JournalEntry>): Omit<JournalEntry, "seq"> {
  return {
    time: "2026-01-01T00:00:00.000Z",
    episode: "e",
    via: "http",
    tool: null,
    method: "GET",
    path: "/api/items",
    query: "",
    body: null,
    status: 200,
    served_by: "state",
    rule: "get_items",
    fault: null,
    latency_ms: 0,
    ms: 1,
    ...over,
  };
}

describe("RequestJournal", () => {
  it("keeps the latest entries within capacity, numbering all and counting what it dropped", () => {
    const j = new RequestJournal(2);
    for (const p of ["/a", "/b", "/c"]) j.record(entry({ path: p }));
    expect(j.find({}).map((e) => [e.seq, e.path])).toEqual([
      [2, "/b"],
      [3, "/c"],
    ]);
    expect(j.dropped).toBe(1);
    j.clear();
    expect(j.record(entry({})).seq).toBe(1);
  });

  it("matches a template segment only against a non-empty segment", () => {
    const j = new RequestJournal();
    j.record(entry({ path: "/api/items/1" }));
    j.record(entry({ path: "/api/items/" }));
    j.record(entry({ path: "/api/items/1/tags" }));
    expect(j.count({ path: "/api/items/{id}" })).toBe(1);
    expect(j.count({ path: "/api/items/*" })).toBe(3);
  });

  it("matches a status class, and no class matches a dropped connection", () => {
    const j = new RequestJournal();
    j.record(entry({ status: 503, served_by: "fault", fault: "status" }));
    j.record(entry({ status: null, served_by: "fault", fault: "drop" }));
    expect(j.count({ status: "5xx" })).toBe(1);
    expect(j.count({ fault: "none" })).toBe(0);
    expect(j.count({ fault: "drop" })).toBe(1);
  });
});

describe("parseJournalFilter", () => {
  it("reads the known criteria and refuses the rest", () => {
    expect(parseJournalFilter(new URLSearchParams("method=post&status=2xx&limit=3"))).toEqual({
      filter: { method: "post", status: "2xx" },
    });
    expect(parseJournalFilter(new URLSearchParams("via=ftp&limit=x"))).toEqual({
      problems: ['via must be http or mcp (got "ftp")', 'limit must be a whole number (got "x")'],
    });
  });
});

describe("journalBody", () => {
  it("masks credential-named fields at any depth and cuts long text", () => {
    expect(journalBody({ user: { email: "a@b", password: "pw" }, api_key: "k", title: "t" })).toEqual({
      user: { email: "a@b", password: "[MASKED]" },
      api_key: "[MASKED]",
      title: "t",
    });
    expect(journalBody("x".repeat(5000))).toEqual({ truncated: true, text: "x".repeat(4096) });
  });
});

describe("RequestJournal as a ring", () => {
  it("keeps exactly the latest `capacity` entries in order however far past capacity it goes, and starts again when cleared", () => {
    const j = new RequestJournal(1000);
    for (let i = 1; i <= 2500; i++) j.record(entry({ path: `/p/${i}` }));
    expect(j.size).toBe(1000);
    expect(j.dropped).toBe(1500);
    const kept = j.find({});
    expect(kept.map((e) => e.seq)).toEqual(Array.from({ length: 1000 }, (_, i) => 1501 + i));
    expect(kept.every((e) => e.path === `/p/${e.seq}`)).toBe(true);
    expect(j.find({}, 3).map((e) => e.seq)).toEqual([2498, 2499, 2500]);
    expect(j.count({ path: "/p/*" })).toBe(1000);
    j.clear();
    expect(j.size).toBe(0);
    for (const p of ["/a", "/b"]) j.record(entry({ path: p }));
    expect(j.find({}).map((e) => [e.seq, e.path])).toEqual([
      [1, "/a"],
      [2, "/b"],
    ]);
  });

  it("keeps none at capacity 0 but numbers and counts them", () => {
    const j = new RequestJournal(0);
    expect(j.record(entry({})).seq).toBe(1);
    expect(j.record(entry({})).seq).toBe(2);
    expect(j.size).toBe(0);
    expect(j.dropped).toBe(2);
  });
});

describe("journalBody copies", () => {
  it("never keeps the body's own objects, masks past any depth a body may have, and keeps a __proto__ field a field", () => {
    const body = JSON.parse('{"a":{"b":[{"token":"t"}]},"__proto__":{"x":1}}');
    const kept = journalBody(body) as Record<string, unknown>;
    expect(kept).toEqual(JSON.parse('{"a":{"b":[{"token":"[MASKED]"}]},"__proto__":{"x":1}}'));
    expect(kept.a).not.toBe(body.a);
    expect(Object.getPrototypeOf(kept)).toBe(Object.prototype);
    let deep: unknown = { secret: "s" };
    for (let i = 0; i < 200; i++) deep = [deep];
    expect(JSON.stringify(journalBody(deep))).not.toContain('"s"');
  });
});
