/**
 * The answer of a `status` fault: the app's own recorded answer with that
 * status, so a frontend's error handling meets what the real app would send.
 * The closest recording wins: the same endpoint's, then any endpoint's of the
 * app (replayed answers, validation failures, not-found answers). When the
 * recording holds none with that status, the body says so instead of
 * pretending to be the app's.
 */
import type { Model, ReplayBody } from "../model/model-schema.js";
import type { TwinResponseBody } from "./runtime/twin-types.js";

/** A fault's answer: status, headers, body, and whether the body is the app's recorded one. */
export interface FaultAnswer {
  status: number;
  headers: Record<string, string>;
  body: TwinResponseBody;
  /** `recorded`: the app's own answer with this status; `given`: the plan's body; `apptwin`: none was recorded. */
  source: "recorded" | "given" | "apptwin";
}

interface Candidate {
  tool: string;
  contentType: string | null;
  body: TwinResponseBody;
}

function fromReplayBody(body: ReplayBody, contentType: string | null): TwinResponseBody {
  if (body === null) return null;
  if (body.encoding === "json") return { kind: "json", value: structuredClone(body.value) };
  const ct = contentType ?? "application/octet-stream";
  return body.encoding === "utf8"
    ? { kind: "text", text: body.text, content_type: ct }
    : { kind: "base64", text: body.text, content_type: ct };
}

function fromValue(value: unknown, contentType: string | null): TwinResponseBody {
  if (typeof value === "string" && contentType !== null && !/json/i.test(contentType))
    return { kind: "text", text: value, content_type: contentType };
  return { kind: "json", value: structuredClone(value) };
}

/** Every recorded answer of the model with this status, in model order. */
function candidates(model: Model, status: number): Candidate[] {
  const out: Candidate[] = [];
  for (const r of model.replays) {
    for (const a of r.responses) {
      if (a.status !== status) continue;
      const ct = a.headers["content-type"] ?? null;
      out.push({ tool: r.tool_name, contentType: ct, body: fromReplayBody(a.body, ct) });
    }
  }
  for (const v of model.validations ?? []) {
    if (v.status === status)
      out.push({ tool: v.tool_name, contentType: v.content_type, body: fromValue(v.body, v.content_type) });
  }
  for (const c of model.collections) {
    if (c.not_found?.status !== status || c.item_endpoint === null) continue;
    out.push({
      tool: c.item_endpoint,
      contentType: c.not_found.content_type,
      body: fromValue(c.not_found.body, c.not_found.content_type),
    });
  }
  return out;
}

/** The answer a `status` fault sends for a request of `tool` (null when no route matched). */
export function faultAnswer(model: Model, status: number, tool: string | null, given?: unknown): FaultAnswer {
  if (given !== undefined) {
    return {
      status,
      headers: { "content-type": "application/json" },
      body: fromValue(given, null),
      source: "given",
    };
  }
  const all = candidates(model, status);
  const best = all.find((c) => c.tool === tool) ?? all[0];
  if (best) {
    return {
      status,
      headers: { "content-type": best.contentType ?? "application/json" },
      body: best.body,
      source: "recorded",
    };
  }
  return {
    status,
    headers: { "content-type": "application/json" },
    body: {
      kind: "json",
      value: {
        error: "fault",
        message: `The recording holds no answer with status ${status}, so this body is apptwin's, not the app's.`,
      },
    },
    source: "apptwin",
  };
}
