/**
 * The confinement rules of a capture as plain decisions over URLs and
 * methods: which origins the page may read from, which writes are refused,
 * and which navigations leave the allowed origins. The route handler and the
 * recorder apply them; the sentences here are the ones the evidence records.
 * Origins compare exactly, as the browser compares them: `localhost` and
 * `127.0.0.1` are two origins, and a sentence about one says so.
 */
import { loopbackAliasNote } from "../util/loopback-alias.js";

/** Methods that never change state on a well-behaved server; everything else is a write. */
export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The origin of an absolute URL, or null for URLs without one (data:, blob:, about:). */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:" && u.protocol !== "ws:" && u.protocol !== "wss:")
      return null;
    return u.origin;
  } catch {
    return null;
  }
}

/** The app origin plus the extra read origins, in one policy. */
export interface OriginPolicy {
  appOrigin: string;
  allowedOrigins: readonly string[];
}

/** True when the method can change state (anything but GET, HEAD, OPTIONS). */
export function isWrite(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** True when the page may load from this URL's origin (the app or an allowed origin); URLs without origin pass. */
export function isAllowedUrl(policy: OriginPolicy, url: string): boolean {
  const origin = originOf(url);
  return origin === null || origin === policy.appOrigin || policy.allowedOrigins.includes(origin);
}

/** The refusal sentence for a write to another origin, or null when the request may go. */
export function refusedWrite(policy: OriginPolicy, method: string, url: string): string | null {
  const origin = originOf(url);
  if (origin === null || origin === policy.appOrigin || !isWrite(method)) return null;
  return `refused: ${method.toUpperCase()} to ${origin} is a write to an origin other than the app (${policy.appOrigin}); apptwin only lets writes reach the app${loopbackAliasNote(origin, policy.appOrigin)}`;
}

/** The failure sentence for a top-level navigation off the allowed origins, or null when it is allowed. */
export function refusedNavigation(policy: OriginPolicy, url: string): string | null {
  if (isAllowedUrl(policy, url)) return null;
  const origin = originOf(url);
  return `navigation to ${origin} left the allowed origins (${[policy.appOrigin, ...policy.allowedOrigins].join(", ")}); add it to allowed_origins only if the app truly lives there${origin ? loopbackAliasNote(origin, policy.appOrigin) : ""}`;
}

/** The app origin a `ws:`/`wss:` URL would be on (`ws:` is `http:`, `wss:` is `https:`), or null. */
function webSocketPeer(url: string): string | null {
  try {
    const u = new URL(url);
    if (u.protocol !== "ws:" && u.protocol !== "wss:") return null;
    return `${u.protocol === "wss:" ? "https:" : "http:"}//${u.host}`;
  } catch {
    return null;
  }
}

/** The refusal sentence for a WebSocket to any origin but the app's (allowed read origins included), or null when it may connect. */
export function refusedWebSocket(policy: OriginPolicy, url: string): string | null {
  if (webSocketPeer(url) === policy.appOrigin) return null;
  return `refused: a WebSocket to ${originOf(url) ?? url} is a channel to an origin other than the app (${policy.appOrigin}); apptwin only lets WebSockets reach the app`;
}

/** The failure sentence for a WebSocket to another origin that interception could not stop (one a worker opens). */
export function escapedWebSocket(url: string): string {
  return `a WebSocket to ${originOf(url) ?? url} was opened where apptwin cannot intercept it (a worker); its frames may have reached that origin`;
}

/** The failure sentence for a server redirect that left the allowed origins, or null when it stayed. */
export function escapedRedirect(policy: OriginPolicy, from: string, to: string): string | null {
  if (isAllowedUrl(policy, to)) return null;
  const origin = originOf(to);
  return `redirect from ${from} to ${origin} left the allowed origins (${[policy.appOrigin, ...policy.allowedOrigins].join(", ")})${origin ? loopbackAliasNote(origin, policy.appOrigin) : ""}`;
}

/** Statuses whose redirect resends the request as it was (method and body): a write's 307/308 repeats the write. */
const METHOD_KEEPING = new Set([307, 308]);

/**
 * The refusal sentence for a redirect the browser must not follow, or null
 * when following it stays within what the policy allows: a write's 307/308
 * would resend the write (with its body) to `Location`, so it may only point
 * at the app; any other redirect may only point at the allowed origins.
 * A `Location` that is no URL is left to the browser (it cannot follow it).
 */
export function refusedRedirect(
  policy: OriginPolicy,
  method: string,
  from: string,
  status: number,
  location: string | null,
): string | null {
  if (status < 300 || status >= 400 || location === null) return null;
  let to: string;
  try {
    to = new URL(location, from).href;
  } catch {
    return null;
  }
  if (METHOD_KEEPING.has(status) && isWrite(method)) {
    const origin = originOf(to);
    if (origin === null || origin === policy.appOrigin) return null;
    return `redirect refused: ${method.toUpperCase()} ${from} answered ${status} to ${origin}, which would resend the write to an origin other than the app (${policy.appOrigin}); apptwin only lets writes reach the app`;
  }
  return escapedRedirect(policy, from, to);
}
