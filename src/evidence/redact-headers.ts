/**
 * Credential headers: Authorization and Proxy-Authorization become a marker,
 * Cookie and Set-Cookie keep each cookie's name (and Set-Cookie its
 * attributes) with the value replaced, and every cookie value that could be a
 * credential is learned so the same token sent later in, say, `x-csrf-token`
 * is redacted too (a cookie such as `WP Cookie check` is no credential, and
 * learning it once corrupted the login page's script).
 */

import { isCredentialName } from "../util/credential-name.js";
import { safeDecode } from "../util/safe-decode.js";
import type { Header } from "./evidence-schema.js";
import type { Provenance, RedactContext } from "./redact-context.js";

/** The marker a cookie value becomes, in Cookie and Set-Cookie alike. */
export const COOKIE_MARKER = "[REDACTED:header:cookie]";

const AUTH_HEADERS = new Set(["authorization", "proxy-authorization"]);

/** Cookie pairs of a Cookie header, or of the first segment of each Set-Cookie line. */
function cookiePairs(name: string, value: string): { name: string; value: string }[] {
  const segments =
    name === "cookie" ? value.split(";") : value.split("\n").map((line) => line.split(";")[0] ?? "");
  return segments.flatMap((seg) => {
    const eq = seg.indexOf("=");
    return eq < 0 ? [] : [{ name: seg.slice(0, eq).trim(), value: seg.slice(eq + 1).trim() }];
  });
}

/** A header that names a credential but is not one of the four standard ones (x-api-key, x-csrf-token). */
function isCustomCredentialHeader(lower: string): boolean {
  return !lower.startsWith("access-control-") && !AUTH_HEADERS.has(lower) && isCredentialName(lower);
}

/**
 * Learns every credential value a header list carries, without changing it:
 * an Authorization's whole value, its credentials and a Basic password as a
 * client sends them; cookie values and other credential-named headers only
 * when they could be credentials.
 */
export function learnHeaders(
  headers: Header[],
  learn: (value: string, marker: string, from: Provenance) => void,
): void {
  for (const h of headers) {
    const lower = h.name.toLowerCase();
    if (AUTH_HEADERS.has(lower)) {
      const marker = `[REDACTED:header:${lower}]`;
      learn(h.value, marker, "sent");
      const credentials = /^\s*[A-Za-z][\w-]*\s+(\S.*)$/.exec(h.value)?.[1];
      if (credentials) learn(credentials.trim(), marker, "sent");
      // Basic credentials carry the password itself (base64 of user:password): learn it too.
      if (credentials && /^\s*basic\s/i.test(h.value)) {
        const decoded = Buffer.from(credentials.trim(), "base64").toString("utf8");
        const colon = decoded.indexOf(":");
        if (colon >= 0) learn(decoded.slice(colon + 1), marker, "sent");
      }
    } else if (lower === "cookie" || lower === "set-cookie") {
      for (const c of cookiePairs(lower, h.value)) {
        learn(c.value, COOKIE_MARKER, "answered");
        learn(safeDecode(c.value), COOKIE_MARKER, "answered");
      }
    } else if (isCustomCredentialHeader(lower)) {
      learn(h.value, `[REDACTED:header:${lower}]`, "answered");
    }
  }
}

function redactCookieSegment(seg: string, ctx: RedactContext): string {
  const eq = seg.indexOf("=");
  if (eq < 0) return ctx.redactText(seg);
  const value = seg.slice(eq + 1).trim();
  const name = ctx.redactName(seg.slice(0, eq));
  if (value === "" || value === COOKIE_MARKER) return `${name}${seg.slice(eq)}`;
  ctx.count(COOKIE_MARKER);
  return `${name}=${COOKIE_MARKER}`;
}

/**
 * One header redacted by its kind; see the file header for the rules. A name
 * that holds a known value (a secret sent as a header's name) is redacted too.
 */
export function redactHeader(header: Header, ctx: RedactContext): Header {
  const h = { name: ctx.redactName(header.name), value: header.value };
  const lower = h.name.toLowerCase();
  if (AUTH_HEADERS.has(lower)) {
    const marker = `[REDACTED:header:${lower}]`;
    if (h.value !== marker) ctx.count(marker);
    return { name: h.name, value: marker };
  }
  if (lower === "cookie") {
    const value = h.value
      .split(";")
      .map((seg) => {
        const lead = /^\s*/.exec(seg)?.[0] ?? "";
        return lead + redactCookieSegment(seg.slice(lead.length), ctx);
      })
      .join(";");
    return { name: h.name, value };
  }
  if (lower === "set-cookie") {
    const value = h.value
      .split("\n")
      .map((line) => {
        const semi = line.indexOf(";");
        const first = semi < 0 ? line : line.slice(0, semi);
        const rest = semi < 0 ? "" : ctx.redactText(line.slice(semi));
        return redactCookieSegment(first, ctx) + rest;
      })
      .join("\n");
    return { name: h.name, value };
  }
  const value = ctx.redactText(h.value);
  if (isCustomCredentialHeader(lower) && value === h.value && value !== "" && !value.includes("[REDACTED:")) {
    const marker = `[REDACTED:header:${lower}]`;
    ctx.count(marker);
    return { name: h.name, value: marker };
  }
  return { name: h.name, value };
}

/** Redacts every header of a list, order and duplicates kept. */
export function redactHeaderList(headers: Header[], ctx: RedactContext): Header[] {
  return headers.map((h) => redactHeader(h, ctx));
}
