/**
 * The recorded app's own absolute URLs, served as the twin's. Real apps write
 * their origin into what they send (WordPress's `<link href="http://host/…">`,
 * a canonical URL a script hands to history.replaceState, an OpenAPI
 * document's `servers`, a `Location` or `Link` header, `redirect_to=http%3A%2F%2F…`);
 * served as recorded, the page would load its scripts from the real app (or
 * from nothing once it is gone) and send its API calls there. Over HTTP the
 * twin answers with its own origin in their place, in each form an origin is
 * written: plain, with JSON-escaped slashes, and percent-encoded. Only a whole
 * origin is replaced (`:3301` is not the start of `:33010`); the bundle keeps
 * the recorded bytes, and MCP answers are left as recorded.
 */
import { answerJson } from "../runtime/answer-json.js";
import type { TwinResponseBody } from "../runtime/twin-types.js";

/** One origin's written forms, each paired with the twin origin's same form. */
export interface OriginSwap {
  pattern: RegExp;
  replacements: Map<string, string>;
  /** Text every form contains (the app's host name, when no form escapes it), or null: a text without it names none. */
  probe: string | null;
}

/** Text media types whose bodies may name the origin (bytes of images and fonts are never touched). */
const TEXTUAL =
  /^(text\/|application\/(json|javascript|x-javascript|ecmascript|xml|xhtml\+xml|manifest\+json|ld\+json|[\w.+-]*\+json|[\w.+-]*\+xml)\b)|^image\/svg\+xml\b/i;

function forms(origin: string): string[] {
  const escaped = origin.replaceAll("/", "\\/");
  const encoded = encodeURIComponent(origin);
  return [origin, escaped, encoded, encoded.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())];
}

function regexEscape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The swap from the recorded app origin to the origin a request addressed (`http://` + its Host), or null
 * when there is nothing to swap (no Host, the same origin, an origin that does not parse).
 */
export function originSwap(appOrigin: string, host: string | undefined): OriginSwap | null {
  if (!host) return null;
  let app: string;
  let twin: string;
  try {
    app = new URL(appOrigin).origin;
    twin = new URL(`http://${host}`).origin;
  } catch {
    return null;
  }
  if (app === twin || app === "null") return null;
  const from = forms(app);
  const to = forms(twin);
  const replacements = new Map<string, string>();
  from.forEach((f, i) => {
    if (!replacements.has(f)) replacements.set(f, to[i]!);
  });
  const alternatives = [...replacements.keys()].sort((a, b) => b.length - a.length).map(regexEscape);
  // Not followed by what would continue a host or a port (a longer name, another digit, a port of a port-less origin).
  const pattern = new RegExp(`(?:${alternatives.join("|")})(?![\\w.:-])`, "g");
  const appHost = new URL(app).hostname;
  const probe = appHost !== "" && from.every((f) => f.includes(appHost)) ? appHost : null;
  return { pattern, replacements, probe };
}

/** A text with the app origin's every form replaced by the twin's (a text naming none of them is not scanned). */
export function swapText(text: string, swap: OriginSwap): string {
  if (swap.probe !== null && !text.includes(swap.probe)) return text;
  for (const form of swap.replacements.keys()) {
    if (text.includes(form)) return text.replace(swap.pattern, (m) => swap.replacements.get(m) ?? m);
  }
  return text;
}

/**
 * A runtime answer's body with the origin replaced: a JSON value in its serialised text (the origin's
 * characters need no JSON escape, so the text stays the same JSON, strings and keys swapped alike), sent as
 * that text under the answer's own content type (so the value is serialised once, whether or not something was
 * replaced); a text body's text; base64 bodies as they are.
 */
export function swapBody(
  body: TwinResponseBody,
  swap: OriginSwap,
  contentType = "application/json",
): TwinResponseBody {
  if (body?.kind === "text") return { ...body, text: swapText(body.text, swap) };
  if (body?.kind !== "json") return body;
  const text = answerJson(body.value);
  if (text === undefined) return body;
  return { kind: "text", text: swapText(text, swap), content_type: contentType };
}

/** True when bodies of this content type are text that may name the origin. */
export function isTextual(contentType: string): boolean {
  return TEXTUAL.test(contentType.trim());
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The body bytes with the origin replaced when they are textual UTF-8, else the bytes as they are (never re-encoded). */
export function swapBytes(bytes: Buffer, contentType: string, swap: OriginSwap): Buffer {
  if (!isTextual(contentType)) return bytes;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return bytes;
  }
  const swapped = swapText(text, swap);
  return swapped === text ? bytes : Buffer.from(swapped, "utf8");
}

/** Header values with the origin replaced (Location, Link, Content-Location, Refresh and the rest). */
export function swapHeaders(headers: Record<string, string>, swap: OriginSwap): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = swapText(v, swap);
  return out;
}
