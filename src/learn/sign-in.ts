/**
 * Recognises a sign-in endpoint: a write on no collection whose request body
 * held credentials (now redaction markers) and whose successful answer hands
 * back a session (a redacted token in the body, or a Set-Cookie). It is not
 * an entity write: the twin replays the recorded answer without checking
 * credentials, so the app's own frontend can sign in against it. When the
 * recording shows several users signing in, each answer is keyed by the
 * non-secret fields that tell them apart (`email`), so a twin client gets the
 * answer of the user it signs in as.
 */
import type { MatchValue } from "../model/model-schema.js";
import { escapePointerToken } from "../util/json-pointer.js";
import type { EndpointGroup, Observation } from "./endpoint-index.js";
import { credentialsOf } from "./refusal-rules.js";

const CREDENTIAL_MARKER = /^\[REDACTED:(field|secret):[^\]]*\]$/;
/** A redacted field of the answer that can hold a session: a token, not a password (a user created with one echoes its hash). */
const TOKEN_MARKER = /^\[REDACTED:field:(?![^\]]*(pass|pwd))[^\]]*\]$/i;

/** How the twin tells the recorded users of a sign-in apart: the pointers it keys answers by, none when it cannot. */
export interface SignInKey {
  /** Pointers of the non-secret request fields whose values differ between recorded attempts, sorted. */
  pointers: string[];
  /** The number of distinct users (values of the pointers) among the successful sign-ins. */
  users: number;
  /** The recorded refusals (401/403 to a request that sent credentials): the answer to a user never recorded. */
  refusals: Observation[];
}

const NO_COOKIES: ReadonlySet<string> = new Set();

/** The sentence a sign-in endpoint is explained by. */
export function explainSignIn(g: EndpointGroup, key: SignInKey | null = null): string {
  const ok = g.observations.filter(signedIn);
  if (ok.length > 0 && ok.every((o) => refreshed(o, NO_COOKIES)) && !ok.every(sentCredentials))
    return `${g.method} ${g.template} replays the recorded answer of a session refresh (it sent credentials only in its headers and got a session back); the twin does not check credentials.`;
  const head = `${g.method} ${g.template} replays the recorded sign-in answer`;
  if (!key || key.pointers.length === 0) return `${head}; the twin does not check credentials.`;
  const fields = key.pointers.map((p) => `"${p.slice(1)}"`).join(" and ");
  const other = key.refusals.length
    ? `the app's recorded refusal (${key.refusals[0]!.status})`
    : "the first recorded answer";
  return `${head} of the user with the same ${fields} (${key.users} recorded); the twin does not check credentials, and a sign-in by a user never recorded gets ${other}.`;
}

function holds(value: unknown, marker: RegExp, depth = 0): boolean {
  if (typeof value === "string") return marker.test(value);
  if (depth > 4 || value === null || typeof value !== "object") return false;
  for (const v of Array.isArray(value) ? value : Object.values(value as Record<string, unknown>))
    if (holds(v, marker, depth + 1)) return true;
  return false;
}

/** True for a sign-in's successful answer: a 2xx, or a redirect (a classic form sign-in answers 302 + Set-Cookie). */
export const signedIn = (o: Observation) => o.status >= 200 && o.status < 400;

function sentCredentials(o: Observation): boolean {
  return (
    (o.request.kind === "json" || o.request.kind === "form") && holds(o.request.value, CREDENTIAL_MARKER)
  );
}

/**
 * True when a Set-Cookie line clears its cookie (a sign-out): an empty value, `Max-Age` zero or less, or `Expires`
 * no later than the answer (the epoch when the record is untimed). A redacted value is one set.
 */
export function clearsCookie(line: string, at: number | null): boolean {
  const [first = "", ...attrs] = line.split(";");
  const eq = first.indexOf("=");
  if (eq >= 0 && first.slice(eq + 1).trim() === "") return true;
  for (const a of attrs) {
    const [k = "", v = ""] = a.split("=").map((x) => x.trim());
    if (k.toLowerCase() === "max-age" && /^-?\d+$/.test(v) && Number(v) <= 0) return true;
    if (k.toLowerCase() === "expires" && Date.parse(v) <= (at ?? 0)) return true;
  }
  return false;
}

/** The cookies a response sets (not clears), by name. */
function setCookieNames(o: Observation): string[] {
  return (o.record.response?.headers ?? [])
    .filter((h) => h.name.toLowerCase() === "set-cookie")
    .flatMap((h) => h.value.split("\n"))
    .filter((l) => !clearsCookie(l, o.record.started_at))
    .map((l) => l.slice(0, Math.max(0, l.indexOf("="))).trim());
}

/**
 * The cookies the app sets on reads too (a GET answered 2xx): a cookie it rolls on every answer (Jupyter's
 * `username-…`, a sliding session) is no sign of a session handed out by a write that sets it as well.
 */
export function ambientCookies(groups: readonly EndpointGroup[]): Set<string> {
  const out = new Set<string>();
  for (const g of groups)
    if (g.method === "GET")
      for (const o of g.observations)
        if (o.status >= 200 && o.status < 300) for (const n of setCookieNames(o)) out.add(n);
  return out;
}

/**
 * A session back: a Set-Cookie setting a cookie (one clearing every cookie it names is a sign-out) other than one
 * the app sets on reads too (`ambient`), or a token.
 */
function gaveSession(o: Observation, ambient: ReadonlySet<string> = NO_COOKIES): boolean {
  if (setCookieNames(o).some((n) => !ambient.has(n))) return true;
  return o.response.kind === "json" && holds(o.response.value, TOKEN_MARKER);
}

/** A request that sends nothing of its own: no body, an empty one, or only redacted values (a refresh token). */
function sendsNothing(o: Observation): boolean {
  if (o.request.kind === "none") return true;
  if (o.request.kind !== "json" && o.request.kind !== "form") return false;
  const only = (v: unknown, depth = 0): boolean =>
    typeof v === "string"
      ? CREDENTIAL_MARKER.test(v) || /^\[REDACTED:/.test(v)
      : v !== null && typeof v === "object" && depth < 4 && Object.values(v).every((x) => only(x, depth + 1));
  return only(o.request.value);
}

/**
 * A session refresh (issue 10 item 6): credentials carried outside the body (a cookie, an Authorization or other
 * credential header), a body that sends nothing of its own, and a session back. A write with content of its own
 * that happens to roll a cookie is no refresh.
 */
function refreshed(o: Observation, ambient: ReadonlySet<string>): boolean {
  return credentialsOf(o.record.request.headers).size > 0 && sendsNothing(o) && gaveSession(o, ambient);
}

/**
 * True when every successful observation of a POST sent credentials and got a session back (a sign-in, a refresh).
 * A refresh (credentials only outside the body) must hand out a session the app does not set on reads anyway
 * (`ambient`, see `ambientCookies`): else any bodiless POST of a token-authenticated client looked like one.
 */
export function isSignIn(g: EndpointGroup, ambient: ReadonlySet<string> = NO_COOKIES): boolean {
  if (g.method !== "POST") return false;
  const success = g.observations.filter(signedIn);
  return (
    success.length > 0 &&
    (success.every((o) => sentCredentials(o) && gaveSession(o)) ||
      success.every((o) => refreshed(o, ambient)))
  );
}

/** True for the app's refusal of a sign-in: a 401 or 403 to a request that sent credentials. */
const refused = (o: Observation) => (o.status === 401 || o.status === 403) && sentCredentials(o);

/** The non-secret scalar fields of a request body by pointer (a redaction marker is never one). */
function identityFields(o: Observation): Map<string, MatchValue> {
  const out = new Map<string, MatchValue>();
  const walk = (value: unknown, at: string, depth: number) => {
    if (typeof value === "string") {
      if (!value.includes("[REDACTED:")) out.set(at, value);
    } else if (typeof value === "number" || typeof value === "boolean" || value === null) {
      if (at !== "") out.set(at, value);
    } else if (typeof value === "object" && !Array.isArray(value) && depth <= 4) {
      for (const [k, v] of Object.entries(value)) walk(v, `${at}/${escapePointerToken(k)}`, depth + 1);
    }
  };
  if (o.request.kind === "json" || o.request.kind === "form") walk(o.request.value, "", 0);
  out.delete("");
  return out;
}

/**
 * The key of a sign-in: the non-secret fields whose values differ between its successful sign-ins and refusals
 * (a field sent alike by everyone, `remember`, keys nothing). None when they never differ: one user's sign-ins
 * (and a wrong password of that user) tell no users apart, so every request gets the recorded answer as before.
 */
export function signInKey(g: EndpointGroup): SignInKey {
  const attempts = g.observations.filter((o) => signedIn(o) || refused(o));
  const fields = attempts.map(identityFields);
  const seen = new Map<string, Set<string>>();
  for (const f of fields) for (const p of f.keys()) seen.set(p, new Set());
  for (const f of fields)
    for (const [p, values] of seen) values.add(f.has(p) ? JSON.stringify(f.get(p)) : "");
  const pointers = [...seen.entries()]
    .filter(([, v]) => v.size > 1)
    .map(([p]) => p)
    .sort();
  if (pointers.length === 0) return { pointers, users: 1, refusals: [] };
  const users = new Set(
    attempts.flatMap((o, i) => (signedIn(o) ? [JSON.stringify(pointers.map((p) => fields[i]!.get(p)))] : [])),
  );
  return { pointers, users: users.size, refusals: attempts.filter(refused) };
}

/** The `match` of a successful sign-in's answer: the key's fields as this request sent them. */
export function signInMatch(key: SignInKey, o: Observation): Record<string, MatchValue> | undefined {
  if (key.pointers.length === 0 || !signedIn(o)) return undefined;
  const fields = identityFields(o);
  const match: Record<string, MatchValue> = {};
  for (const p of key.pointers) if (fields.has(p)) match[p] = fields.get(p)!;
  return match;
}
