/**
 * The Evidence format (`schema_version: 1`): every HTTP transaction a capture
 * (or an imported HAR) saw, redacted, in order, with the steps that caused
 * them and a fail-closed verdict. It is the only input of learning, so it is
 * the contract between capture/import and everything after.
 */
import { z } from "zod";
import { checkHeaderValue, HeaderNameSchema, MethodSchema } from "./http-syntax.js";

/** The newest Evidence version this apptwin reads and writes. */
export const EVIDENCE_SCHEMA_VERSION = 1;

const SHA256 = z.string().regex(/^[0-9a-f]{64}$/);

/** One header as sent or received; order and duplicates are kept. No line breaks (see http-syntax.ts). */
export const HeaderSchema = z
  .strictObject({ name: HeaderNameSchema, value: z.string() })
  .superRefine(checkHeaderValue);

/** A request or response body: text as is, binary as base64; `truncated` when longer than the limit. */
export const BodySchema = z.strictObject({
  encoding: z.enum(["utf8", "base64"]),
  text: z.string(),
  /** The body's full size in bytes before truncation (and before redaction). */
  size: z.number().int().nonnegative(),
  truncated: z.boolean(),
  mime_type: z.string().nullable(),
  /** In a file only: the body is stored once in the evidence's `bodies` under this sha256 (its `text` is then ""). */
  sha256: SHA256.optional(),
});

export const RequestSchema = z.strictObject({
  method: MethodSchema,
  url: z.string().min(1),
  headers: z.array(HeaderSchema),
  body: BodySchema.nullable(),
});

export const ResponseSchema = z.strictObject({
  status: z.number().int().min(0).max(999),
  status_text: z.string(),
  headers: z.array(HeaderSchema),
  body: BodySchema.nullable(),
  /** For 3xx answers: the Location the server gave (never followed by a request step). */
  redirect_to: z.string().nullable(),
});

/** Why a transaction has no (complete) response. */
export const FailureSchema = z.strictObject({
  kind: z.enum(["refused", "aborted", "network", "timeout", "redirect_refused"]),
  message: z.string(),
});

export const ResourceTypeSchema = z.enum([
  "document",
  "xhr",
  "fetch",
  "script",
  "stylesheet",
  "image",
  "font",
  "media",
  "websocket",
  "manifest",
  "other",
]);

/** One HTTP transaction. `started_at` is epoch ms from the browser's timing, or null when unknown. */
export const RecordSchema = z.strictObject({
  seq: z.number().int().nonnegative(),
  step_id: z.string().nullable(),
  started_at: z.number().nullable(),
  duration_ms: z.number().nonnegative().nullable(),
  resource_type: ResourceTypeSchema,
  initiator: z.enum(["page", "request-step"]),
  request: RequestSchema,
  response: ResponseSchema.nullable(),
  failure: FailureSchema.nullable(),
  /** In merged evidence: the evidence this record came from and its seq there. */
  origin: z.strictObject({ evidence_id: z.string(), seq: z.number().int().nonnegative() }).nullable(),
});

export const StepResultSchema = z.strictObject({
  step_id: z.string(),
  action: z.string(),
  status: z.enum(["passed", "failed", "cancelled"]),
  started_at: z.number().nullable(),
  duration_ms: z.number().nonnegative().nullable(),
  error: z.string().nullable(),
  url_before: z.string().nullable(),
  url_after: z.string().nullable(),
});

/** A marker used in this evidence and how often; never the value it stands for. */
export const RedactionSchema = z.strictObject({
  marker: z.string(),
  kind: z.enum(["secret", "page", "header", "field"]),
  count: z.number().int().nonnegative(),
});

export const WarningSchema = z.strictObject({
  code: z.string(),
  message: z.string(),
  /** JSON pointer into this evidence, e.g. `/records/12/response/body`. */
  pointer: z.string().nullable(),
});

export const SourceSchema = z.strictObject({
  kind: z.enum(["capture", "har", "merge"]),
  /** Scenario name and sha256 of its canonical JSON (secrets as references), for captures. */
  scenario: z.strictObject({ name: z.string(), digest: z.string() }).nullable(),
  /** For HAR imports: the file's base name and the HAR creator. */
  har: z.strictObject({ file_name: z.string(), creator: z.string() }).nullable(),
  /** For merges: the evidence ids merged, in order. */
  merged: z.array(z.string()).nullable(),
  /**
   * For merges: the names of the merged sources (scenario names, HAR file names), in merge order, so a bundle of
   * the merge is named after them. Optional: evidence written before it still reads.
   */
  names: z.array(z.string()).optional(),
});

export const EvidenceSchema = z.strictObject({
  schema_version: z.literal(EVIDENCE_SCHEMA_VERSION),
  /** Content id: `ev_` + the first 16 hex of sha256 over the canonical records. */
  evidence_id: z.string(),
  source: SourceSchema,
  /** The app's origin (the start URL's origin); every other origin is foreign. */
  app_origin: z.string(),
  allowed_origins: z.array(z.string()),
  browser: z.strictObject({ product: z.string(), version: z.string() }).nullable(),
  started_at: z.number().nullable(),
  finished_at: z.number().nullable(),
  verdict: z.enum(["passed", "failed", "incomplete"]),
  steps: z.array(StepResultSchema),
  records: z.array(RecordSchema),
  redactions: z.array(RedactionSchema),
  warnings: z.array(WarningSchema),
  limitations: z.array(z.string()),
  /** In a file only: asset bodies loaded more than once, stored once by the sha256 of their bytes. */
  bodies: z
    .record(SHA256, z.strictObject({ encoding: z.enum(["utf8", "base64"]), text: z.string() }))
    .optional(),
});

export type Header = z.infer<typeof HeaderSchema>;
export type Body = z.infer<typeof BodySchema>;
export type EvidenceRequest = z.infer<typeof RequestSchema>;
export type EvidenceResponse = z.infer<typeof ResponseSchema>;
export type Failure = z.infer<typeof FailureSchema>;
export type ResourceType = z.infer<typeof ResourceTypeSchema>;
export type EvidenceRecord = z.infer<typeof RecordSchema>;
export type StepResult = z.infer<typeof StepResultSchema>;
export type Redaction = z.infer<typeof RedactionSchema>;
export type EvidenceWarning = z.infer<typeof WarningSchema>;
export type EvidenceSource = z.infer<typeof SourceSchema>;
export type Evidence = z.infer<typeof EvidenceSchema>;
