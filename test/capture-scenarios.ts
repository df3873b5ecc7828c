/** Scenarios the capture tests run against a fresh items app (the start URL is filled in per app). */
import type { Scenario } from "../src/scenario/scenario-schema.js";

const bearer = { local_storage: "auth", pointer: "/token", prefix: "Bearer " } as const;
const writeHeaders = { "x-csrf-token": { cookie: "csrftoken" }, authorization: bearer };

/** Signs in through the form with the declared secret. */
export const signInSteps: Scenario["steps"] = [
  { step_id: "login-page", action: "navigate", path: "/login" },
  { step_id: "email", action: "fill", target: "label=Email", value: "admin@example.test" },
  { step_id: "password", action: "fill", target: "label=Password", value: { secret: "password" } },
  { step_id: "submit", action: "click", target: 'role=button[name="Sign in"]' },
  { step_id: "login-sent", action: "expect-request", request: "POST /api/login", status: 200 },
  { step_id: "landed", action: "expect-url", pattern: "^/items" },
  { step_id: "listed", action: "expect-text", text: "Buy coffee beans" },
];

/** Creates, updates and deletes item 6 with request steps, reading each write back. */
export const crudSteps: Scenario["steps"] = [
  {
    step_id: "create",
    action: "request",
    method: "POST",
    path: "/api/items",
    headers: writeHeaders,
    json: { title: "Oat milk" },
    expected_status: [201],
  },
  {
    step_id: "read-created",
    action: "request",
    method: "GET",
    path: "/api/items/6",
    headers: { authorization: bearer },
  },
  {
    step_id: "update",
    action: "request",
    method: "PUT",
    path: "/api/items/6",
    headers: writeHeaders,
    json: { title: "Oat milk (2 l)", done: true },
  },
  {
    step_id: "read-updated",
    action: "request",
    method: "GET",
    path: "/api/items",
    query: [{ name: "done", value: "true" }],
    headers: { authorization: bearer },
  },
  { step_id: "delete", action: "request", method: "DELETE", path: "/api/items/6", headers: writeHeaders },
  {
    step_id: "read-deleted",
    action: "request",
    method: "GET",
    path: "/api/items/6",
    headers: { authorization: bearer },
    expected_status: [404],
  },
];

/** A whole scenario on the app at `url`. */
export function scenarioFor(url: string, name: string, steps: Scenario["steps"]): Scenario {
  return {
    schema_version: 1,
    name,
    start_url: `${url}/`,
    secrets: [{ id: "password", env: "ITEMS_PASSWORD" }],
    steps,
  };
}

/** A scenario on a page-only app (no secrets), with optional limits. */
export function pageScenario(
  origin: string,
  name: string,
  steps: Scenario["steps"],
  limits?: Scenario["limits"],
): Scenario {
  return { schema_version: 1, name, start_url: `${origin}/`, steps, ...(limits ? { limits } : {}) };
}
