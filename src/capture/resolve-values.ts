/**
 * Resolves the values of a step: literals as they are, secrets from the
 * environment, cookies from the browser context (HttpOnly ones too), storage
 * from the page, and values from the answers of earlier request steps. Every
 * value that must never reach the evidence (a page-read value, a credential
 * chained from an answer) is handed back beside it so it can be redacted; a
 * chained id or any other non-credential is kept, since learning needs it.
 */

import { credentialField, fieldMarker } from "../evidence/body-fields.js";
import type { Value } from "../scenario/scenario-schema.js";
import { isCredentialName } from "../util/credential-name.js";
import { couldBeCredential } from "../util/credential-value.js";
import { answerHeader, answerScalar, type StepAnswer } from "./step-answers.js";
import { StepFailure, ValueMissing } from "./step-failure.js";

/** A value to redact from every record: `[REDACTED:page:<step_id>.<place>]` or a credential's own marker. */
export interface PageValue {
  value: string;
  marker: string;
}

/** Where values come from during one step. */
export interface ValueSources {
  appOrigin: string;
  secrets: ReadonlyMap<string, string>;
  /** The answers of the earlier request steps that later steps read. */
  answers: ReadonlyMap<string, StepAnswer>;
  /** The cookies the browser holds for the app origin. */
  cookies(): Promise<{ name: string; value: string }[]>;
  /** What a missing value stops, for its message: "nothing was sent", "nothing was typed". */
  notDone: string;
  /** Reads a storage key in the page (null when unset); throws a StepFailure when the page left the app. */
  storage(kind: "local_storage" | "session_storage", key: string): Promise<string | null>;
}

/** A resolved value: the text it is sent or typed as, its JSON form for a JSON body, what to redact. */
export interface ResolvedValue {
  text: string;
  /** The value in a JSON body: a chained number or boolean stays one unless a prefix makes it text. */
  json: string | number | boolean;
  /** A value read from the page or a chained credential, to be redacted wherever it appears. */
  redact: PageValue | null;
  /** For `cookie_matching`: the named groups of the match on the cookie's name. */
  groups: Record<string, string | undefined>;
}

/** Where a value is used, for messages and markers: `header authorization`, `query id`, `json /a/b`, `value`. */
export interface ValuePlace {
  stepId: string;
  /** Shown in messages, e.g. `header x-csrf-token`. */
  label: string;
  /** The marker's tail for a page-read value, e.g. `x-csrf-token` gives `[REDACTED:page:<step>.x-csrf-token]`. */
  marker: string;
}

/** The marker of a value a step read from the page. */
export function pageMarker(stepId: string, place: string): string {
  return `[REDACTED:page:${stepId}.${place.toLowerCase().replace(/[\]\s]/g, "_")}]`;
}

const STORAGE_NAME = { local_storage: "localStorage", session_storage: "sessionStorage" } as const;
const CREDENTIAL_HEADERS = new Set(["authorization", "proxy-authorization", "cookie"]);

function readPointer(raw: string, pointer: string | undefined, where: string): unknown {
  if (pointer === undefined) return raw;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ValueMissing(`${where} is not JSON, so pointer ${pointer} cannot apply`);
  }
  const parts = pointer === "" ? [] : pointer.slice(1).split("/");
  for (const part of parts) {
    const token = part.replace(/~1/g, "/").replace(/~0/g, "~");
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, token))
      throw new ValueMissing(`${where} has nothing at ${pointer}`);
    value = (value as Record<string, unknown>)[token];
  }
  return value;
}

function lastKey(pointer: string): string | undefined {
  const tokens = pointer.split("/").slice(1);
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i]!.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!/^\d+$/.test(t)) return t;
  }
  return undefined;
}

/**
 * The marker a chained value gets when it is a credential — taken from a field
 * or a header that redaction hides in the answer (the same rule, so the value
 * and its source share a marker) — else null: an id is kept.
 */
function chainedCredential(value: string, ref: { pointer: string } | { header: string }): string | null {
  if ("pointer" in ref) {
    const key = lastKey(ref.pointer);
    return key !== undefined && credentialField(key, value, "answered") ? fieldMarker(key) : null;
  }
  const name = ref.header.toLowerCase();
  const credential = CREDENTIAL_HEADERS.has(name) || isCredentialName(name);
  return credential && couldBeCredential(value) ? `[REDACTED:header:${name}]` : null;
}

function done(
  raw: string | number | boolean,
  prefix: string | undefined,
  redact: PageValue | null,
  groups: Record<string, string | undefined> = {},
): ResolvedValue {
  const text = (prefix ?? "") + String(raw);
  return { text, json: prefix ? text : raw, redact, groups };
}

async function matchingCookie(
  src: ValueSources,
  pattern: string,
): Promise<{ name: string; value: string; groups: Record<string, string | undefined> }> {
  const re = new RegExp(pattern);
  const cookies = await src.cookies();
  const found = cookies.filter((c) => re.test(c.name));
  if (found.length === 0) {
    const names = cookies.map((c) => c.name).sort();
    throw new ValueMissing(
      `no cookie of ${src.appOrigin} has a name matching /${pattern}/ (cookies: ${names.length === 0 ? "none" : names.join(", ")})`,
    );
  }
  if (found.length > 1) {
    const names = found.map((c) => c.name).sort();
    throw new ValueMissing(
      `${found.length} cookies of ${src.appOrigin} have a name matching /${pattern}/ (${names.join(", ")}); make the pattern match one`,
    );
  }
  const c = found[0]!;
  return { ...c, groups: { ...re.exec(c.name)?.groups } };
}

/** Resolves one value; a missing one fails the step as `<label>: <what is missing>; <what was not done>`. */
export async function resolveValue(
  value: Value,
  place: ValuePlace,
  src: ValueSources,
): Promise<ResolvedValue> {
  try {
    return await resolveRaw(value, place, src);
  } catch (e) {
    if (e instanceof ValueMissing) throw new StepFailure(`${place.label}: ${e.message}; ${src.notDone}`);
    throw e;
  }
}

async function resolveRaw(value: Value, place: ValuePlace, src: ValueSources): Promise<ResolvedValue> {
  if (typeof value === "string") return done(value, undefined, null);
  const page = (v: string): PageValue => ({ value: v, marker: pageMarker(place.stepId, place.marker) });
  if ("secret" in value) {
    const v = src.secrets.get(value.secret);
    if (v === undefined) throw new ValueMissing(`secret "${value.secret}" has no value`);
    return done(v, value.prefix, null);
  }
  if ("cookie" in value) {
    const c = (await src.cookies()).find((x) => x.name === value.cookie);
    if (c === undefined)
      throw new ValueMissing(`the cookie "${value.cookie}" is not set for ${src.appOrigin}`);
    return done(c.value, value.prefix, page(c.value));
  }
  if ("cookie_matching" in value) {
    const c = await matchingCookie(src, value.cookie_matching);
    return done(c.value, value.prefix, page(c.value), c.groups);
  }
  if ("local_storage" in value || "session_storage" in value) {
    const kind = "local_storage" in value ? "local_storage" : "session_storage";
    const key = "local_storage" in value ? value.local_storage : value.session_storage;
    const where = `${STORAGE_NAME[kind]}["${key}"]`;
    const raw = await src.storage(kind, key);
    if (raw === null) throw new ValueMissing(`${where} is not set`);
    const read = readPointer(raw, value.pointer, where);
    const text = typeof read === "string" ? read : JSON.stringify(read);
    const json = typeof read === "number" || typeof read === "boolean" ? read : text;
    return done(json, value.prefix, page(text));
  }
  const answer = src.answers.get(value.response);
  if (answer === undefined)
    throw new ValueMissing(`step "${value.response}" has no answer to read (it did not run to an answer)`);
  if ("pointer" in value) {
    const scalar = answerScalar(answer, value.response, value.pointer);
    const marker = chainedCredential(scalar.text, value);
    return done(scalar.json, value.prefix, marker ? { value: scalar.text, marker } : null);
  }
  const header = answerHeader(answer, value.response, value.header);
  const marker = chainedCredential(header, value);
  return done(header, value.prefix, marker ? { value: header, marker } : null);
}
