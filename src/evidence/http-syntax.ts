/**
 * What a recorded request may hold on its first lines: a method that is an
 * RFC 9110 token and header names and values without CR, LF or NUL. Evidence
 * and HAR are read from files anyone may write; a method like `GET\r\nX: y`
 * would become a tool name and a route, and a header value with a line break
 * would be split (or thrown on) where the twin sends it.
 */
import { z } from "zod";

/** RFC 9110 `token`: the characters a method (and a header name) may hold. */
export const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const hasAny = (value: string, chars: string) => [...chars].some((c) => value.includes(c));
const LINE_BREAK = "\r\n\u0000";
const CR_OR_NUL = "\r\u0000";

/** A method as evidence and HAR files hold it. */
export const MethodSchema = z.string().regex(HTTP_TOKEN, {
  message:
    "must be an HTTP method token (RFC 9110: letters, digits and !#$%&'*+-.^_`|~, such as GET or POST)",
});

/** A header name: no CR, LF or NUL. (HTTP/2 pseudo-headers such as `:authority` are kept: HARs hold them.) */
export const HeaderNameSchema = z.string().refine((name) => !hasAny(name, LINE_BREAK), {
  message: "must not hold a carriage return, line feed or NUL (a header name is one token)",
});

/**
 * True when a header value may be written as recorded: no CR, LF or NUL, except the line feeds of a
 * Set-Cookie, one cookie a line (how some HAR writers join the repeated header; redaction reads it so).
 */
export function isHeaderValueSafe(name: string, value: string): boolean {
  if (name.toLowerCase() === "set-cookie") return !hasAny(value, CR_OR_NUL);
  return !hasAny(value, LINE_BREAK);
}

/** The message of an unsafe header value, at the value's path. */
export const HEADER_VALUE_MESSAGE =
  "must not hold a carriage return, line feed or NUL (only a Set-Cookie's value may hold line feeds, one cookie a line)";

/** Adds a header's safe-value check to an object schema with `name` and `value`. */
export function checkHeaderValue(h: { name: string; value: string }, ctx: z.RefinementCtx): void {
  if (!isHeaderValueSafe(h.name, h.value))
    ctx.addIssue({ code: "custom", path: ["value"], message: HEADER_VALUE_MESSAGE });
}
