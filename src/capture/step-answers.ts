/**
 * The answers of earlier request steps that later steps read values from
 * (`{ "response": step_id, "pointer" | "header" }`), and reading them. A value
 * `""` is the whole answer, a plain-text one too (trimmed). A value
 * that is not there fails the step with what the answer held at the nearest
 * pointer that exists — described by its shape (keys, length, type), never
 * by its content, since an answer may hold credentials.
 */
import { ValueMissing } from "./step-failure.js";

/** The answer of a request step as the page's fetch saw it. */
export interface StepAnswer {
  status: number;
  /** Header names lower-case, as fetch gives them (Set-Cookie is never among them). */
  headers: [string, string][];
  /** The body as text, or null when empty. */
  body: string | null;
}

/** A JSON scalar read from an answer: its JSON value and the text it is sent as. */
export interface AnswerScalar {
  json: string | number | boolean;
  text: string;
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

function escapeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** How a JSON value looks, without its content: `an object with the keys a, b`, `an array of 3 entries`. */
export function describeShape(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return `an array of ${v.length} entr${v.length === 1 ? "y" : "ies"}`;
  if (typeof v === "object") {
    const keys = Object.keys(v);
    if (keys.length === 0) return "an empty object";
    const shown = keys.slice(0, 12).join(", ");
    return `an object with the keys ${shown}${keys.length > 12 ? ", …" : ""}`;
  }
  if (typeof v === "string") return v === "" ? "an empty string" : "a string";
  return `a ${typeof v}`;
}

/** Reads the scalar at an RFC 6901 pointer of a step's JSON answer; throws a StepFailure saying what is there instead. */
export function answerScalar(answer: StepAnswer, stepId: string, pointer: string): AnswerScalar {
  const of = `the answer of step "${stepId}"`;
  if (answer.body === null || answer.body === "")
    throw new ValueMissing(`${of} (${answer.status}) has no body to read ${pointer || "a value"} from`);
  let value: unknown;
  try {
    value = JSON.parse(answer.body);
  } catch {
    // The whole of a plain-text answer (a nonce, an id) is its own value.
    if (pointer === "") return { json: answer.body.trim(), text: answer.body.trim() };
    const type = answer.headers.find(([n]) => n === "content-type")?.[1] ?? "no content-type";
    throw new ValueMissing(
      `${of} (${answer.status}, ${type}) is not JSON, so ${pointer || '""'} cannot apply`,
    );
  }
  const tokens = pointer === "" ? [] : pointer.slice(1).split("/").map(unescapeToken);
  let at = "";
  for (const token of tokens) {
    const container = value !== null && typeof value === "object";
    const present = container && Object.hasOwn(value as object, token);
    if (!present || (Array.isArray(value) && !/^(0|[1-9]\d*)$/.test(token))) {
      const where = at === "" ? "at the top" : `at ${at}`;
      throw new ValueMissing(`${of} has nothing at ${pointer}; ${where} it holds ${describeShape(value)}`);
    }
    value = (value as Record<string, unknown>)[token];
    at += `/${escapeToken(token)}`;
  }
  if (typeof value === "string") return { json: value, text: value };
  if (typeof value === "number" || typeof value === "boolean") return { json: value, text: String(value) };
  throw new ValueMissing(
    `${of} holds ${describeShape(value)} at ${pointer || "the top"}, not a string, number or boolean; point at one of its fields`,
  );
}

/** Reads a response header of a step's answer (case-insensitive; several are joined as fetch joins them). */
export function answerHeader(answer: StepAnswer, stepId: string, name: string): string {
  const lower = name.toLowerCase();
  const found = answer.headers.find(([n]) => n === lower);
  if (found === undefined) {
    const names = answer.headers.map(([n]) => n).sort();
    const seen = names.length === 0 ? "none" : names.join(", ");
    throw new ValueMissing(
      `the answer of step "${stepId}" (${answer.status}) has no ${lower} header (headers: ${seen})`,
    );
  }
  return found[1];
}
