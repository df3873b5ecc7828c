/**
 * Request bodies for the twin: read up to a bound (1 MiB by default; longer
 * is refused with 413 before it is parsed, and the rest is never read), then
 * parsed by content type into the runtime's JSON, form or text body.
 */
import type { IncomingMessage } from "node:http";
import { findTooDeep, MAX_JSON_DEPTH } from "../../util/json-depth.js";
import type { TwinRequestBody } from "../runtime/twin-types.js";

/**
 * The client closed the connection before its body ended. Not a bug and not
 * the twin's to answer (nobody is listening): the server notes it in one
 * short debug line.
 */
export class ClientGoneError extends Error {
  constructor(
    readonly received: number,
    readonly declared: number | null,
  ) {
    super(
      `the client closed the connection mid-body (${received}${declared === null ? "" : ` of ${declared}`} bytes)`,
    );
    this.name = "ClientGoneError";
  }
}

const NO_BYTES = Buffer.alloc(0);

/** The default bound on a request body: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * True when a request has no body: neither a length (or a length of 0) nor chunks (RFC 9112 6.3). Known from the
 * head alone, as the parser frames it: the request need not be complete yet (in its own `request` event it is not).
 */
export function noBody(req: IncomingMessage): boolean {
  return Number(req.headers["content-length"] ?? "0") === 0 && req.headers["transfer-encoding"] === undefined;
}

/**
 * Reads the whole body, or `{tooLarge: true}` as soon as it is known to pass
 * `limit` bytes (declared or streamed). Reading then stops: the caller answers
 * with `sendTooLarge`, which closes the connection instead of draining a body
 * that may never end.
 */
export function readBoundedBody(
  req: IncomingMessage,
  limit = MAX_BODY_BYTES,
): Promise<{ bytes: Buffer; tooLarge: false } | { tooLarge: true }> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) return Promise.resolve({ tooLarge: true });
  // Neither a length nor chunks: a request without a body, complete once its head is read.
  if (noBody(req)) {
    req.resume();
    return Promise.resolve({ bytes: NO_BYTES, tooLarge: false });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    const onError = () => {
      stop();
      const length = req.headers["content-length"];
      reject(new ClientGoneError(size, length === undefined ? null : declared));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      req.pause();
      resolve({ tooLarge: true });
    };
    const onEnd = () => {
      stop();
      resolve({ bytes: Buffer.concat(chunks), tooLarge: false });
    };
    req.on("data", onData);
    req.on("end", onEnd);
    // Node reports a client gone mid-body as an "aborted" error on the request (ECONNRESET).
    req.on("error", onError);
  });
}

/** The 413 body for a request body over `limit` bytes. */
export function tooLargeBody(limit: number) {
  return {
    error: "too_large",
    message: `The request body is larger than ${limit} bytes.`,
    limit_bytes: limit,
  };
}

/** Nesting past this is refused before anything walks the body (a 100 000-deep array overflows JSON.stringify). */
export const MAX_BODY_DEPTH = MAX_JSON_DEPTH;

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Parses a body by its content type: JSON, url-encoded form, or text. A body sent as JSON (or with no type, or
 * text/plain) that is not valid UTF-8, nests past {@link MAX_BODY_DEPTH} or does not parse is kept as text with
 * `invalid` saying why, so the runtime can refuse it as the app would.
 */
export function parseTwinBody(contentType: string | undefined, bytes: Buffer): TwinRequestBody {
  if (bytes.length === 0) return null;
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  let text: string;
  let invalid: string | undefined;
  try {
    text = UTF8.decode(bytes);
  } catch {
    text = bytes.toString("utf8");
    invalid = "is not valid UTF-8";
  }
  if (type === "application/x-www-form-urlencoded") {
    return { kind: "form", fields: [...new URLSearchParams(text).entries()] };
  }
  if (type === "" || type === "application/json" || type.endsWith("+json") || type === "text/plain") {
    if (invalid) return { kind: "text", text, invalid };
    if (findTooDeep(text, MAX_BODY_DEPTH) !== undefined)
      return {
        kind: "text",
        text,
        invalid: `nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep`,
      };
    try {
      return { kind: "json", value: JSON.parse(text) };
    } catch {
      // JSON.parse's own message quotes the body; the twin never says a body back.
      return { kind: "text", text, invalid: "is not valid JSON" };
    }
  }
  return { kind: "text", text };
}
