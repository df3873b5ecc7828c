/**
 * The small value schemas steps are made of: a target string, a value (a
 * literal or a reference to a secret, a cookie, the page's storage, or the
 * answer of an earlier request step), a name/value pair.
 */
import { z } from "zod";

/** An RFC 6901 JSON pointer: "" or a sequence of "/token" with "~" escaped as ~0 and "/" as ~1. */
export const JSON_POINTER = /^(\/([^~/]|~[01])*)*$/;
/** A step id (and so the `response` of a value reference). */
export const STEP_ID = /^[A-Za-z][A-Za-z0-9._-]{0,63}$/;
const HEADER_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A non-empty string with a description for the JSON Schema. */
export const text = (what: string) => z.string().min(1, { error: "must not be empty" }).describe(what);

/** A target: how a step finds an element on the page. */
export const TargetSchema = text(
  'How to find the element: testid=…, text=…, label=…, role=<ARIA role>[name="…"] or css=…',
);

const prefix = z.string().optional().describe('Text put before the value, e.g. "Bearer "');
const POINTER_ERROR = 'must be an RFC 6901 JSON pointer such as "/token" or "" for the whole value';
const pointer = z
  .string()
  .regex(JSON_POINTER, { error: POINTER_ERROR })
  .describe("RFC 6901 JSON pointer into the stored JSON value");
const stepRef = z
  .string()
  .regex(STEP_ID, { error: "must be the step_id of an earlier request step" })
  .describe("The step_id of an earlier request step");

/** A reference to a declared secret, read from its environment variable at run time. */
export const SecretRefSchema = z
  .strictObject({ secret: text("The id of a secret declared in `secrets`"), prefix })
  .describe("A reference to a declared secret");

/** A value read from the answer of an earlier request step: its JSON at a pointer, or a header. */
export const ResponseRefSchema = z.union([
  z
    .strictObject({
      response: stepRef,
      pointer: pointer.describe("RFC 6901 JSON pointer into that step's JSON answer (a scalar)"),
      prefix,
    })
    .describe("A scalar of an earlier request step's JSON answer"),
  z
    .strictObject({
      response: stepRef,
      header: z
        .string()
        .regex(HEADER_TOKEN, { error: "must be a header name such as location" })
        .describe("A response header's name (case-insensitive)"),
      prefix,
    })
    .describe("A response header of an earlier request step"),
]);

/** What a value must be, for messages: every reference written out. */
export const REFERENCE_SHAPES =
  '{ "secret": id }, { "cookie": name }, { "cookie_matching": regex }, { "local_storage": key, "pointer"? }, { "session_storage": key, "pointer"? }, { "response": step_id, "pointer": "/…" } or { "response": step_id, "header": name }, each with an optional "prefix"';

/** Every kind of reference a value may be, each with an optional `prefix`. */
export const ReferenceSchema = z.union(
  [
    SecretRefSchema,
    z.strictObject({ cookie: text("The cookie's name"), prefix }).describe("A cookie of the start origin"),
    z
      .strictObject({
        cookie_matching: text(
          "A regular expression on cookie names; exactly one cookie must match. Its named groups fill {placeholders} in a header's name",
        ),
        prefix,
      })
      .describe("The one cookie of the start origin whose name matches a regular expression"),
    z
      .strictObject({ local_storage: text("The localStorage key"), pointer: pointer.optional(), prefix })
      .describe("A localStorage value (a pointer reads into its JSON)"),
    z
      .strictObject({ session_storage: text("The sessionStorage key"), pointer: pointer.optional(), prefix })
      .describe("A sessionStorage value (a pointer reads into its JSON)"),
    ...ResponseRefSchema.options,
  ],
  { error: `must be a reference: ${REFERENCE_SHAPES}` },
);

/** A value typed, chosen or sent by a step: a literal string or a reference. */
export const ValueSchema = z
  .union([z.string(), ...ReferenceSchema.options], {
    error: `must be a string or a reference: ${REFERENCE_SHAPES}`,
  })
  .describe(
    'A literal string, or a reference: { "secret" }, { "cookie" }, { "cookie_matching" }, { "local_storage" }, { "session_storage" }, { "response", "pointer" | "header" }',
  );

/** A header value: the same as any value (kept as its own name for the JSON Schema and callers). */
export const HeaderValueSchema = ValueSchema;

/** One name/value pair of a query or a url-encoded form. */
export const NameValueSchema = z.strictObject({ name: text("The parameter's name"), value: ValueSchema });

/** A reference (anything but a literal string). */
export type Reference = z.infer<typeof ReferenceSchema>;
/** A reference to an earlier request step's answer. */
export type ResponseRef = z.infer<typeof ResponseRefSchema>;
/** A literal string or a reference. */
export type Value = z.infer<typeof ValueSchema>;
/** A header value of a request step. */
export type HeaderValue = Value;
