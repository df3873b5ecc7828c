/**
 * zod issues as apptwin issues, for every document apptwin reads: each names
 * the file and the field (`records[3].request.url`) and says what would be
 * valid, never in raw zod wording ("Invalid input").
 *
 * A document the user wrote (a scenario) is given with its schema and raw
 * data: its messages quote the value found (`(got "clik")`), list the valid
 * fields and guess a misspelt one. A recorded document (evidence, HAR, a
 * bundle's files) is not: its values may be a credential the recording holds,
 * so its messages name the field and the rule only.
 */
import { z } from "zod";
import { documentIssue, isRecord, type PathSegment, preview, valueAt } from "./document-issue.js";
import { nearMiss } from "./near-miss.js";
import type { Issue } from "./user-error.js";

/** The raw data of a document the user wrote, read to say what was found and what would be valid. */
export interface WrittenDocument {
  schema: z.ZodType;
  raw: unknown;
  /** How the messages name the document itself: `the scenario`. */
  subject: string;
  /** Where `schema` and `raw` stand in the document (default: they are the whole document). */
  at?: readonly PathSegment[];
  /** True when the value at this path must never be quoted back (it may be a credential). */
  conceals?: (path: readonly PathSegment[]) => boolean;
}

type AnySchema = z.ZodType;
type ZIssue = z.core.$ZodIssue;

function unwrap(s: AnySchema): AnySchema {
  return s instanceof z.ZodOptional ? (s.unwrap() as AnySchema) : s;
}

/** The schema that describes the raw value at `path`, picking union branches by the raw data (but the last with `pickLast` false). */
function schemaAt(
  root: AnySchema,
  raw: unknown,
  path: readonly PathSegment[],
  pickLast = true,
): AnySchema | undefined {
  let s: AnySchema | undefined = unwrap(root);
  let cur: unknown = raw;
  for (let i = 0; i <= path.length; i++) {
    if (i === path.length && !pickLast) return s;
    if (s instanceof z.ZodDiscriminatedUnion || s instanceof z.ZodUnion) s = pickBranch(s, cur);
    if (s === undefined || i === path.length) return s;
    const seg = path[i] as PathSegment;
    if (s instanceof z.ZodObject) s = s.shape[String(seg)] as AnySchema | undefined;
    else if (s instanceof z.ZodArray) s = s.element as AnySchema;
    else if (s instanceof z.ZodRecord) s = s.valueType as AnySchema;
    else return undefined;
    s = s === undefined ? undefined : unwrap(s);
    cur = isRecord(cur) || Array.isArray(cur) ? (cur as Record<string | number, unknown>)[seg] : undefined;
  }
  return s;
}

/** The object branch of a union that shares the most keys with the raw object (its `action` first). */
function pickBranch(u: z.ZodUnion | z.ZodDiscriminatedUnion, raw: unknown): AnySchema | undefined {
  if (!isRecord(raw)) return undefined;
  let best: AnySchema | undefined;
  let bestScore = 0;
  for (const o of u.options as AnySchema[]) {
    if (!(o instanceof z.ZodObject)) continue;
    const keys = Object.keys(o.shape);
    const action = o.shape["action"];
    if (action instanceof z.ZodLiteral) {
      if (action.value === raw["action"]) return o;
      continue;
    }
    const score = Object.keys(raw).filter((k) => keys.includes(k)).length;
    if (score > bestScore) [best, bestScore] = [o, score];
  }
  return best;
}

function describeObject(
  s: AnySchema | undefined,
  raw: unknown,
): { label: string; all: string[]; required: string[] } {
  if (!(s instanceof z.ZodObject)) return { label: "", all: [], required: [] };
  const all = Object.keys(s.shape);
  const required = all.filter((k) => !(s.shape[k] instanceof z.ZodOptional));
  const action = isRecord(raw) && typeof raw["action"] === "string" ? raw["action"] : undefined;
  return {
    label: action !== undefined && all.includes("action") ? ` for a ${action} step` : "",
    all,
    required,
  };
}

const ARTICLE: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "a JSON object",
  array: "a JSON array",
};

function limitText(issue: ZIssue & { code: "too_small" | "too_big" }): string {
  const small = issue.code === "too_small";
  const n = Number(small ? issue.minimum : issue.maximum);
  if (issue.origin === "array")
    return `must have at ${small ? "least" : "most"} ${n} entr${n === 1 ? "y" : "ies"}`;
  if (issue.origin === "string")
    return small && n === 1 ? "must not be empty" : `must be at ${small ? "least" : "most"} ${n} characters`;
  return `must be at ${small ? "least" : "most"} ${n}`;
}

/** What kind of JSON value a value is, without its content. */
function kindOf(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * The issues of the union branch the raw object plainly meant (the one that
 * shares the most keys with it, when no other shares as many), so a reference
 * with a bad pointer says so instead of listing every shape a value may take.
 */
function branchIssues(
  file: string,
  doc: WrittenDocument,
  issue: ZIssue & { code: "invalid_union" },
  union: AnySchema | undefined,
  value: unknown,
  at: readonly PathSegment[],
): Issue[] | undefined {
  if (!isRecord(value) || !(union instanceof z.ZodUnion) || "discriminator" in issue) return undefined;
  const options = union.options as AnySchema[];
  const scores = options.map((o) =>
    o instanceof z.ZodObject ? Object.keys(value).filter((k) => k in o.shape).length : 0,
  );
  const best = Math.max(...scores);
  if (best === 0 || scores.filter((n) => n === best).length !== 1) return undefined;
  const j = scores.indexOf(best);
  const errors = issue.errors[j];
  if (errors === undefined || errors.length === 0) return undefined;
  const branch: WrittenDocument = { ...doc, schema: options[j]!, raw: value, at };
  return errors.flatMap((e) => writtenIssues(file, branch, e));
}

/** One zod issue of a document the user wrote, as one or more apptwin issues (none for a misspelt field's echo). */
function writtenIssues(file: string, doc: WrittenDocument, issue: ZIssue): Issue[] {
  const { schema: root, raw } = doc;
  const base = doc.at ?? [];
  const said = (code: string, at: readonly PathSegment[], text: string) =>
    documentIssue(file, code, [...base, ...at], text, doc.subject);
  const path = issue.path as PathSegment[];
  const value = valueAt(raw, path);
  const concealed = doc.conceals?.([...base, ...path]) === true;
  const got = `(got ${concealed ? kindOf(value) : preview(value)})`;
  const own = /^must /.test(issue.message) ? issue.message : undefined;
  switch (issue.code) {
    case "unrecognized_keys": {
      const d = describeObject(schemaAt(root, raw, path), value);
      const missing = d.required.filter((k) => !isRecord(value) || !(k in value));
      return issue.keys.map((k) => {
        const near = nearMiss(k, missing);
        const hint = near === undefined ? "" : `; did you mean ${JSON.stringify(near)}?`;
        const text = `has an unknown field ${JSON.stringify(k)} (valid fields${d.label}: ${d.all.join(", ")})${hint}`;
        return said("unknown_field", path, text);
      });
    }
    case "invalid_type":
    case "invalid_union":
    case "invalid_value": {
      const parentPath = path.slice(0, -1);
      const parent = valueAt(raw, parentPath);
      const key = path[path.length - 1];
      if (value === undefined && key !== undefined && isRecord(parent) && !(String(key) in parent)) {
        const options = (issue as { options?: unknown }).options;
        if (issue.code === "invalid_union" && Array.isArray(options)) {
          return [said("missing_field", path, `is missing (one of ${options.join(", ")})`)];
        }
        const d = describeObject(schemaAt(root, raw, parentPath), parent);
        // A misspelt field is reported once, as the unknown field with its "did you mean".
        if (
          d.all.length > 0 &&
          nearMiss(
            String(key),
            Object.keys(parent).filter((k) => !d.all.includes(k)),
          )
        )
          return [];
        const need = d.required.length > 0 ? ` (required fields${d.label}: ${d.required.join(", ")})` : "";
        return [said("missing_field", path, `is missing${need}`)];
      }
      if (issue.code === "invalid_union") {
        const union = schemaAt(root, raw, path, false);
        const chosen = branchIssues(file, doc, issue, union, value, [...base, ...path]);
        if (chosen) return chosen;
      }
      const options = (issue as { options?: unknown }).options;
      if (issue.code === "invalid_union" && "discriminator" in issue && Array.isArray(options)) {
        return [said("invalid_value", path, `must be one of ${options.join(", ")} ${got}`)];
      }
      if (own) return [said(issue.code, path, `${own} ${got}`)];
      if (issue.code === "invalid_type") {
        return [said("invalid_type", path, `must be ${ARTICLE[issue.expected] ?? issue.expected} ${got}`)];
      }
      if (issue.code === "invalid_value") {
        const vals = issue.values.map((v) => JSON.stringify(v));
        const want = vals.length === 1 ? vals[0] : `one of ${vals.join(", ")}`;
        return [said("invalid_value", path, `must be ${want} ${got}`)];
      }
      return [said("invalid_value", path, `does not have a valid shape ${got}`)];
    }
    case "too_small":
    case "too_big":
      return [said(issue.code, path, `${own ?? limitText(issue)} ${got}`)];
    default:
      return [said(issue.code, path, `${own ?? "is not valid"} ${got}`)];
  }
}

/** What a recorded document's issue breaks, without quoting the value found. */
function describeRecorded(issue: ZIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `must be ${issue.expected === "int" ? "an integer" : `of type ${issue.expected}`}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "too_small":
      return `is too small: ${issue.message}`;
    case "too_big":
      return `is too big: ${issue.message}`;
    default:
      return issue.message;
  }
}

/** One zod issue of a recorded document, as apptwin issues: one per unknown key. */
function recordedIssues(file: string, issue: ZIssue): Issue[] {
  if (issue.code === "unrecognized_keys")
    return issue.keys.map((key) =>
      documentIssue(
        file,
        "unknown_field",
        [...issue.path, key],
        "is not a known field (remove it)",
        "the document",
      ),
    );
  return [documentIssue(file, issue.code, issue.path, describeRecorded(issue), "the document")];
}

/**
 * The apptwin issues of a document's zod issues, all of them; with `written`, the issues of a document
 * the user wrote, read in its raw data.
 */
export function zodIssues(file: string, issues: readonly ZIssue[], written?: WrittenDocument): Issue[] {
  return issues.flatMap((issue) =>
    written ? writtenIssues(file, written, issue) : recordedIssues(file, issue),
  );
}
