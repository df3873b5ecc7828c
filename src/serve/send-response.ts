/**
 * Writes answers to a node:http response: the runtime's TwinResponse, or a
 * plain JSON value (control plane, errors). HEAD gets the headers only.
 * Shared by the HTTP twin and the MCP sessions over HTTP, so it sits below both.
 */
import { channel } from "node:diagnostics_channel";
import type { IncomingMessage, ServerResponse } from "node:http";
import { setImmediate as nextTurn } from "node:timers/promises";
import { answerJson } from "./runtime/answer-json.js";
import type { TwinResponse } from "./runtime/twin-types.js";

/** Headers never copied from a recorded answer: the twin frames its own bodies. */
const HOP = new Set(["content-length", "transfer-encoding", "connection", "content-encoding", "keep-alive"]);

function finish(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string | Buffer | null,
) {
  // A text body goes out as it is: node writes it with the head in one write, never copied into a Buffer first.
  if (body !== null)
    headers["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.length);
  res.writeHead(status, headers);
  res.end(req.method === "HEAD" || body === null ? undefined : body);
}

/** Sends a JSON value with a status. */
export function sendJson(req: IncomingMessage, res: ServerResponse, status: number, value: unknown): void {
  finish(req, res, status, { "content-type": "application/json" }, JSON.stringify(value));
}

/**
 * Answers 413 with `Connection: close` and destroys the socket once the answer
 * is flushed: the unread rest of the body (possibly endless) is never read.
 */
export function sendTooLarge(req: IncomingMessage, res: ServerResponse, body: unknown): void {
  res.once("finish", () => req.socket.destroy());
  const headers = { "content-type": "application/json", connection: "close" };
  finish(req, res, 413, headers, JSON.stringify(body));
}

/** A runtime answer, or one a fault made up (`served_by: fault`). */
type Answer = Omit<TwinResponse, "served_by"> & { served_by: string };

/** The status, headers and body (text, or bytes) of an answer, `x-apptwin-served-by` saying how it was produced. */
function answerParts(answer: Answer): { headers: Record<string, string>; bytes: string | Buffer | null } {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(answer.headers))
    if (!HOP.has(k.toLowerCase())) headers[k.toLowerCase()] = v;
  headers["x-apptwin-served-by"] = answer.served_by;
  const b = answer.body;
  let bytes: string | Buffer | null = null;
  if (b?.kind === "json") {
    bytes = answerJson(b.value) as string;
    headers["content-type"] ??= "application/json";
  } else if (b?.kind === "text") {
    bytes = b.text;
    headers["content-type"] = b.content_type;
  } else if (b?.kind === "base64") {
    bytes = Buffer.from(b.text, "base64");
    headers["content-type"] = b.content_type;
  }
  return { headers, bytes };
}

/** Sends a runtime answer, with `x-apptwin-served-by` saying how it was produced. */
export function sendTwinResponse(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  const { headers, bytes } = answerParts(answer);
  finish(req, res, answer.status, headers, bytes);
}

/**
 * Bytes gathered before one write of a streamed answer (a larger run of bytes is written in views this long): few
 * writes, each cheap for the kernel to take (a copy of 256 KiB), so a state costs the twin little beyond its bytes.
 */
const STREAM_CHUNK_BYTES = 256 * 1024;

/** A run of bytes at least this long (a chunk of seed text) is written as it is, never copied into a batch. */
const STREAM_VIEW_BYTES = 16 * 1024;

/**
 * The longest a streamed answer works before it lets other requests run, in ms; it lets them run after every
 * write as well, so a slice is at most this long or one write (at most STREAM_CHUNK_BYTES), whichever ends first.
 */
const STREAM_SLICE_MS = 1;

/**
 * The diagnostics channel (`node:diagnostics_channel`) a streamed answer publishes on, once per slice, how long it
 * held the event loop: `{ ms, cpu_ms }`, the wall time from when it took the loop to when it let it go, and the
 * process's CPU time in it (every thread's: a GC's helper threads count too; the wall time includes what the
 * machine gave other processes meanwhile). Nothing is measured while nobody subscribes; a subscriber costs the
 * twin two `process.cpuUsage()` calls (getrusage) a slice, a sixth of its CPU while a state is read as fast as a
 * client can, so a benchmark subscribes only while it measures the slices, never while it times other requests.
 */
export const STREAM_SLICE_CHANNEL = "apptwin:serve:stream-slice";
const sliceChannel = channel(STREAM_SLICE_CHANNEL);

/**
 * The slices of work of one large answer: `due()` says the slice is spent, `pause(wait)` ends the slice, waits
 * (the next turn of the event loop, or the client), and starts the next one.
 */
export class StreamSlices {
  private start = performance.now();
  private cpu = sliceChannel.hasSubscribers ? process.cpuUsage() : null;

  due(): boolean {
    return performance.now() - this.start >= STREAM_SLICE_MS;
  }

  /** Lets other requests run (one turn of the event loop) when the slice is spent. */
  async yieldIfDue(): Promise<void> {
    if (this.due()) await this.pause(nextTurn());
  }

  async pause<T>(wait: Promise<T>): Promise<T> {
    this.end();
    const value = await wait;
    this.start = performance.now();
    this.cpu = sliceChannel.hasSubscribers ? process.cpuUsage() : null;
    return value;
  }

  /** Ends the slice for good (the answer is written, or abandoned). */
  end(): void {
    if (!sliceChannel.hasSubscribers || this.cpu === null) return;
    const cpu = process.cpuUsage(this.cpu);
    sliceChannel.publish({ ms: performance.now() - this.start, cpu_ms: (cpu.user + cpu.system) / 1000 });
  }
}

/** Resolves once the response can take more (drain) or is gone (close, error); true when it can. */
function writable(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    res.on("drain", onDrain);
    res.on("close", onClose);
  });
}

/**
 * Streams a JSON answer given in pieces (text or bytes), chunked: the pieces are taken as they are written, the
 * writer waits while the client is slow (backpressure) and lets other requests run after every write of at most
 * 256 KiB and every millisecond, so a large answer never stalls the twin. A client that goes away stops it. HEAD gets the headers only. `slices` are
 * the answer's slices when work before the stream (building the text) began them.
 */
export async function sendJsonPieces(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  pieces: Iterable<string | Uint8Array>,
  slices = new StreamSlices(),
): Promise<void> {
  res.writeHead(status, { "content-type": "application/json" });
  if (req.method === "HEAD") {
    res.end();
    slices.end();
    return;
  }
  let pending: (string | Uint8Array)[] = [];
  let pendingBytes = 0;
  // After each write the event loop turns (setImmediate), so requests that arrived meanwhile are answered between
  // any two writes. Waiting for `drain` alone does not turn it: when the kernel took a write at once, the response
  // says `drain` in the same turn (process.nextTick), and a stream that only waited for it held the loop as long as
  // a fast client kept reading (session 7: the other episodes' reads waited 50-250 ms while a state was read at
  // full speed, every slice between two drains short).
  const write = async (bytes: Uint8Array): Promise<boolean> => {
    if (!res.write(bytes) && !(await slices.pause(writable(res)))) return false;
    await slices.pause(nextTurn());
    return !res.destroyed;
  };
  const flush = async (): Promise<boolean> => {
    const bytes = joined(pending);
    pending = [];
    pendingBytes = 0;
    return write(bytes);
  };
  const stream = async (): Promise<boolean> => {
    for (const piece of pieces) {
      if (typeof piece !== "string" && piece.length >= STREAM_VIEW_BYTES) {
        // A long run of bytes (seed text) is written in views of it, never copied into a batch (copying a state's
        // seed text cost it a memcpy of every byte); each write is bounded, so no one write holds the loop while the
        // kernel takes a long buffer.
        if (pending.length > 0 && !(await flush())) return false;
        for (let at = 0; at < piece.length; at += STREAM_CHUNK_BYTES) {
          if (!(await write(piece.subarray(at, at + STREAM_CHUNK_BYTES)))) return false;
        }
        continue;
      }
      pending.push(piece);
      pendingBytes += piece.length;
      if ((pendingBytes >= STREAM_CHUNK_BYTES || slices.due()) && !(await flush())) return false;
    }
    return pending.length === 0 || flush();
  };
  if (await stream()) res.end();
  slices.end();
}

/** The pieces as one buffer: runs of text joined before they are encoded. */
function joined(pieces: (string | Uint8Array)[]): Uint8Array {
  if (pieces.length === 1 && typeof pieces[0] !== "string") return pieces[0]!;
  const parts: Uint8Array[] = [];
  let text = "";
  for (const p of pieces) {
    if (typeof p === "string") {
      text += p;
      continue;
    }
    if (text !== "") parts.push(Buffer.from(text));
    text = "";
    parts.push(p);
  }
  if (text !== "") parts.push(Buffer.from(text));
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/**
 * Sends the head of an answer and the first `keep` share of its body, then cuts the connection: the client reads
 * fewer bytes than Content-Length promised, as from an app that died mid-answer.
 */
export function sendTruncated(req: IncomingMessage, res: ServerResponse, answer: Answer, keep: number): void {
  const { headers, bytes } = answerParts(answer);
  const body = typeof bytes === "string" ? Buffer.from(bytes) : (bytes ?? Buffer.alloc(0));
  headers["content-length"] = String(body.length);
  res.writeHead(answer.status, headers);
  const part = req.method === "HEAD" ? Buffer.alloc(0) : body.subarray(0, Math.floor(body.length * keep));
  res.write(part, () => res.destroy());
}

/** Closes the connection without answering, as an app that crashed or a proxy that reset it. */
export function dropConnection(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  res.destroy();
}
