/**
 * The scenario format (`schema_version: 1`) as one zod schema: the shape of
 * every field. Rules that span fields (targets, secrets, headers, origins,
 * credentials) live in the rule modules beside it; the JSON Schema in
 * `schemas/scenario.schema.json` is generated from this file.
 */
import { z } from "zod";
import {
  HeaderValueSchema,
  NameValueSchema,
  SecretRefSchema,
  STEP_ID,
  TargetSchema,
  text,
  ValueSchema,
} from "./value-schema.js";

export {
  type HeaderValue,
  HeaderValueSchema,
  NameValueSchema,
  type Reference,
  ReferenceSchema,
  type ResponseRef,
  ResponseRefSchema,
  SecretRefSchema,
  TargetSchema,
  type Value,
  ValueSchema,
} from "./value-schema.js";

/** The newest scenario version this apptwin reads. */
export const SCENARIO_SCHEMA_VERSION = 1;
/** A step's deadline when it names none. */
export const DEFAULT_STEP_TIMEOUT_MS = 15_000;
/** The longest deadline a step may ask for. */
export const MAX_STEP_TIMEOUT_MS = 120_000;
/** The methods a request step may send. */
export const REQUEST_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

const SECRET_ID = /^[A-Za-z][A-Za-z0-9._-]{0,63}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const base = {
  step_id: z
    .string()
    .regex(STEP_ID, {
      error:
        'must start with a letter and hold only letters, digits, ".", "_" or "-" (at most 64 characters)',
    })
    .describe("A unique id for the step"),
};
const tail = {
  timeout_ms: z
    .number()
    .int({ error: "must be a whole number of milliseconds" })
    .min(1, { error: "must be at least 1" })
    .max(MAX_STEP_TIMEOUT_MS, { error: `must be at most ${MAX_STEP_TIMEOUT_MS} (two minutes)` })
    .optional()
    .describe(
      `The step's deadline in ms (default ${DEFAULT_STEP_TIMEOUT_MS}, at most ${MAX_STEP_TIMEOUT_MS})`,
    ),
  description: z.string().optional().describe("What the step does, for people"),
};

function step<A extends string, S extends z.ZodRawShape>(action: A, shape: S, what: string) {
  return z.strictObject({ ...base, action: z.literal(action), ...shape, ...tail }).describe(what);
}

const STATUS_OR_CLASS = 'must be a status code (100 to 599) or a class such as "2xx"';
const statusClass = z.union(
  [
    z
      .number()
      .int({ error: STATUS_OR_CLASS })
      .min(100, { error: STATUS_OR_CLASS })
      .max(599, { error: STATUS_OR_CLASS }),
    z.string().regex(/^[1-5]xx$/, { error: STATUS_OR_CLASS }),
  ],
  { error: STATUS_OR_CLASS },
);

/** The request step: one same-origin fetch from the page, with the session's cookies. */
export const RequestStepSchema = step(
  "request",
  {
    method: z.enum(REQUEST_METHODS, { error: `must be one of ${REQUEST_METHODS.join(", ")}` }),
    path: text(
      'A path on the start origin, starting with "/", without "?" or "#"; {name} placeholders are filled from "params"',
    ),
    params: z
      .record(z.string(), ValueSchema)
      .optional()
      .describe("The value of each {name} placeholder of the path, percent-encoded once"),
    query: z.array(NameValueSchema).optional().describe("Query parameters, kept in order, encoded once"),
    headers: z.record(z.string(), HeaderValueSchema).optional().describe("Request headers by name"),
    json: z
      .unknown()
      .optional()
      .describe(
        'A JSON body; { "$value": <reference> } objects (and the one-key { "secret": "<id>" }) are replaced by the value',
      ),
    form: z.array(NameValueSchema).optional().describe("A url-encoded form body"),
    expected_status: z
      .array(
        z
          .number()
          .int({ error: "must be a whole number" })
          .min(100, { error: "must be a status code from 100 to 599" })
          .max(599, { error: "must be a status code from 100 to 599" }),
      )
      .min(1, { error: "must list at least one status (leave it out to accept any 2xx)" })
      .optional()
      .describe("Statuses that pass the step (default: any 2xx); never a 3xx"),
  },
  "Send one HTTP request from the page, on the start origin",
);

/** Every step, discriminated on `action`. */
export const StepSchema = z.discriminatedUnion("action", [
  step("navigate", { path: text("A path on the start origin; may hold ?query and #hash") }, "Open a page"),
  step("click", { target: TargetSchema }, "Click an element"),
  step("fill", { target: TargetSchema, value: ValueSchema }, "Type a value into a field"),
  step("select", { target: TargetSchema, value: ValueSchema }, "Choose an option by value or label"),
  step("press", { key: text('A key such as "Enter"'), target: TargetSchema.optional() }, "Press a key"),
  step("check", { target: TargetSchema }, "Check a checkbox or radio"),
  step("uncheck", { target: TargetSchema }, "Uncheck a checkbox"),
  step(
    "wait",
    {
      target: TargetSchema.optional(),
      text: text("Text to wait for").optional(),
      url: text("A regular expression on path+query+hash").optional(),
    },
    "Wait for exactly one of: an element, a text, a URL",
  ),
  step(
    "expect-text",
    { text: text("The text that must be shown"), target: TargetSchema.optional() },
    "Check a text is shown",
  ),
  step("expect-url", { pattern: text("A regular expression on path+query+hash") }, "Check the URL"),
  step(
    "expect-request",
    {
      request: text('"METHOD /path", the path exact or a prefix ending in *'),
      status: statusClass.optional().describe('A status or a class such as "2xx"'),
    },
    "Check the page sent a request since the last action",
  ),
  RequestStepSchema,
]);

/** Limits on one run; every field is optional and has a default. */
export const LimitsSchema = z.strictObject({
  max_steps: z.number().int().min(1).max(1000).optional().describe("Most steps (default 200)"),
  max_run_ms: z
    .number()
    .int()
    .min(1000)
    .max(3_600_000)
    .optional()
    .describe("Whole run in ms (default 600000)"),
  max_body_bytes: z
    .number()
    .int()
    .min(1024)
    .max(16_777_216)
    .optional()
    .describe("One API body kept (default 1 MiB)"),
  max_asset_bytes: z
    .number()
    .int()
    .min(1024)
    .max(268_435_456)
    .optional()
    .describe("One asset body kept: a document, script, style, font, image (default 32 MiB)"),
  max_evidence_bytes: z
    .number()
    .int()
    .min(65_536)
    .max(1_073_741_824)
    .optional()
    .describe("Whole evidence (default 64 MiB)"),
});

/** A declared secret: its id in the scenario and the environment variable that holds it. */
export const SecretDeclSchema = z.strictObject({
  id: z.string().regex(SECRET_ID, {
    error: 'must start with a letter and hold only letters, digits, ".", "_" or "-"',
  }),
  env: z.string().regex(ENV_NAME, {
    error: "must be an environment variable name (letters, digits and _, not starting with a digit)",
  }),
});

/** HTTP Basic credentials, sent to the start origin only (the browser's sign-in dialog). */
export const HttpCredentialsSchema = z
  .strictObject({
    username: z
      .union([z.string().min(1, { error: "must not be empty" }), SecretRefSchema], {
        error: 'must be a string or { "secret": "<id>" }',
      })
      .describe("The user name: a literal or a secret"),
    password: z
      .strictObject(
        { secret: text("The id of a secret declared in `secrets`") },
        {
          error: 'must be { "secret": "<id>" }: a password is never written in a scenario',
        },
      )
      .describe("The password: always a declared secret"),
  })
  .describe("HTTP Basic credentials for the start origin (sent to no other origin)");

/** The whole scenario file. */
export const ScenarioSchema = z
  .strictObject({
    $schema: z.string().optional().describe("The JSON Schema of this file, for editors"),
    schema_version: z.literal(SCENARIO_SCHEMA_VERSION, { error: `must be ${SCENARIO_SCHEMA_VERSION}` }),
    name: text("The scenario's name"),
    description: z.string().optional(),
    start_url: z
      .string()
      .regex(/^https?:\/\//, { error: "must be an http:// or https:// URL" })
      .describe("Where the browser starts; its origin is the app"),
    allowed_origins: z.array(z.string()).optional().describe("Other origins the page may read from"),
    secrets: z.array(SecretDeclSchema).optional().describe("Secrets, read from the environment at run time"),
    http_credentials: HttpCredentialsSchema.optional(),
    limits: LimitsSchema.optional(),
    steps: z.array(StepSchema).min(1, { error: "must hold at least one step (the first a navigate)" }),
  })
  .describe("An apptwin scenario: a script a browser runs against the app");

/** A validated scenario. */
export type Scenario = z.infer<typeof ScenarioSchema>;
/** One step of a scenario. */
export type Step = z.infer<typeof StepSchema>;
/** The request step. */
export type RequestStep = z.infer<typeof RequestStepSchema>;
/** The HTTP Basic credentials of a scenario. */
export type HttpCredentials = z.infer<typeof HttpCredentialsSchema>;
/** The limits as written (fields optional); see `resolveLimits` for defaults. */
export type Limits = z.infer<typeof LimitsSchema>;
