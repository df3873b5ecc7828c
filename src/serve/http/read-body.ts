/**
 * Request bodies for the twin: read up to a bound (1 MiB by default; longer
 * is refused with 413 before it is parsed), then parsed by content type into
 * the runtime's JSON, form or text body.
 */
import type { IncomingMessage } from "node:http";
import type { TwinRequestBody } from "../runtime/twin-types.js";

/** The default bound on a request body: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Reads the whole body, or `{tooLarge: true}` once it passes `limit` bytes (the rest is drained). */
export async function readBoundedBody(
  req: IncomingMessage,
  limit = MAX_BODY_BYTES,
): Promise<{ bytes: Buffer; tooLarge: false } | { tooLarge: true }> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) {
    req.resume();
    return { tooLarge: true };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (tooLarge) continue;
    size += chunk.length;
    if (size > limit) tooLarge = true;
    else chunks.push(chunk);
  }
  return tooLarge ? { tooLarge: true } : { bytes: Buffer.concat(chunks), tooLarge: false };
}

/** Parses a body by its content type: JSON (invalid JSON is kept as text), url-encoded form, or text. */
export function parseTwinBody(contentType: string | undefined, bytes: Buffer): TwinRequestBody {
  if (bytes.length === 0) return null;
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const text = bytes.toString("utf8");
  if (type === "application/x-www-form-urlencoded") {
    return { kind: "form", fields: [...new URLSearchParams(text).entries()] };
  }
  if (type === "" || type === "application/json" || type.endsWith("+json") || type === "text/plain") {
    try {
      return { kind: "json", value: JSON.parse(text) };
    } catch {
      return { kind: "text", text };
    }
  }
  return { kind: "text", text };
}
