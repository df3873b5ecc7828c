/**
 * Writes answers to a node:http response: the runtime's TwinResponse, or a
 * plain JSON value (control plane, errors). HEAD gets the headers only.
 * Shared by the HTTP twin and the MCP sessions over HTTP, so it sits below both.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TwinResponse } from "./runtime/twin-types.js";

/** Headers never copied from a recorded answer: the twin frames its own bodies. */
const HOP = new Set(["content-length", "transfer-encoding", "connection", "content-encoding", "keep-alive"]);

function finish(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: Buffer | null,
) {
  if (body !== null) headers["content-length"] = String(body.length);
  res.writeHead(status, headers);
  res.end(req.method === "HEAD" || body === null ? undefined : body);
}

/** Sends a JSON value with a status. */
export function sendJson(req: IncomingMessage, res: ServerResponse, status: number, value: unknown): void {
  finish(req, res, status, { "content-type": "application/json" }, Buffer.from(JSON.stringify(value)));
}

/**
 * Answers 413 with `Connection: close` and destroys the socket once the answer
 * is flushed: the unread rest of the body (possibly endless) is never read.
 */
export function sendTooLarge(req: IncomingMessage, res: ServerResponse, body: unknown): void {
  res.once("finish", () => req.socket.destroy());
  const headers = { "content-type": "application/json", connection: "close" };
  finish(req, res, 413, headers, Buffer.from(JSON.stringify(body)));
}

/** Sends a runtime answer, with `x-apptwin-served-by` saying how it was produced. */
export function sendTwinResponse(req: IncomingMessage, res: ServerResponse, answer: TwinResponse): void {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(answer.headers))
    if (!HOP.has(k.toLowerCase())) headers[k.toLowerCase()] = v;
  headers["x-apptwin-served-by"] = answer.served_by;
  const b = answer.body;
  let bytes: Buffer | null = null;
  if (b?.kind === "json") {
    bytes = Buffer.from(JSON.stringify(b.value));
    headers["content-type"] ??= "application/json";
  } else if (b?.kind === "text") {
    bytes = Buffer.from(b.text, "utf8");
    headers["content-type"] = b.content_type;
  } else if (b?.kind === "base64") {
    bytes = Buffer.from(b.text, "base64");
    headers["content-type"] = b.content_type;
  }
  finish(req, res, answer.status, headers, bytes);
}
