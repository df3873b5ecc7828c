import { describe, expect, it } from "vitest";
import { itemsModel } from "../../../test/fixtures/models/items-twin.js";
import { endpoint } from "../../../test/fixtures/models/model-builders.js";
import { matchRoute, nearestRoute } from "./route-table.js";

describe("matchRoute", () => {
  // Learning keeps a literal with a reserved character percent-encoded in the template (renderTemplate).
  const model = {
    ...itemsModel(),
    endpoints: [
      endpoint({
        tool_name: "get_content_manager_collection_types_api_article_article",
        method: "GET",
        template: "/content-manager/collection-types/api%3A%3Aarticle.article",
        kind: "other",
        collection: null,
        serving: "replay",
      }),
      endpoint({
        tool_name: "get_content_manager_collection_types_api_article_article_by_id",
        method: "GET",
        template: "/content-manager/collection-types/api%3A%3Aarticle.article/{id}",
        kind: "other",
        collection: null,
        serving: "replay",
      }),
    ],
  };

  it("matches a literal segment holding a reserved character, sent plain or percent-encoded", () => {
    for (const path of [
      "/content-manager/collection-types/api::article.article",
      "/content-manager/collection-types/api%3A%3Aarticle.article",
      "/content-manager/collection-types/api%3a%3aarticle.article",
    ])
      expect(matchRoute(model, "GET", path)?.route.endpoint.tool_name).toBe(
        "get_content_manager_collection_types_api_article_article",
      );
    expect(
      matchRoute(model, "GET", "/content-manager/collection-types/api::article.article/7")?.params,
    ).toEqual({
      id: "7",
    });
  });

  it("does not match another literal, and names the encoded route as the nearest", () => {
    expect(matchRoute(model, "GET", "/content-manager/collection-types/api::page.page")).toBeNull();
    expect(nearestRoute(model, "GET", "/content-manager/collection-types/api::page.page")?.label).toBe(
      "GET /content-manager/collection-types/api%3A%3Aarticle.article",
    );
  });
});

describe("matchRoute with a suffix after the id", () => {
  const model = {
    ...itemsModel(),
    endpoints: ["/issues/{id}.json", "/issues/{id}", "/issues/mine.json"].map((template, i) =>
      endpoint({
        tool_name: `t${i}`,
        method: "GET",
        template,
        kind: "other",
        collection: null,
        serving: "replay",
      }),
    ),
  };

  it("binds the id without the suffix, prefers a literal, then the suffixed parameter, then the bare one", () => {
    expect(matchRoute(model, "GET", "/issues/12.json")).toMatchObject({
      route: { endpoint: { tool_name: "t0" } },
      params: { id: "12" },
    });
    expect(matchRoute(model, "GET", "/issues/mine.json")?.route.endpoint.tool_name).toBe("t2");
    expect(matchRoute(model, "GET", "/issues/12.xml")?.params).toEqual({ id: "12.xml" });
    expect(matchRoute(model, "GET", "/issues/.json")?.route.endpoint.tool_name).toBe("t1");
  });
});

describe("matchRoute with a greedy parameter (an id holding /)", () => {
  const route = (tool_name: string, template: string) =>
    endpoint({ tool_name, method: "GET", template, kind: "other", collection: null, serving: "replay" });
  const model = {
    ...itemsModel(),
    endpoints: [
      route("get_files_by_id", "/api/files/{id+}"),
      route("get_files_checkpoints_by_file_id", "/api/files/{file_id+}/checkpoints"),
      route("get_files_trash", "/api/files/trash"),
      route("get_files_by_file_id_meta", "/api/files/{file_id}/meta"),
    ],
  };
  const match = (path: string) => {
    const m = matchRoute(model, "GET", path);
    return m ? [m.route.endpoint.tool_name, m.params] : null;
  };

  it("takes one or more segments, decoded and joined by /", () => {
    expect(match("/api/files/notes.md")).toEqual(["get_files_by_id", { id: "notes.md" }]);
    expect(match("/api/files/projects/a%20b.ipynb")).toEqual([
      "get_files_by_id",
      { id: "projects/a b.ipynb" },
    ]);
    expect(match("/api/files/a/b/c.txt")).toEqual(["get_files_by_id", { id: "a/b/c.txt" }]);
    expect(match("/api/files")).toBeNull();
  });

  it("prefers the route with segments after the parameter, which leaves the id the rest", () => {
    expect(match("/api/files/projects/a.ipynb/checkpoints")).toEqual([
      "get_files_checkpoints_by_file_id",
      { file_id: "projects/a.ipynb" },
    ]);
    expect(match("/api/files/a.ipynb/checkpoints")).toEqual([
      "get_files_checkpoints_by_file_id",
      { file_id: "a.ipynb" },
    ]);
  });

  it("loses to a route that names every segment (a literal, or single-segment parameters)", () => {
    expect(match("/api/files/trash")).toEqual(["get_files_trash", {}]);
    expect(match("/api/files/x/meta")).toEqual(["get_files_by_file_id_meta", { file_id: "x" }]);
    expect(match("/api/files/x/y/meta")).toEqual(["get_files_by_id", { id: "x/y/meta" }]);
  });

  it("names the greedy route as the nearest for a miss under it", () => {
    expect(nearestRoute(model, "POST", "/api/files/a/b")?.label).toBe("GET /api/files/{id+}");
  });
});
