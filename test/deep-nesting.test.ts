/**
 * JSON from outside nested far past any real document (issue 13): a body a
 * HAR or a capture recorded, a body a client sends the twin, a faults file.
 * One rule everywhere: a body nested more than MAX_JSON_DEPTH levels is kept
 * as opaque text, never parsed (learn warns body_too_deep); a document is
 * refused naming the file (exit 2). Nothing overflows the stack.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle } from "../src/bundle/build-bundle.js";
import { learnModel } from "../src/bundle/learn-model.js";
import { toolsFromModel } from "../src/bundle/tool-definitions.js";
import { UserError } from "../src/errors/user-error.js";
import { harToEvidence } from "../src/evidence/har-import.js";
import { readFaultPlan } from "../src/serve/faults-file-io.js";
import { createTwinServer, type TwinServer } from "../src/serve/http/twin-http-server.js";
import { createTwinMcpServer } from "../src/serve/mcp/twin-mcp-server.js";
import { memoryHandle } from "../src/serve/memory-episode-store.js";
import { createEpisode } from "../src/serve/runtime/create-episode.js";
import { findTooDeep, MAX_JSON_DEPTH, MAX_WRAPPED_DEPTH } from "../src/util/json-depth.js";
import { twinBundle } from "./fixtures/models/twin-bundle-fixture.js";

const deep = (n: number) => `{"a":${"[".repeat(n)}1${"]".repeat(n)}}`;
const DEPTH = 8000;

let clock = 0;
const entry = (method: string, path: string, status: number, answer: string, body?: string) => ({
  startedDateTime: new Date(Date.UTC(2024, 4, 1, 10) + 1000 * clock++).toISOString(),
  time: 5,
  _resourceType: "fetch",
  request: {
    method,
    url: `http://127.0.0.1:4010${path}`,
    headers: body === undefined ? [] : [{ name: "content-type", value: "application/json" }],
    ...(body === undefined ? {} : { postData: { mimeType: "application/json", text: body } }),
  },
  response: {
    status,
    statusText: "",
    headers: [{ name: "content-type", value: "application/json" }],
    content: { size: answer.length, mimeType: "application/json", text: answer },
  },
});

const har = {
  log: {
    version: "1.2",
    creator: { name: "test", version: "1" },
    entries: [
      entry("GET", "/api/notes", 200, '[{"id":1,"title":"a"}]'),
      entry("GET", "/api/tree", 200, deep(DEPTH)),
      entry("POST", "/api/notes", 201, '{"id":2,"title":"b"}', JSON.stringify({ title: "b" })),
      entry("POST", "/api/echo", 200, '{"ok":true}', deep(DEPTH)),
      entry("GET", "/api/notes", 200, '[{"id":1,"title":"a"},{"id":2,"title":"b"}]'),
    ],
  },
};

let twin: TwinServer;
let base: string;
const evidence = harToEvidence(har, { file: "deep.har", fileName: "deep.har", secrets: [] });

beforeAll(async () => {
  const { model, seed } = learnModel(evidence);
  twin = createTwinServer(twinBundle({ model, seed, tools: toolsFromModel(model) }));
  base = await twin.listen(0, "127.0.0.1");
});

afterAll(async () => {
  await twin?.close();
});

describe("a recorded body nested past the limit", () => {
  it("is imported and built as opaque text, with a warning naming the record", () => {
    const tree = evidence.records.find((r) => r.request.url.endsWith("/api/tree"))!;
    expect(tree.response?.body?.text).toBe(deep(DEPTH));
    const built = buildBundle({ evidence: [evidence] });
    const warnings = built.coverage.warnings.filter((w) => w.code === "body_too_deep");
    expect(warnings.map((w) => w.message)).toEqual([
      `the response body of GET /api/tree nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; it is kept as opaque text, never parsed (nothing is learned from its fields)`,
      `the request body of POST /api/echo nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; it is kept as opaque text, never parsed (nothing is learned from its fields)`,
    ]);
    // Same evidence, same bytes.
    const again = buildBundle({ evidence: [evidence] });
    expect([...again.files.keys()]).toEqual([...built.files.keys()]);
    for (const [path, bytes] of built.files)
      expect(Buffer.from(again.files.get(path)!).equals(bytes)).toBe(true);
  });

  it("is answered by the twin as recorded, never a 500", async () => {
    const res = await fetch(`${base}/api/tree`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(deep(DEPTH));
  });
});

describe("a body nested past the limit sent to the twin", () => {
  it("is refused as a body it cannot read, never a 500", async () => {
    const send = (path: string) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: deep(DEPTH),
      });
    const notes = await send("/api/notes");
    expect(notes.status).toBe(400);
    expect(((await notes.json()) as { error: string }).error).toBe("malformed_body");
    // A write the recording could not prove is not served at all: its explained 501, whatever the body.
    const echo = await send("/api/echo");
    expect([echo.status, ((await echo.json()) as { error: string }).error]).toEqual([501, "not_served"]);
  });
});

describe("MCP tool arguments nested past the limit", () => {
  it("are refused as an error result naming the argument, never a crash", async () => {
    const { model, seed } = learnModel(evidence);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createTwinMcpServer(
      twinBundle({ model, seed, tools: toolsFromModel(model) }),
      memoryHandle(createEpisode(model, seed, { episodeId: "e" })),
    ).connect(serverSide);
    const client = new Client({ name: "deep-test", version: "1.0.0" });
    await client.connect(clientSide);
    const title = JSON.parse(deep(DEPTH)) as unknown;
    const result = (await client.callTool({ name: "post_notes", arguments: { body: { title } } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    await client.close();
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain("body.title");
  });
});

describe("a faults file nested past the limit", () => {
  it("is refused naming the file, as a user error (exit 2)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "apptwin-deep-"));
    const file = join(dir, "faults.json");
    await writeFile(file, `{"schema_version":1,"rules":[${deep(DEPTH)}]}`);
    const error = await readFaultPlan({ file }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).message).toContain(file);
    expect((error as UserError).message).toContain(`more than ${MAX_JSON_DEPTH} levels deep`);
  });
});

describe("a body at the limit", () => {
  it("is learned, and the bundle's files stay within what the bundle reader accepts", () => {
    const body = `{"items":${"[".repeat(MAX_JSON_DEPTH - 2)}1${"]".repeat(MAX_JSON_DEPTH - 2)}}`;
    const atLimit = harToEvidence(
      { log: { ...har.log, entries: [entry("GET", "/api/edge", 200, `[${body}]`)] } },
      { file: "edge.har", fileName: "edge.har", secrets: [] },
    );
    const built = buildBundle({ evidence: [atLimit] });
    expect(built.coverage.warnings.filter((w) => w.code === "body_too_deep")).toEqual([]);
    for (const [path, bytes] of built.files)
      if (path.endsWith(".json"))
        expect([path, findTooDeep(Buffer.from(bytes).toString("utf8"), MAX_WRAPPED_DEPTH)]).toEqual([
          path,
          undefined,
        ]);
  });
});
