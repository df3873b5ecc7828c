import { describe, expect, it } from "vitest";
import { DocumentError } from "../errors/user-error.js";
import { resolveLimits } from "./limits.js";
import { parseScenario, validateScenarioText } from "./parse-scenario.js";
import { scenarioDigest } from "./scenario-digest.js";

const base = () => ({
  schema_version: 1,
  name: "t",
  start_url: "http://127.0.0.1:4010/",
  secrets: [{ id: "password", env: "ITEMS_PASSWORD" }],
  steps: [
    { step_id: "open", action: "navigate", path: "/login" } as Record<string, unknown>,
    { step_id: "pw", action: "fill", target: "label=Password", value: { secret: "password" } } as Record<
      string,
      unknown
    >,
  ],
});
const messages = (doc: unknown) =>
  validateScenarioText(typeof doc === "string" ? doc : JSON.stringify(doc), "s.json").issues.map(
    (i) => i.message,
  );

describe("parseScenario", () => {
  it("returns the scenario when everything holds", () => {
    const s = parseScenario(JSON.stringify(base()), "s.json");
    expect(s.steps[1]).toEqual(base().steps[1]);
    expect(resolveLimits(s)).toEqual({
      max_steps: 200,
      max_run_ms: 600_000,
      max_body_bytes: 1_048_576,
      max_asset_bytes: 33_554_432,
      max_evidence_bytes: 67_108_864,
    });
  });

  it("reports every error of the file at once, in a DocumentError naming the file", () => {
    const doc = base() as Record<string, unknown>;
    doc["stpes"] = [];
    doc["limits"] = { max_steps: 2, max_body_bytes: 10 };
    (doc["steps"] as Record<string, unknown>[]).push(
      { step_id: "w", action: "wait", timeout_ms: 200_000 },
      { step_id: "u", action: "expect-url", pattern: "([a-z" },
      { step_id: "open", action: "clik", target: "text=x" },
      { step_id: "c", action: "click" },
      { step_id: "e", action: "expect-request", request: "POST api/items", status: "2XX" },
    );
    let error: unknown;
    try {
      parseScenario(JSON.stringify(doc), "s.json");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DocumentError);
    const issues = (error as DocumentError).issues;
    expect(issues.map((i) => i.message)).toEqual([
      "s.json: limits.max_body_bytes must be at least 1024 (got 10)",
      's.json: the scenario has an unknown field "stpes" (valid fields: $schema, schema_version, name, description, start_url, allowed_origins, secrets, http_credentials, limits, steps)',
      "s.json: steps holds 7 steps, more than limits.max_steps (2); split the scenario or raise limits.max_steps",
      "s.json: steps[2].timeout_ms must be at most 120000 (two minutes) (got 200000)",
      's.json: steps[2] must wait for exactly one of "target", "text" or "url" (got none)',
      "s.json: steps[3].pattern is not a valid regular expression (/([a-z/: Unterminated character class)",
      's.json: steps[4].action must be one of navigate, click, fill, select, press, check, uncheck, wait, expect-text, expect-url, expect-request, request (got "clik")',
      's.json: steps[4].step_id "open" is already the step_id of steps[0]; every step_id must be unique',
      "s.json: steps[5].target is missing (required fields for a click step: step_id, action, target)",
      's.json: steps[6].status must be a status code (100 to 599) or a class such as "2xx" (got "2XX")',
      's.json: steps[6].request must be "METHOD /path", the path exact or a prefix ending in * (e.g. "POST /api/items") (got "POST api/items")',
    ]);
    expect((error as DocumentError).message).toBe(
      `s.json: 11 problems\n${issues.map((i) => `  - ${i.message}`).join("\n")}`,
    );
    expect(issues[8]).toEqual({
      code: "missing_field",
      path: "steps[5].target",
      message:
        "s.json: steps[5].target is missing (required fields for a click step: step_id, action, target)",
    });
  });

  it("names wrong types, bad values and header value shapes without zod's wording", () => {
    const doc = base() as Record<string, unknown>;
    doc["schema_version"] = "1";
    doc["start_url"] = "ftp://x/";
    doc["allowed_origins"] = ["https://cdn.example.com/lib"];
    doc["secrets"] = [
      { id: "password", env: "ITEMS-PASSWORD" },
      { id: "password", env: "B" },
    ];
    (doc["steps"] as Record<string, unknown>[]).push(
      {
        step_id: "1bad",
        action: "request",
        method: "get",
        path: "/a",
        headers: { x: { cookie: "c", pointer: "/a" } },
      },
      { step_id: "n", action: "press", key: 5 },
      {
        step_id: "h",
        action: "request",
        method: "GET",
        path: "/a",
        headers: { y: 7 },
        expected_status: [200.5],
      },
    );
    const got = messages(doc);
    expect(got).toEqual([
      's.json: schema_version must be 1 (got "1")',
      's.json: start_url must be an http:// or https:// URL (got "ftp://x/")',
      's.json: secrets[0].env must be an environment variable name (letters, digits and _, not starting with a digit) (got "ITEMS-PASSWORD")',
      's.json: allowed_origins[0] must be an origin such as "https://cdn.example.com" (scheme, host and optional port, no path) (got "https://cdn.example.com/lib")',
      's.json: secrets[1].id declares the secret "password" a second time; every secret id must be unique',
      's.json: steps[2].step_id must start with a letter and hold only letters, digits, ".", "_" or "-" (at most 64 characters) (got "1bad")',
      's.json: steps[2].method must be one of GET, HEAD, POST, PUT, PATCH, DELETE (got "get")',
      's.json: steps[2].headers.x has an unknown field "pointer" (valid fields: cookie, prefix)',
      "s.json: steps[3].key must be a string (got 5)",
      's.json: steps[4].headers.y must be a string or a reference: { "secret": id }, { "cookie": name }, { "cookie_matching": regex }, { "local_storage": key, "pointer"? }, { "session_storage": key, "pointer"? }, { "response": step_id, "pointer": "/…" } or { "response": step_id, "header": name }, each with an optional "prefix" (got 7)',
      "s.json: steps[4].expected_status[0] must be a whole number (got 200.5)",
    ]);
    expect(got.join("\n")).not.toMatch(/Invalid input|Unrecognized key|expected string/);
  });

  it("refuses undeclared secrets, including inside a JSON body", () => {
    const doc = base();
    doc.secrets = [];
    doc.steps.push({
      step_id: "r",
      action: "request",
      method: "POST",
      path: "/api/login",
      json: { password: { secret: "pw" } },
    });
    expect(messages(doc)).toEqual([
      's.json: steps[1].value.secret references the secret "password", which is not declared (no secrets are declared); add { "id": "password", "env": "<ENV_VAR>" } to "secrets"',
      's.json: steps[2].json.password.secret references the secret "pw", which is not declared (no secrets are declared); add { "id": "pw", "env": "<ENV_VAR>" } to "secrets"',
    ]);
  });

  it("refuses credentials in the start URL, a newer version, bad JSON, repeated keys and a non-object", () => {
    expect(messages({ ...base(), start_url: "http://admin:pw@127.0.0.1:4010/" })).toEqual([
      's.json: start_url holds a user name or password; remove it, and sign in with a fill step that uses { "secret": "<id>" }',
    ]);
    expect(messages({ ...base(), schema_version: 2 })).toEqual([
      "s.json: schema_version 2 is newer than this apptwin reads (1); upgrade apptwin to read it",
    ]);
    expect(messages('{\n  "name": "x",\n  "steps": [\n}')).toEqual([
      expect.stringMatching(
        /^s\.json: the scenario is not valid JSON( at line 4, column 1)?: Unexpected token/,
      ),
    ]);
    const text = JSON.stringify(base()).replace('"path":"/login"', '"path":"/login","path":"/"');
    expect(messages(text)).toEqual([
      's.json: steps[0] has the key "path" twice; JSON keeps only the last, so remove one',
    ]);
    expect(messages("[1]")).toEqual(["s.json: the scenario must be a JSON object (got [1])"]);
  });

  it("reports a document nested too deep instead of overflowing the stack", () => {
    const deep = (open: string, close: string, n: number) =>
      JSON.stringify(base()).replace(
        '"path":"/login"',
        `"path":"/login","x":${open.repeat(n)}1${close.repeat(n)}`,
      );
    for (const text of [deep("[", "]", 100_000), deep('{"a":', "}", 100_000), "[".repeat(100_000)]) {
      const got = messages(text);
      expect(got).toHaveLength(1);
      expect(got[0]).toMatch(
        /^s\.json: the scenario nests objects and arrays more than 64 levels deep at line 1, column \d+; flatten it \(a JSON body rarely needs more than a few levels\)$/,
      );
    }
    expect(messages(deep("[", "]", 50))).toEqual([
      's.json: steps[0] has an unknown field "x" (valid fields for a navigate step: step_id, action, path, timeout_ms, description)',
    ]);
  });

  it("reports every problem of a file with a great many of them without overflowing the stack", () => {
    const doc = base();
    doc.steps = [
      doc.steps[0]!,
      ...Array.from({ length: 150_000 }, (_, i) => ({
        step_id: `s${i}`,
        action: "click",
        target: "role=buton",
      })),
    ];
    const got = messages(doc);
    expect(got).toHaveLength(150_001);
    expect(got[1]).toBe(
      's.json: steps[1].target names the role "buton", which is not an ARIA role (e.g. button, link, textbox)',
    );
  });

  it("reads a file that starts with a UTF-8 byte order mark", () => {
    expect(messages(`\uFEFF${JSON.stringify(base())}`)).toEqual([]);
  });

  it("says where a JSON syntax error is even when the parser does not, without quoting the file", () => {
    expect(messages('{\n  "name": tru,\n  "steps": []\n}')).toEqual([
      "s.json: the scenario is not valid JSON at line 2, column 14: Unexpected token ','",
    ]);
    expect(messages('{\n  "steps": [\n    {"a": 1},,\n  ]\n}')).toEqual([
      "s.json: the scenario is not valid JSON at line 3, column 14: Unexpected token ','",
    ]);
  });

  it("names numbers JSON cannot hold (1e400) as what they became", () => {
    const text = JSON.stringify(base()).replace('"path":"/login"', '"path":"/login","timeout_ms":1e400');
    expect(messages(text)).toEqual(["s.json: steps[0].timeout_ms must be a number (got Infinity)"]);
    expect(messages(JSON.stringify(base()).replace('"schema_version":1', '"schema_version":1e400'))).toEqual([
      "s.json: schema_version must be 1 (got Infinity)",
    ]);
  });

  it("refuses step ids that differ only in case, as duplicates (screenshot names collide on macOS)", () => {
    const doc = base();
    doc.steps.push(
      { step_id: "email", action: "fill", target: "label=Email", value: "a@example.test" },
      { step_id: "Email", action: "fill", target: "label=Email", value: "b@example.test" },
      { step_id: "PW", action: "click", target: "text=x" },
    );
    expect(validateScenarioText(JSON.stringify(doc), "s.json").issues).toEqual([
      {
        code: "duplicate_step_id",
        path: "steps[3].step_id",
        message:
          's.json: steps[3].step_id "Email" is already the step_id of steps[2]; every step_id must be unique',
      },
      {
        code: "duplicate_step_id",
        path: "steps[4].step_id",
        message:
          's.json: steps[4].step_id "PW" is already the step_id of steps[1]; every step_id must be unique',
      },
    ]);
  });

  it("refuses expect-url and wait patterns that backtrack for ever, and passes ordinary ones", () => {
    const doc = base();
    doc.steps.push(
      { step_id: "a", action: "expect-url", pattern: "^/items(/\\d+)?$" },
      { step_id: "b", action: "expect-url", pattern: "(a+)+$" },
      { step_id: "c", action: "wait", url: "(a|a)*$" },
      { step_id: "d", action: "wait", url: "^/boards/[^/]+/cards$" },
      { step_id: "e", action: "expect-url", pattern: "\\?page=\\d+" },
    );
    expect(validateScenarioText(JSON.stringify(doc), "s.json").issues).toEqual([
      {
        code: "risky_regex",
        path: "steps[3].pattern",
        message:
          's.json: steps[3].pattern can backtrack for a very long time: the group "(a+)", repeated by "+", holds a quantifier of its own (nested quantifiers); use one quantifier per repeated part, e.g. "a+" for "(a+)+" or "\\w*x" for "(\\w+)*x"',
      },
      {
        code: "risky_regex",
        path: "steps[4].url",
        message:
          's.json: steps[4].url can backtrack for a very long time: the alternatives of the group "(a|a)", which is repeated, can match the same text ("a"); make the alternatives exclusive or use a character class, e.g. "a*" for "(a|a)*" or "[ab]*" for "(a|b)*"',
      },
    ]);
  });

  it("digests the canonical JSON, so key order and the $schema hint do not matter", () => {
    const a = parseScenario(JSON.stringify(base()), "a.json");
    const reordered = {
      steps: base().steps,
      secrets: base().secrets,
      start_url: base().start_url,
      name: "t",
      schema_version: 1,
    };
    const b = parseScenario(
      JSON.stringify({ $schema: "../schemas/scenario.schema.json", ...reordered }),
      "b.json",
    );
    expect(scenarioDigest(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(scenarioDigest(b)).toBe(scenarioDigest(a));
    expect(scenarioDigest({ ...a, name: "u" })).not.toBe(scenarioDigest(a));
  });
});

describe("value references", () => {
  const doc = (steps: Record<string, unknown>[], extra: Record<string, unknown> = {}) => ({
    ...base(),
    ...extra,
    steps: [
      { step_id: "open", action: "navigate", path: "/" },
      { step_id: "create", action: "request", method: "POST", path: "/api/items", json: { title: "a" } },
      ...steps,
    ],
  });
  const read = (over: Record<string, unknown>) => ({
    step_id: "read",
    action: "request",
    method: "GET",
    path: "/api/items/{id}",
    params: { id: { response: "create", pointer: "/id" } },
    ...over,
  });

  it("accepts a reference in every place a value is taken", () => {
    const ok = doc([
      read({ headers: { "x-id": { response: "create", header: "location", prefix: "at " } } }),
      {
        step_id: "put",
        action: "request",
        method: "PUT",
        path: "/api/items/{id}",
        params: { id: { response: "create", pointer: "/id" } },
        query: [{ name: "v", value: { response: "read", pointer: "/version" } }],
        json: {
          id: { $value: { response: "create", pointer: "/id" } },
          csrf: { $value: { cookie: "csrftoken" } },
        },
      },
      {
        step_id: "form",
        action: "request",
        method: "POST",
        path: "/api/forms",
        form: [{ name: "item", value: { response: "create", pointer: "/id" } }],
      },
      {
        step_id: "type",
        action: "fill",
        target: "label=Title",
        value: { response: "read", pointer: "/title" },
      },
    ]);
    expect(messages(ok)).toEqual([]);
  });

  it("refuses a step reading its own answer, a $value that is not a reference, and a placeholder named like a number", () => {
    expect(
      messages(
        doc([
          read({ params: { id: { response: "read", pointer: "/id" } } }),
          {
            step_id: "w",
            action: "request",
            method: "POST",
            path: "/api/{1x}",
            json: { a: { $value: "literal" } },
          },
        ]),
      ),
    ).toEqual([
      's.json: steps[2].params.id.response names the step "read", which is this step itself; a value can only come from an earlier request step (request steps before this one: create)',
      's.json: steps[3].json.a.$value must be a reference: { "secret": id }, { "cookie": name }, { "cookie_matching": regex }, { "local_storage": key, "pointer"? }, { "session_storage": key, "pointer"? }, { "response": step_id, "pointer": "/…" } or { "response": step_id, "header": name }, each with an optional "prefix" (got "literal")',
      's.json: steps[3].path holds a "{" or "}" that is not a {name} placeholder (a name is letters, digits and _, not starting with a digit); percent-encode a literal brace as %7B or %7D (got "/api/{1x}")',
    ]);
  });

  it("refuses a response reference holding both a pointer and a header, and one holding neither", () => {
    const both = messages(
      doc([read({ params: { id: { response: "create", pointer: "/id", header: "x" } } })]),
    );
    expect(both).toEqual([
      expect.stringContaining("s.json: steps[2].params.id must be a string or a reference: "),
    ]);
    const neither = messages(doc([read({ params: { id: { response: "create" } } })]));
    expect(neither).toEqual([
      expect.stringContaining("s.json: steps[2].params.id must be a string or a reference: "),
    ]);
  });

  it("checks the secrets of HTTP Basic credentials, and never quotes a credential back", () => {
    expect(
      messages(doc([], { http_credentials: { username: { secret: "user" }, password: { secret: "pw" } } })),
    ).toEqual([
      's.json: http_credentials.username.secret references the secret "user", which is not declared (declared: password); add { "id": "user", "env": "<ENV_VAR>" } to "secrets"',
      's.json: http_credentials.password.secret references the secret "pw", which is not declared (declared: password); add { "id": "pw", "env": "<ENV_VAR>" } to "secrets"',
    ]);
    expect(messages(doc([], { http_credentials: { username: "admin", password: { secret: 42 } } }))).toEqual([
      "s.json: http_credentials.password.secret must be a string (got a number)",
    ]);
  });
});
