/** The twin's request for a held-out record: real ids the run paired are replaced, each in its own collection. */
import { describe, expect, it } from "vitest";
import type { ApiRecord } from "../learn/api-records.js";
import type { Model } from "../model/model-schema.js";
import { IdMap, IdScopes, idPlaces, sentKey } from "./id-map.js";
import { type IdContext, twinRequestFor } from "./twin-request.js";

/** The parts of an API record `twinRequestFor` reads. */
const request = (method: string, url: string, json?: unknown): ApiRecord =>
  ({
    method,
    query: [...new URL(url).searchParams],
    request: json === undefined ? { kind: "none" } : { kind: "json", value: json },
    record: { request: { url, headers: [], body: null } },
  }) as unknown as ApiRecord;
const get = (url: string) => request("GET", url);

/** The parts of a model the id scopes and the route match read: Redmine's shape (`.json` item paths, a nested list). */
const endpoint = (method: string, template: string, kind: string, collection: string) => ({
  method,
  template,
  kind,
  collection,
  tool_name: `${method.toLowerCase()} ${template}`,
});
const MODEL = {
  endpoints: [
    endpoint("GET", "/projects/{id}.json", "item", "projects"),
    endpoint("POST", "/projects.json", "create", "projects"),
    endpoint("GET", "/issues/{id}.json", "item", "issues"),
    endpoint("POST", "/issues.json", "create", "issues"),
    endpoint("GET", "/projects/{project_id}/versions.json", "list", "versions"),
    endpoint("GET", "/files/{id}.json", "item", "files"),
  ],
  collections: [{ name: "projects" }, { name: "issues" }, { name: "versions" }, { name: "files" }],
  write_rules: [],
} as unknown as Model;

function context(): IdContext {
  return { ids: new IdMap(), scopes: new IdScopes(MODEL), model: MODEL };
}

describe("twinRequestFor", () => {
  it("translates a paired id as a whole segment, a query value, and before a file-type suffix", () => {
    const ctx = context();
    ctx.ids.add("issues", 5, 6);
    expect(twinRequestFor(get("http://app/issues/5.json?issue_id=5"), ctx)).toMatchObject({
      path: "/issues/6.json",
      query: [["issue_id", "6"]],
    });
  });

  it("leaves a segment alone whose id part was never paired, or that only starts with one", () => {
    const ctx = context();
    ctx.ids.add("files", 5, 6);
    expect(twinRequestFor(get("http://app/files/7.json"), ctx).path).toBe("/files/7.json");
    expect(twinRequestFor(get("http://app/files/5.5.json"), ctx).path).toBe("/files/5.5.json");
  });

  it("never takes one collection's pairing for another's: project 3 being the twin's 4 leaves issue 3 alone", () => {
    const ctx = context();
    ctx.ids.add("projects", 3, 4);
    expect(twinRequestFor(get("http://app/issues/3.json"), ctx).path).toBe("/issues/3.json");
    expect(twinRequestFor(get("http://app/projects/3.json"), ctx).path).toBe("/projects/4.json");
    // A parent's parameter is of the collection its prefix's item route is.
    expect(twinRequestFor(get("http://app/projects/3/versions.json"), ctx).path).toBe(
      "/projects/4/versions.json",
    );
    const body = twinRequestFor(
      request("POST", "http://app/issues.json", { issue: { project_id: 3, tracker_id: 3, id: 3 } }),
      ctx,
    ).body;
    expect(body).toEqual({ kind: "json", value: { issue: { project_id: 4, tracker_id: 3, id: 3 } } });
  });

  it("translates a string id with no collection known only when one collection paired it", () => {
    const ctx = context();
    ctx.ids.add("key:document", "kb5e0xdeq891sia8vexaym7r", "zz5e0xdeq891sia8vexaym7r");
    expect(twinRequestFor(get("http://app/other/kb5e0xdeq891sia8vexaym7r"), ctx).path).toBe(
      "/other/zz5e0xdeq891sia8vexaym7r",
    );
    ctx.ids.add("files", "kb5e0xdeq891sia8vexaym7r", "yy");
    expect(twinRequestFor(get("http://app/other/kb5e0xdeq891sia8vexaym7r"), ctx).path).toBe(
      "/other/kb5e0xdeq891sia8vexaym7r",
    );
  });
});

describe("idPlaces and IdMap.learn", () => {
  it("puts the written entity's id in the write's collection and a nested object's id in the one its key names", () => {
    const scopes = new IdScopes(MODEL);
    const real = { issue: { id: 3, project: { id: 3, name: "Web" }, tracker: { id: 1 }, status_id: 2 } };
    expect(idPlaces(real, "issues", scopes).map((p) => [p.path, p.scope])).toEqual([
      ["body.issue.id", "issues"],
      ["body.issue.project.id", "projects"],
      ["body.issue.tracker.id", "key:tracker"],
      ["body.issue.status_id", "key:status"],
    ]);
    const ids = new IdMap();
    ids.learn(
      real,
      { issue: { id: 5, project: { id: 4 }, tracker: { id: 1 }, status_id: 2 } },
      "assigned",
      "issues",
      scopes,
    );
    expect([
      ids.get("issues", 3),
      ids.get("projects", 3),
      ids.get("issues", 4),
      ids.get("key:tracker", 1),
    ]).toEqual([5, 4, undefined, undefined]);
  });

  it("never pairs a value the request sent", () => {
    const ids = new IdMap();
    ids.learn(
      { id: 9, project_id: 3 },
      { id: 9, project_id: 4 },
      "assigned",
      "issues",
      new IdScopes(MODEL),
      new Set([sentKey(null, "3")]),
    );
    expect(ids.get("projects", 3)).toBeUndefined();
  });

  it("pairs a new id equal to a reference the request sent to another collection, never one sent to its own", () => {
    const scopes = new IdScopes(MODEL);
    const ids = new IdMap();
    // `issue_id: 2` names an issue: the time entry the app numbered 2 (the twin's 3) is still the twin's 3.
    ids.learn(
      { time_entry: { id: 2, issue: { id: 2 } } },
      { time_entry: { id: 3, issue: { id: 2 } } },
      "assigned",
      "time_entries",
      scopes,
      new Set([sentKey("issues", "2")]),
    );
    expect(ids.get("time_entries", 2)).toBe(3);
    // The same value sent where it names the written collection is the client's choice: a wrong one stays a difference.
    const own = new IdMap();
    own.learn(
      { time_entry: { id: 2 } },
      { time_entry: { id: 3 } },
      "assigned",
      "time_entries",
      scopes,
      new Set([sentKey("time_entries", "2")]),
    );
    expect(own.get("time_entries", 2)).toBeUndefined();
  });
});
