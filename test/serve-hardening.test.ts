/**
 * The HTTP twin under hostile clients, over a real loopback socket: a client
 * that hangs up halfway through a body costs one short debug line, never a
 * stack on serve's stderr.
 */
import { connect } from "node:net";
import debug from "debug";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolsFromModel } from "../src/bundle/tool-definitions.js";
import { createTwinServer, type TwinServer } from "../src/serve/http/twin-http-server.js";
import { ITEMS_SEED_STATE, itemsModel } from "./fixtures/models/items-twin.js";
import { twinBundle } from "./fixtures/models/twin-bundle-fixture.js";

let twin: TwinServer;
let base: string;

beforeAll(async () => {
  const model = itemsModel();
  twin = createTwinServer(twinBundle({ model, seed: ITEMS_SEED_STATE, tools: toolsFromModel(model) }));
  base = await twin.listen(0, "127.0.0.1");
});

afterAll(async () => {
  await twin?.close();
});

/** Everything written to stderr while `run` runs (and a moment after, for the server to notice). */
async function stderrOf(run: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => lines.push(String(chunk)) > 0) as typeof write;
  try {
    await run();
    await new Promise((r) => setTimeout(r, 200));
  } finally {
    process.stderr.write = write;
  }
  return lines.join("");
}

/** Sends a request head promising `declared` bytes, `sent` of them, then hangs up. */
function hangUpMidBody(path: string, declared: number, sent: number): Promise<void> {
  const { hostname, port } = new URL(base);
  return new Promise((done) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n${"x".repeat(sent)}`,
      );
      setTimeout(() => socket.destroy(), 50);
    });
    socket.on("error", () => {});
    socket.on("close", () => done());
  });
}

describe("a client that disconnects mid-body", () => {
  it("prints nothing on stderr, and one short line under apptwin:serve when debugging", async () => {
    const quiet = await stderrOf(() => hangUpMidBody("/api/items", 1000, 10));
    expect(quiet).toBe("");
    const enabled = debug.disable();
    debug.enable("apptwin:serve");
    try {
      const said = await stderrOf(async () => {
        await hangUpMidBody("/api/items", 1000, 10);
        await hangUpMidBody("/mcp", 1000, 10);
      });
      const lines = said.trim().split("\n");
      expect(lines).toHaveLength(2);
      for (const line of lines) {
        expect(line).toMatch(/apptwin:serve .*closed the connection mid-body/);
        expect(line).not.toMatch(/\bat .*\.(?:js|ts):\d+/);
        expect(line.length).toBeLessThan(200);
      }
      expect(lines[0]).toContain(
        "POST /api/items: the client closed the connection mid-body (10 of 1000 bytes)",
      );
    } finally {
      debug.disable();
      if (enabled) debug.enable(enabled);
    }
    // The twin still answers.
    expect((await fetch(`${base}/api/items`)).status).toBe(200);
  });
});
