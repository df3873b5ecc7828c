/**
 * The small value schemas steps are made of: a target string, a value (literal
 * or secret reference), a request header value, a name/value pair.
 */
import { z } from "zod";

const JSON_POINTER = /^(\/([^~/]|~[01])*)*$/;

/** A non-empty string with a description for the JSON Schema. */
export const text = (what: string) => z.string().min(1, { error: "must not be empty" }).describe(what);

/** A target: how a step finds an element on the page. */
export const TargetSchema = text(
  'How to find the element: testid=…, text=…, label=…, role=<ARIA role>[name="…"] or css=…',
);

/** A reference to a declared secret, read from its environment variable at run time. */
export const SecretRefSchema = z
  .strictObject({ secret: text("The id of a secret declared in `secrets`") })
  .describe("A reference to a declared secret");

/** A value typed or chosen by a step: a literal string or a secret reference. */
export const ValueSchema = z
  .union([z.string(), SecretRefSchema], { error: 'must be a string or { "secret": "<id>" }' })
  .describe('A literal string, or { "secret": "<id>" } for a declared secret');

const prefix = z.string().optional().describe('Text put before the value, e.g. "Bearer "');
const pointer = z
  .string()
  .regex(JSON_POINTER, {
    error: 'must be an RFC 6901 JSON pointer such as "/token" or "" for the whole value',
  })
  .optional()
  .describe("RFC 6901 JSON pointer into the stored JSON value");

/** A header value: a literal, a secret, or a value the page stored (cookie, local or session storage). */
export const HeaderValueSchema = z
  .union(
    [
      z.string(),
      z.strictObject({ secret: text("A declared secret id"), prefix }),
      z.strictObject({ cookie: text("The cookie's name"), prefix }),
      z.strictObject({ local_storage: text("The localStorage key"), pointer, prefix }),
      z.strictObject({ session_storage: text("The sessionStorage key"), pointer, prefix }),
    ],
    {
      error:
        'must be a string, { "secret": id }, { "cookie": name }, { "local_storage": key, "pointer"? } or { "session_storage": key, "pointer"? }, each with an optional "prefix"',
    },
  )
  .describe("A header value: literal, secret, cookie, or a value from local/session storage");

/** One name/value pair of a query or a url-encoded form. */
export const NameValueSchema = z.strictObject({ name: text("The parameter's name"), value: ValueSchema });

/** A literal string or a secret reference. */
export type Value = z.infer<typeof ValueSchema>;
/** A header value of a request step. */
export type HeaderValue = z.infer<typeof HeaderValueSchema>;
