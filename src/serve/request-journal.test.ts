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
