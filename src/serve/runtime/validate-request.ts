/**
 * Validation failures the recording confirmed (model `validations`): a write
 * whose body is missing or blank in a field every successful request sent is
 * answered with the app's recorded status and body, before any write, even
 * when the endpoint's successful write is withheld.
 */
import type { Model, ValidationRule } from "../../model/model-schema.js";
import { bodyObject } from "./apply-field-rules.js";
import { readPointer } from "./json-text.js";
import { recordedAnswer } from "./recorded-answer.js";
import type { TwinRequest, TwinResponse } from "./twin-types.js";

const rulesByTool = new WeakMap<Model, Map<string, ValidationRule[]>>();

function rulesOf(model: Model, tool: string): ValidationRule[] {
  let index = rulesByTool.get(model);
  if (!index) {
    index = new Map();
    for (const v of model.validations ?? []) index.set(v.tool_name, [...(index.get(v.tool_name) ?? []), v]);
    rulesByTool.set(model, index);
  }
  return index.get(tool) ?? [];
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/** The recorded failure the request earns, or null when no rule applies (or its body is not an object). */
export function validateRequest(model: Model, tool: string, req: TwinRequest): TwinResponse | null {
  const rules = rulesOf(model, tool);
  if (rules.length === 0) return null;
  const body = bodyObject(req.body);
  // Only an object body was ever recorded failing; the app's answer to anything else is unknown.
  if (body === null || typeof body !== "object" || Array.isArray(body)) return null;
  const rule = rules.find((r) => {
    const v = readPointer(body, r.pointer);
    return blank(v) && !(r.only_when_sent && v === undefined);
  });
  if (!rule) return null;
  return recordedAnswer(rule, "validation", tool);
}
