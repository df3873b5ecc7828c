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
    expect(byId["delete"]!["responses"]).toEqual({
      "204": { description: "No Content (as recorded)" },
      // The twin answers an unknown id with the collection's recorded not-found answer, on every route by id.
      "404": {
        description: "Not Found (the app's answer to an unknown id, as recorded on get_items_by_id)",
        content: {
          "application/json": {
            schema: { type: "object", properties: { error: { type: "string" } }, required: ["error"] },
            example: { error: "not_found" },
          },
        },
      },
    });
    expect(byId["patch"]!["x-apptwin-serving"]).toBe("withheld");
    expect(byId["patch"]!["x-apptwin-withheld"]).toEqual({
      reason: "not_read_back",
      hint: "read the item back with GET /api/items/{id} after the PATCH",
    });
    expect(Object.keys(byId["get"]!["responses"] as Obj)).toEqual(["200", "404"]);
  });

  it("applies the auth the recording shows per operation, as alternatives, and none where none was sent", () => {
    const model = {
      ...ITEMS_MODEL,
      auth: {
        schemes: [
          {
            id: "bearer",
            kind: "bearer" as const,
            name: "Authorization",
            explain: "HTTP Bearer authentication",
          },
          { id: "cookie_session", kind: "cookie" as const, name: "session", explain: "The session cookie" },
          { id: "query_key", kind: "query" as const, name: "key", explain: "The key query parameter" },
        ],
        endpoints: { get_items: [["bearer"], ["cookie_session", "query_key"]], post_login: [[]] },
      },
    };
    const d = openApiFromModel(model, "items-basic", "0.1.0");
    expect((d["components"] as Obj)["securitySchemes"]).toEqual({
      bearer: {
        type: "http",
        scheme: "bearer",
        description: "HTTP Bearer authentication, as the recording shows it (values redacted).",
      },
      cookie_session: {
        type: "apiKey",
        in: "cookie",
        name: "session",
        description: "The session cookie, as the recording shows it (values redacted).",
      },
      query_key: {
        type: "apiKey",
        in: "query",
        name: "key",
        description: "The key query parameter, as the recording shows it (values redacted).",
      },
    });
    const paths = d["paths"] as Record<string, Record<string, Obj>>;
    expect(paths["/api/items"]!["get"]!["security"]).toEqual([
      { bearer: [] },
      { cookie_session: [], query_key: [] },
    ]);
    expect(paths["/api/login"]!["post"]!["security"]).toEqual([]);
    expect(paths["/api/items"]!["get"]!["tags"]).toEqual(["items"]);
    expect(d["tags"]).toEqual([
      { name: "items", description: "The items collection" },
      { name: "login", description: "Requests under login" },
    ]);
  });

  it("types query parameters by the values sent and puts the recorded examples in", () => {
    const model = {
      ...ITEMS_MODEL,
      examples: {
        get_items: {
          responses: { "200": { data: [{ id: 1, title: "Milk" }], total: 1 } },
          query: {
            done: { values: ["false", "true"], seen: 2, type: "boolean" as const },
            limit: { values: ["10", "5"], seen: 3, type: "integer" as const },
          },
        },
        post_items: { request: { title: "Milk" }, responses: {} },
      },
    };
    const d = openApiFromModel(model, "items-basic", "0.1.0");
    const items = (d["paths"] as Record<string, Record<string, Obj>>)["/api/items"]!;
    const params = items["get"]!["parameters"] as Obj[];
    const byName = Object.fromEntries(params.map((p) => [p["name"], p]));
    expect(byName["done"]).toMatchObject({
      in: "query",
      required: false,
      schema: { type: "boolean" },
      example: false,
    });
    expect(byName["limit"]).toMatchObject({
      schema: { type: "integer" },
      example: 10,
      description: "Sent in 3 recorded requests.",
    });
    const ok = (items["get"]!["responses"] as Record<string, Obj>)["200"]!;
    expect((ok["content"] as Record<string, Obj>)["application/json"]!["example"]).toEqual({
      data: [{ id: 1, title: "Milk" }],
      total: 1,
    });
    const body = (items["post"]!["requestBody"] as { content: Record<string, Obj> }).content[
      "application/json"
    ]!;
    expect(body["example"]).toEqual({ title: "Milk" });
  });
});
