/**
 * Recognises a sign-in endpoint: a write on no collection whose request body
 * held credentials (now redaction markers) and whose successful answer hands
 * back a session (a redacted token in the body, or a Set-Cookie). It is not
 * an entity write: the twin replays the recorded answer without checking
 * credentials, so the app's own frontend can sign in against it.
 */
import type { EndpointGroup, Observation } from "./endpoint-index.js";

const CREDENTIAL_MARKER = /^\[REDACTED:(field|secret):[^\]]*\]$/;
/** A redacted field of the answer that can hold a session: a token, not a password (a user created with one echoes its hash). */
const TOKEN_MARKER = /^\[REDACTED:field:(?![^\]]*(pass|pwd))[^\]]*\]$/i;

/** The sentence a sign-in endpoint is explained by. */
export function explainSignIn(g: EndpointGroup): string {
  return `${g.method} ${g.template} replays the recorded sign-in answer; the twin does not check credentials.`;
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

function gaveSession(o: Observation): boolean {
  if ((o.record.response?.headers ?? []).some((h) => h.name.toLowerCase() === "set-cookie")) return true;
  return o.response.kind === "json" && holds(o.response.value, TOKEN_MARKER);
}

/** True when every successful observation of a POST sent credentials and got a session back. */
export function isSignIn(g: EndpointGroup): boolean {
  if (g.method !== "POST") return false;
  const success = g.observations.filter(signedIn);
  return success.length > 0 && success.every((o) => sentCredentials(o) && gaveSession(o));
}
