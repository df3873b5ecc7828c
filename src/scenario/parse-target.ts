/**
 * The target grammar: `testid=…`, `text=…`, `label=…`, `role=<role>[name="…"]`
 * or `css=…`. A misspelt role is refused when the file is read, not at replay.
 */
import { isAriaRole } from "./aria-roles.js";

/** The kinds of target. */
export type TargetKind = "testid" | "text" | "label" | "role" | "css";

/** A parsed target: its kind and value; for `role=`, the role and the optional accessible name. */
export interface ParsedTarget {
  kind: TargetKind;
  value: string;
  role?: string;
  name?: string;
}

/** Why a target string is refused: a code and the words after the field path. */
export interface TargetProblem {
  code: "invalid_target" | "invalid_role";
  text: string;
}

const KINDS = /^(testid|text|label|role|css)=([\s\S]*)$/;
const ROLE = /^([A-Za-z][A-Za-z0-9-]*)(?:\[name="((?:[^"\\]|\\.)*)"\])?$/;
const GRAMMAR = 'must be testid=…, text=…, label=…, role=<role>[name="…"] or css=…';

/** Parses a target, or says why it is refused. */
export function checkTarget(target: string): { target: ParsedTarget } | { problem: TargetProblem } {
  const got = `(got ${JSON.stringify(target)})`;
  const m = KINDS.exec(target);
  if (!m) return { problem: { code: "invalid_target", text: `${GRAMMAR} ${got}` } };
  const kind = m[1] as TargetKind;
  const value = m[2] ?? "";
  if (value.trim() === "") {
    return { problem: { code: "invalid_target", text: `has nothing after "${kind}=" ${got}` } };
  }
  if (kind !== "role") return { target: { kind, value } };
  const r = ROLE.exec(value);
  if (!r) {
    return {
      problem: { code: "invalid_target", text: `must be role=<role> or role=<role>[name="…"] ${got}` },
    };
  }
  const role = r[1] ?? "";
  if (!isAriaRole(role)) {
    return {
      problem: {
        code: "invalid_role",
        text: `names the role ${JSON.stringify(role)}, which is not an ARIA role (e.g. button, link, textbox)`,
      },
    };
  }
  const parsed: ParsedTarget = { kind, value, role };
  if (r[2] !== undefined) parsed.name = r[2].replace(/\\([\s\S])/g, "$1");
  return { target: parsed };
}

/** Parses a target of a validated scenario; throws when the target is not valid (validate first). */
export function parseTarget(target: string): ParsedTarget {
  const result = checkTarget(target);
  if ("problem" in result) throw new Error(`target ${result.problem.text}`);
  return result.target;
}
