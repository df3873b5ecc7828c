/**
 * The twin refuses what the app refuses, before any write: a write (or a
 * read) without the credentials every accepted one carried, a body the app could not
 * read, a body that breaks the learned request schema. Each is answered with
 * the app's recorded answer where the recording has one (`validation`), else,
 * for a write served from state, with the twin's own explained 400
 * (`refused`), never by writing from a body nobody could read.
 */
import { formatPath } from "../../errors/document-issue.js";
import type { BodyRefusal, Endpoint, Model } from "../../model/model-schema.js";
import { bodyObject } from "./apply-field-rules.js";
import { explainedAnswer } from "./explain-miss.js";
import { recordedAnswer } from "./recorded-answer.js";
import { checkSchema, type SchemaProblem } from "./schema-check.js";
import type { TwinRequest, TwinResponse } from "./twin-types.js";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

const HINT =
  "The app's recorded requests here sent JSON; record the app's answer to such a body (a request step sending it, with its expected_status) and the twin will answer as the app does.";

/** True when the request carries the credential (`header:authorization`, `cookie:session`), whatever its value. */
function carries(req: TwinRequest, credential: string): boolean {
  const at = credential.indexOf(":");
  const [place, name] = [credential.slice(0, at), credential.slice(at + 1)];
  const headers = new Map(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), v]));
  if (place === "header") return (headers.get(name) ?? "").trim() !== "";
  return (headers.get("cookie") ?? "").split(";").some((seg) => seg.split("=")[0]!.trim() === name);
}

/** The app's recorded refusal of a request (a write, or a read) lacking every credential of one of its rules, or null. */
function credentialRefusal(model: Model, ep: Endpoint, req: TwinRequest): TwinResponse | null {
  if (req.signed_in) return null;
  const rule = (model.credential_refusals ?? []).find(
    (r) => r.tool_name === ep.tool_name && r.missing.every((c) => !carries(req, c)),
  );
  return rule ? recordedAnswer(rule, "validation", ep.tool_name) : null;
}

/**
 * The 501 for a write lacking every credential each accepted write of the tool carried, where the recording has no
 * answer of the app to one (`credentials_required`), or null. Never for an MCP call (the signed-in user).
 */
function unauthenticated(model: Model, ep: Endpoint, req: TwinRequest): TwinResponse | null {
  if (req.signed_in || READS.has(req.method.toUpperCase())) return null;
  const rule = (model.credentials_required ?? []).find((r) => r.tool_name === ep.tool_name);
  if (!rule || rule.carried.some((c) => carries(req, c))) return null;
  const route = `${ep.method} ${ep.template}`;
  const what = rule.carried.join(" and ");
  return explainedAnswer(
    501,
    {
      error: "unauthenticated_unrecorded",
      message: `${req.method.toUpperCase()} ${req.path}: every accepted ${route} in the recording carried ${what}, and this request carries none of them; the recording never shows how the app answers a write without them, so the twin does not write.`,
      hint: `Send the credentials the recorded requests sent (any of ${what}; the twin never checks a value), or record the app's answer to a ${route} without them (a request step with its expected_status), then rebuild the bundle.`,
      carried: rule.carried,
    },
    "miss",
    ep.tool_name,
  );
}

/** The recorded answer to a body of this kind: the tool's own, else the app-wide one. */
function recordedBodyRefusal(model: Model, ep: Endpoint, kind: BodyRefusal["kind"]): TwinResponse | null {
  const all = (model.body_refusals ?? []).filter((r) => r.kind === kind);
  const rule = all.find((r) => r.tool_name === ep.tool_name) ?? all.find((r) => r.tool_name === null);
  return rule ? recordedAnswer(rule, "validation", ep.tool_name) : null;
}

function refused(ep: Endpoint, value: Record<string, unknown>): TwinResponse {
  return {
    status: 400,
    headers: {},
    body: { kind: "json", value },
    served_by: "refused",
    rule: ep.tool_name,
  };
}

/** Why a body is not the JSON a JSON write takes, or null when it is JSON (or another kind the endpoint takes). */
function unreadable(req: TwinRequest): string | null {
  const b = req.body;
  if (b === null) return "is empty";
  // A form to an endpoint whose accepted requests sent JSON: what the app does with one is not recorded.
  if (b.kind === "form") return "is application/x-www-form-urlencoded, not JSON";
  if (b.kind !== "text") return null;
  if (b.invalid) return b.invalid;
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim();
  return `is ${type === "" ? "text" : type}, not JSON`;
}

/** The refusal of a request lacking its credentials or with a body the app could not read, or null. */
export function refuseRequest(model: Model, ep: Endpoint, req: TwinRequest): TwinResponse | null {
  const method = req.method.toUpperCase();
  // A CORS preflight never carries credentials: it is no read the app refused.
  if (method === "OPTIONS") return null;
  const noCredentials = credentialRefusal(model, ep, req) ?? unauthenticated(model, ep, req);
  if (noCredentials) return noCredentials;
  if (READS.has(method)) return null;
  if (ep.request_body !== "json") return null;
  const why = unreadable(req);
  if (why === null) return null;
  const recorded = recordedBodyRefusal(model, ep, "unreadable");
  if (recorded || ep.serving !== "state") return recorded;
  return refused(ep, {
    error: "malformed_body",
    message: `${req.method} ${req.path}: the body ${why}. The recording never shows how the app answers a body it cannot read, so the twin refuses it instead of writing from it.`,
    hint: HINT,
  });
}

/** The refusal of a body that breaks the endpoint's learned request schema (after recorded validations), or null. */
export function refuseBody(model: Model, ep: Endpoint, req: TwinRequest): TwinResponse | null {
  if (READS.has(req.method.toUpperCase()) || ep.request_schema === null) return null;
  const kind = req.body?.kind;
  if (!(kind === "json" && ep.request_body === "json") && !(kind === "form" && ep.request_body === "form"))
    return null;
  // Types only: a field the recording always sent is not shown to be required (MCP calls are checked whole first).
  const problems: SchemaProblem[] = checkSchema(ep.request_schema, bodyObject(req.body), ["body"], {
    required: false,
  });
  if (problems.length === 0) return null;
  const wrongType = problems.length === 1 && problems[0]!.path.length === 1;
  const recorded = wrongType ? recordedBodyRefusal(model, ep, "wrong_type") : null;
  if (recorded || ep.serving !== "state") return recorded;
  const said = problems.map((p) => `${formatPath(p.path)} ${p.message}`).join("; ");
  return refused(ep, {
    error: "invalid_body",
    message: `${req.method} ${req.path}: ${said}. The recording never shows how the app answers such a body, so the twin refuses it instead of guessing.`,
    hint: "The body must fit the request schema learned from the recorded requests (the tool's inputSchema publishes it); record the app's answer to such a body to have the twin answer as the app does.",
    problems: problems.map((p) => ({ field: formatPath(p.path), message: p.message })),
  });
}
