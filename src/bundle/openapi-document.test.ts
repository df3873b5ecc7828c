import { describe, expect, it } from "vitest";
import { ITEMS_MODEL } from "../../test/fixtures/bundle/items-model.js";
import { openApiFromModel } from "./openapi-document.js";

type Obj = Record<string, unknown>;
const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/** Structural checks of an OpenAPI 3.1 document (the parts apptwin writes). */
function structureProblems(doc: Obj): string[] {
  const problems: string[] = [];
  if (doc["openapi"] !== "3.1.0") problems.push("openapi must be 3.1.0");
  const info = doc["info"] as Obj;
  if (typeof info?.["title"] !== "string" || typeof info?.["version"] !== "string")
    problems.push("info.title/version");
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(doc["paths"] as Obj)) {
    if (!path.startsWith("/")) problems.push(`${path} must start with /`);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries(item as Obj)) {
      if (!METHODS.has(method)) problems.push(`${path}: ${method} is not a method`);
      const o = op as Obj;
      const id = o["operationId"] as string;
      if (ids.has(id)) problems.push(`duplicate operationId ${id}`);
      ids.add(id);
      const params = o["parameters"] as Obj[];
      const pathParams = params.filter((p) => p["in"] === "path").map((p) => p["name"]);
      if (JSON.stringify(pathParams) !== JSON.stringify(templated))
        problems.push(`${path} ${method}: path params ${pathParams} vs ${templated}`);
      for (const p of params)
        if (p["in"] === "path" && p["required"] !== true) problems.push(`${path}: path param not required`);
      const responses = o["responses"] as Obj;
      if (Object.keys(responses).length === 0) problems.push(`${path} ${method}: no responses`);
      for (const [code, r] of Object.entries(responses)) {
        if (!/^([1-5]\d\d|default)$/.test(code)) problems.push(`${path}: bad status ${code}`);
        if (typeof (r as Obj)["description"] !== "string") problems.push(`${path} ${code}: no description`);
      }
    }
  }
  return problems;
}

describe("openApiFromModel", () => {
  const doc = openApiFromModel(ITEMS_MODEL, "items-basic", "0.1.0");

  it("is a structurally valid OpenAPI 3.1 document", () => {
    expect(structureProblems(doc)).toEqual([]);
    expect(Object.keys(doc["paths"] as Obj)).toEqual(["/api/items", "/api/items/{id}", "/api/login"]);
  });

  it("uses tool names as operation ids, request schemas as bodies and marks serving", () => {
    const items = (doc["paths"] as Record<string, Record<string, Obj>>)["/api/items"]!;
    expect(Object.keys(items)).toEqual(["get", "post"]);
    expect(items["post"]!["operationId"]).toBe("post_items");
    expect(items["post"]!["requestBody"]).toEqual({
      required: true,
      content: {
        "application/json": {
          schema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
        },
      },
    });
    expect(items["post"]!["x-apptwin-serving"]).toBe("state");
    const byId = (doc["paths"] as Record<string, Record<string, Obj>>)["/api/items/{id}"]!;
    expect(byId["delete"]!["responses"]).toEqual({ "204": { description: "No Content (as recorded)" } });
    expect(byId["patch"]!["x-apptwin-serving"]).toBe("withheld");
    expect(byId["patch"]!["x-apptwin-withheld"]).toEqual({
      reason: "not_read_back",
      hint: "read the item back with GET /api/items/{id} after the PATCH",
    });
    expect(Object.keys(byId["get"]!["responses"] as Obj)).toEqual(["200", "404"]);
  });
});
