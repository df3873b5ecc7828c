/** The zod output schemas the tools of `apptwin mcp` declare (the SDK checks every result against them). */
import { z } from "zod";

export const GapSchema = z.object({
  tool: z.string().describe("the write tool that is withheld"),
  request: z.string().describe("method and path template, e.g. POST /api/items"),
  reason: z.string().describe("the withheld reason code, e.g. not_read_back"),
  hint: z.string().describe("what to record to close the gap, or why none can"),
  action: z
    .enum(["record", "stop"])
    .describe("record: one more recording can close it; stop: report it as withheld"),
  why: z.string(),
});

export const CoverageSummarySchema = z.object({
  status: z.enum(["empty", "partial", "complete"]),
  collections: z.array(z.object({ name: z.string(), entities: z.number() })),
  reads: z.object({ state: z.number(), replayed: z.number() }),
  writes_served: z.array(z.string()),
  sign_in: z.array(z.string()),
  gaps: z.array(GapSchema),
});

export const StepSchema = z.object({
  step_id: z.string(),
  status: z.string(),
  duration_ms: z.number().nullable(),
  error: z.string().nullable().describe("the failure, wrapped as untrusted content when it quotes the app"),
});

/** What capture_browser_scenario and import_har both answer. */
export const CaptureOutputShape = {
  capture_id: z.string().describe("the id to pass to environment_coverage and export_environment_bundle"),
  kind: z.enum(["capture", "import"]),
  verdict: z.enum(["passed", "failed", "incomplete"]),
  evidence_id: z.string(),
  records: z.number(),
  writes_sent: z.number().describe("writes that reached the app (0 for an import)"),
  redactions: z.number(),
  limitations: z.array(z.string()),
  steps: z.array(StepSchema),
  coverage: CoverageSummarySchema,
  resources: z.object({ evidence: z.string(), coverage: z.string() }),
  next: z.string(),
};
