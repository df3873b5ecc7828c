/**
 * The part of HAR 1.2 that apptwin reads, as zod schemas. Tools add their own
 * fields (`_resourceType`, `_initiator`, …), so objects are loose; what is
 * read is checked, and errors name the field (`log.entries[3].request.url`).
 */
import { z } from "zod";
import { FailureSchema, ResourceTypeSchema } from "./evidence-schema.js";
import { checkHeaderValue, HeaderNameSchema, MethodSchema } from "./http-syntax.js";

/** A header: no line breaks in its name, none in its value but a Set-Cookie's (see http-syntax.ts). */
const HarHeader = z.looseObject({ name: HeaderNameSchema, value: z.string() }).superRefine(checkHeaderValue);

/** What an exported entry keeps of a body besides its text: encoding, size, truncation, type. */
const HarBodyMeta = z
  .strictObject({
    encoding: z.enum(["utf8", "base64"]),
    size: z.number().int().nonnegative(),
    truncated: z.boolean(),
    mime_type: z.string().nullable(),
  })
  .nullable();

/** What apptwin keeps on each exported entry so import(export(e)) gives the same records. */
export const HarApptwinSchema = z.strictObject({
  seq: z.number().int().nonnegative(),
  step_id: z.string().nullable(),
  initiator: z.enum(["page", "request-step"]),
  resource_type: ResourceTypeSchema,
  failure: FailureSchema.nullable(),
  origin: z.strictObject({ evidence_id: z.string(), seq: z.number().int().nonnegative() }).nullable(),
  started_at: z.number().nullable(),
  duration_ms: z.number().nonnegative().nullable(),
  has_response: z.boolean(),
  request_body: HarBodyMeta,
  response_body: HarBodyMeta,
});

/** The schemes a recorded request can have: HTTP(S), and WebSockets (DevTools records their handshake). */
const REQUEST_SCHEMES = new Set(["http:", "https:", "ws:", "wss:"]);

/** Why a request URL is not one a browser sent over the network (the value is never quoted back), or null. */
function badRequestUrl(url: string): string | null {
  if (!URL.canParse(url)) return "must be an absolute URL";
  const scheme = new URL(url).protocol;
  return REQUEST_SCHEMES.has(scheme)
    ? null
    : `must be an http:, https:, ws: or wss: URL, not a ${scheme} URL (no request was sent over the network for it)`;
}

/** Base64 as HAR writers write it (RFC 4648 alphabet, padding optional, line breaks allowed). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A body declared base64 whose text is not base64 is refused: decoding it would keep garbage silently. */
function checkBase64(
  body: { encoding?: string | undefined; text?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (body.encoding?.toLowerCase() !== "base64" || body.text === undefined) return;
  const text = body.text.replace(/\s+/g, "");
  if (BASE64.test(text) && text.replace(/=+$/, "").length % 4 !== 1) return;
  ctx.addIssue({
    code: "custom",
    path: ["text"],
    message: "is not valid base64, though encoding is base64 (letters, digits, + and / only, = as padding)",
  });
}

const HarEntrySchema = z.looseObject({
  startedDateTime: z.string().refine((s) => !Number.isNaN(Date.parse(s)), {
    message: "must be an ISO 8601 date-time such as 2024-05-01T10:00:00.000Z",
  }),
  time: z.number().optional(),
  request: z.looseObject({
    method: MethodSchema,
    url: z.string().superRefine((u, ctx) => {
      const why = badRequestUrl(u);
      if (why !== null) ctx.addIssue({ code: "custom", message: why });
    }),
    headers: z.array(HarHeader),
    postData: z
      .looseObject({
        mimeType: z.string().optional(),
        text: z.string().optional(),
        params: z.array(z.looseObject({ name: z.string(), value: z.string().optional() })).optional(),
        encoding: z.string().optional(),
      })
      .superRefine(checkBase64)
      .optional(),
    bodySize: z.number().optional(),
  }),
  response: z.looseObject({
    status: z.number().int(),
    statusText: z.string().optional(),
    headers: z.array(HarHeader),
    content: z
      .looseObject({
        size: z.number().optional(),
        mimeType: z.string().optional(),
        text: z.string().optional(),
        encoding: z.string().optional(),
      })
      .superRefine(checkBase64)
      .optional(),
    redirectURL: z.string().optional(),
    _error: z.string().nullable().optional(),
  }),
  _resourceType: z.string().optional(),
  _apptwin: z.unknown().optional(),
});

/** A HAR 1.2 document as far as apptwin reads it. */
export const HarSchema = z.looseObject({
  log: z.looseObject({
    version: z.string(),
    creator: z.looseObject({ name: z.string(), version: z.string() }),
    browser: z.looseObject({ name: z.string(), version: z.string() }).optional(),
    entries: z.array(HarEntrySchema),
    /** Present on apptwin's own exports: the app origin of the exported evidence. */
    _apptwin: z.looseObject({ app_origin: z.string() }).optional(),
  }),
});

export type Har = z.infer<typeof HarSchema>;
export type HarEntry = z.infer<typeof HarEntrySchema>;
export type HarApptwin = z.infer<typeof HarApptwinSchema>;
