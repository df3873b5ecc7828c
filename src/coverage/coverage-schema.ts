/**
 * The coverage report (`schema_version: 1`): what the twin learned from the
 * evidence serves from state, replays, or withholds and why, with a hint per
 * gap and the single next thing to do. `coverage.json` in a bundle is this.
 */
import { z } from "zod";
import { WithheldReasonSchema } from "../model/model-schema.js";

/** The newest coverage report version. */
export const COVERAGE_SCHEMA_VERSION = 1;

/** A warning about the evidence, with a JSON pointer into it and the same place in display form. */
export const CoverageWarningSchema = z.strictObject({
  code: z.string(),
  message: z.string(),
  /** `/records/12/response/body`, or null when the warning is about the whole evidence. */
  pointer: z.string().nullable(),
  /** `records[12].response.body`, or null. */
  path: z.string().nullable(),
});

export const CoverageReadSchema = z.strictObject({
  tool_name: z.string(),
  method: z.string(),
  template: z.string(),
  /** `inferred`: an item route learning inferred from a sibling collection, served from state, never recorded. */
  serving: z.enum(["state", "replay", "inferred"]),
  collection: z.string().nullable(),
  observations: z.number().int().nonnegative(),
  explain: z.string(),
  /**
   * Query parameters the recording sent to this state-backed read without a confirmed meaning: only their exact
   * recorded requests replay; any other value gets an `unlearned_query` miss. Absent when there are none (so
   * older reports read).
   */
  unlearned_query: z
    .array(z.strictObject({ param: z.string(), recorded: z.number().int().nonnegative(), hint: z.string() }))
    .optional(),
  /**
   * Query meanings inferred from a sibling collection (src/learn/inferred-queries.ts), never proven: `inferred`,
   * with the sibling and what it means; and those refused, with why. Absent when none (older reports read).
   */
  inferred_query: z
    .array(
      z.strictObject({
        param: z.string(),
        kind: z.string(),
        from: z.string(),
        serving: z.enum(["inferred", "refused"]),
        explain: z.string(),
      }),
    )
    .optional(),
});

export const CoverageWriteSchema = z.strictObject({
  tool_name: z.string(),
  method: z.string(),
  template: z.string(),
  collection: z.string().nullable(),
  observations: z.number().int().nonnegative(),
  explain: z.string(),
  /**
   * What the write does that no recording confirmed (src/learn/write-unconfirmed.ts): `default`, the value a field a
   * create's request leaves out gets (no recorded create left it out); `id_reuse`, whether an id freed by deleting
   * the highest entity is given again. Absent when everything was recorded (so older reports read).
   */
  unconfirmed: z
    .array(z.strictObject({ field: z.string(), kind: z.enum(["default", "id_reuse"]), explain: z.string() }))
    .optional(),
});

/** A sign-in endpoint: replayed with its recorded successful answer, credentials not checked. */
export const CoverageSignInSchema = z.strictObject({
  tool_name: z.string(),
  method: z.string(),
  template: z.string(),
  observations: z.number().int().nonnegative(),
  explain: z.string(),
});

/** A validation failure the recording confirmed: the twin answers it as the app did (src/learn/validation-rules.ts). */
export const CoverageValidationSchema = z.strictObject({
  tool_name: z.string(),
  method: z.string(),
  template: z.string(),
  field: z.string(),
  /**
   * What the refused request did with the field (the model rule's `kind`; `missing` for a field lacking or blank).
   * Optional so older coverage reads.
   */
  kind: z.enum(["missing", "type", "null", "range", "stale", "unique", "sent"]).optional(),
  status: z.number().int(),
  explain: z.string(),
});

export const CoverageWithheldSchema = z.strictObject({
  tool_name: z.string(),
  method: z.string(),
  template: z.string(),
  collection: z.string().nullable(),
  observations: z.number().int().nonnegative(),
  reason: WithheldReasonSchema,
  hint: z.string(),
  /** False when no recording can close the gap (`next` skips it). Always written; optional so older reports still read. */
  closable: z.boolean().optional(),
});

export const CoverageSchema = z.strictObject({
  schema_version: z.literal(COVERAGE_SCHEMA_VERSION),
  /** `empty`: nothing learnable; `partial`: something withheld; `complete`: every write served. */
  status: z.enum(["empty", "partial", "complete"]),
  app_origin: z.string(),
  counts: z.strictObject({
    records: z.number().int().nonnegative(),
    api_records: z.number().int().nonnegative(),
    assets: z.number().int().nonnegative(),
    ignored: z.number().int().nonnegative(),
  }),
  collections: z.array(
    z.strictObject({ name: z.string(), id_field: z.string(), entities: z.number().int().nonnegative() }),
  ),
  reads: z.array(CoverageReadSchema),
  writes: z.strictObject({
    served: z.array(CoverageWriteSchema),
    withheld: z.array(CoverageWithheldSchema),
    /**
     * Writes with no visible effect, answered as recorded without changing state: a tier of their own, never
     * counted as served (proven). Always written; optional so older reports still read.
     */
    acknowledged: z.array(CoverageWriteSchema).optional(),
  }),
  /** Sign-in writes, replayed rather than learned (always written; optional so older reports still read). */
  sign_in: z.array(CoverageSignInSchema).optional(),
  /** Validation failures answered as recorded, per endpoint and field (always written; optional so older reports still read). */
  validations: z.array(CoverageValidationSchema).optional(),
  warnings: z.array(CoverageWarningSchema),
  /**
   * The evidence's verdict and, unless `passed`, why: a twin learned from a failed or incomplete capture knows less
   * than the scenario meant to show. Always written; optional so older reports still read.
   */
  evidence: z
    .strictObject({ verdict: z.enum(["passed", "failed", "incomplete"]), reasons: z.array(z.string()) })
    .optional(),
  /** The single next thing to do, or null when coverage is complete. */
  next: z.string().nullable(),
});

export type CoverageWarning = z.infer<typeof CoverageWarningSchema>;
export type CoverageRead = z.infer<typeof CoverageReadSchema>;
export type CoverageWrite = z.infer<typeof CoverageWriteSchema>;
export type CoverageSignIn = z.infer<typeof CoverageSignInSchema>;
export type CoverageValidation = z.infer<typeof CoverageValidationSchema>;
export type CoverageWithheld = z.infer<typeof CoverageWithheldSchema>;
export type Coverage = z.infer<typeof CoverageSchema>;
