/**
 * A request of a kind the served write refuses (`withheld_sent`, src/learn/case-splits.ts): its body sends a field
 * that only unexplained recorded writes sent, so what the app does with it is not in the evidence. It is an
 * explained miss (501 `withheld_case`) naming the field and why those writes stayed unexplained; nothing is written.
 */
import type { Endpoint, WriteRule } from "../../model/model-schema.js";
import { pathOfPointer } from "../../util/json-pointer.js";
import { bodyObject } from "./apply-field-rules.js";
import { explainedAnswer } from "./explain-miss.js";
import type { TwinRequest, TwinResponse } from "./twin-types.js";

/** The 501 for a request sending a field of a withheld case, or null. */
export function refuseWithheldCase(ep: Endpoint, rule: WriteRule, req: TwinRequest): TwinResponse | null {
  if (!rule.withheld_sent || rule.withheld_sent.length === 0) return null;
  const body = bodyObject(req.body);
  if (body === null || typeof body !== "object" || Array.isArray(body)) return null;
  const hit = rule.withheld_sent.find((c) => {
    const [key] = pathOfPointer(c.pointer);
    return key !== undefined && Object.hasOwn(body, key);
  });
  if (!hit) return null;
  const route = `${ep.method} ${ep.template}`;
  const n = hit.recorded;
  return explainedAnswer(
    501,
    {
      error: "withheld_case",
      message: `${req.method.toUpperCase()} ${req.path} sends ${hit.pointer}: the ${n} recorded ${route} that sent it stayed unexplained (${hit.reason}), so the twin serves only requests without it and does not guess what the app does with this one.`,
      hint: hit.hint,
      pointer: hit.pointer,
      reason: hit.reason,
    },
    "miss",
    ep.tool_name,
  );
}
