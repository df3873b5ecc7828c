/**
 * A streamed answer over a real loopback socket lets the event loop turn between any two of its writes, also when
 * the client takes every write at once (the response then says `drain` in the same turn, through process.nextTick).
 */
import { createServer, request, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { sendJsonPieces } from "./send-response.js";

let server: Server | null = null;

afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = null;
});

/** Serves `pieces` with sendJsonPieces once; resolves with the bytes a client read. */
async function served(pieces: () => Iterable<string | Uint8Array>): Promise<Buffer> {
  server = createServer((req, res) => void sendJsonPieces(req, res, 200, pieces()));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return new Promise((resolve, reject) => {
    request({ host: "127.0.0.1", port, path: "/" }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve(Buffer.concat(chunks)));
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

describe("sendJsonPieces", () => {
  it("turns the event loop between any two writes, a client that takes every write at once included", async () => {
    // Turns of the event loop, counted by a chain of setImmediate.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const seenAt: number[] = [];
    const run = Buffer.alloc(32 * 1024, "1");
    const body = await served(function* () {
      yield "[";
      for (let i = 0; i < 64; i++) {
        // Each run is written by itself (a view); it is taken once the write before it is done.
        seenAt.push(turns);
        yield `${i === 0 ? "" : ","}`;
        yield run;
      }
      yield "]";
    });
    ticking = false;
    expect(body.length).toBe(2 + 63 + 64 * run.length);
    expect(body.subarray(0, 1).toString()).toBe("[");
    const stalls = seenAt.slice(1).filter((t, i) => t <= seenAt[i]!);
    expect(stalls).toEqual([]);
  });

  it("writes the pieces' bytes in order, text and bytes alike", async () => {
    const parts = ['{"a":', Buffer.from("[1,2,3]"), ',"b":"é"', Buffer.alloc(20 * 1024, "2"), "}"];
    const body = await served(() => parts);
    expect(body.equals(Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : p))))).toBe(
      true,
    );
  });
});
