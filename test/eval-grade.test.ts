/**
 * `apptwin grade` against a running twin (started in-process on loopback,
 * as `apptwin serve` starts it), on episodes made through a real MCP
 * client the way an outside agent would: the right work passes, and
 * deliberately wrong episodes fail with a reason that says what differed —
 * a wrong answer, a write to the wrong entity, the right write plus an
 * extra deletion (collateral damage), no write at all — plus the refusals
 * (unknown episode, another bundle, the smoke task).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle } from "../src/bundle/build-bundle.js";
import { writeBundle } from "../src/bundle/bundle-io.js";
import { readBundle } from "../src/bundle/bundle-reader.js";
import Grade from "../src/commands/grade.js";
import type { EpisodeGrade } from "../src/eval/grade-episode-io.js";
import { readEvidence } from "../src/evidence/evidence-io.js";
import type { TwinServer } from "../src/serve/http/twin-http-server.js";
import { startHttpTwin } from "../src/serve/start-twin.js";
import { runCommand } from "./fixtures/bundle/run-command.js";

const fixture = (name: string) => join(import.meta.dirname, "fixtures", "evidence", name);
let dir: string;
let items: string;
let boards: string;
let twin: TwinServer;
let url: string;
let counter = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "apptwin-grade-"));
  items = join(dir, "items");
  boards = join(dir, "boards");
  for (const [out, app] of [
    [items, "items"],
    [boards, "boards"],
  ] as const)
    await writeBundle(
      out,
      buildBundle({ evidence: [await readEvidence(fixture(`${app}.capture.json`))] }).files,
      {
        force: false,
      },
    );
  const started = await startHttpTwin(await readBundle(items), { port: 0, host: "127.0.0.1" });
  twin = started.twin;
  url = started.endpoints.url;
});

afterAll(async () => {
  await twin?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A loopback port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Makes an episode over the control plane and calls the tools on it through a real MCP client. */
async function episode(calls: [string, Record<string, unknown>][]): Promise<string> {
  const id = `agent-run-${++counter}`;
  const created = await fetch(`${url}/__apptwin/episodes`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id }),
  });
  expect(created.status).toBe(201);
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { "x-apptwin-episode": id } },
  });
  const client = new Client({ name: "outside-agent", version: "1.0.0" });
  await client.connect(transport);
  for (const [name, args] of calls) {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, name).toBeUndefined();
  }
  await transport.terminateSession();
  await client.close();
  return id;
}

async function grade(
  task: string,
  id: string,
  answer?: string,
): Promise<{ code: number; grade: EpisodeGrade; stdout: string }> {
  const args = [
    items,
    "--task",
    task,
    "--episode",
    id,
    "--url",
    url,
    ...(answer === undefined ? [] : ["--answer", answer]),
  ];
  const json = await runCommand(Grade, [...args, "--json"]);
  const text = await runCommand(Grade, args);
  expect(text.code).toBe(json.code);
  return { code: json.code, grade: JSON.parse(json.stdout) as EpisodeGrade, stdout: text.stdout };
}

describe("apptwin grade: the right work passes", () => {
  it("a question answered right, with only reads made", async () => {
    const id = await episode([["get_items", { done: "false" }]]);
    const { code, grade: g, stdout } = await grade("count.items.done", id, "4");
    expect(code).toBe(0);
    expect(g).toMatchObject({
      task: "count.items.done",
      episode: id,
      answer: "4",
      passed: true,
      reasons: [],
      changes: [],
    });
    expect(stdout).toBe(`count.items.done on episode ${id}: passed\n`);
  });

  it("the asked write, however the agent made it (PUT instead of PATCH)", async () => {
    const id = await episode([
      ["put_items_by_id", { id: 4, body: { title: "Water the plants", done: false } }],
    ]);
    const { code, grade: g } = await grade("update.items.done", id);
    expect(code).toBe(0);
    expect(g.changes.map((c) => [c.kind, c.id, c.fields])).toEqual([
      ["updated", "4", ["done", "updated_at"]],
    ]);
  });
});

describe("apptwin grade: deliberately wrong episodes fail, saying what differed", () => {
  it("a wrong answer", async () => {
    const id = await episode([["get_items", {}]]);
    const { code, grade: g, stdout } = await grade("count.items.done", id, "There are 6 items.");
    expect(code).toBe(1);
    expect(g.reasons).toEqual(["the answer was 6; expected 4"]);
    expect(stdout).toBe(`count.items.done on episode ${id}: failed\n  - the answer was 6; expected 4\n`);
    const wrongTitle = await grade("latest.items.created_at", id, "Book dentist appointment");
    expect(wrongTitle.grade.reasons).toEqual([
      "the answer was “Book dentist appointment”; expected “Oat milk”",
    ]);
    const list = await grade("list.items.done", id, "Renew passport\nOat milk");
    expect(list.grade.reasons).toEqual([
      "the answer lacks “Water the plants”",
      "the answer also names “Oat milk”, which do not belong",
    ]);
  });

  it("a write to the wrong entity", async () => {
    const id = await episode([
      ["patch_items_by_id", { id: 3, body: { done: false } }],
      ["patch_items_by_id", { id: 2, body: { done: false } }],
    ]);
    const { code, grade: g } = await grade("update.items.done", id);
    expect(code).toBe(1);
    expect(g.reasons).toEqual([
      "item 4 (“Water the plants”) was not changed; expected its done to become false",
      "collateral damage: item 2 (“Renew passport”) was changed (done: true → false, updated_at: “2026-02-02T08:15:00.000Z” → “2026-11-29T20:04:28.149Z”), and the task did not ask for it",
      "collateral damage: item 3 (“Call the plumber”) was changed (updated_at: “2026-01-20T11:45:00.000Z” → “2026-11-29T20:04:27.149Z”), and the task did not ask for it",
    ]);
  });

  it("the right write plus an extra deletion: collateral damage, named", async () => {
    const id = await episode([
      ["patch_items_by_id", { id: 4, body: { done: false } }],
      ["delete_items_by_id", { id: 5 }],
    ]);
    const { code, grade: g } = await grade("update.items.done", id);
    expect(code).toBe(1);
    expect(g.reasons).toEqual([
      "collateral damage: item 5 (“Book dentist appointment”) was deleted, and the task did not ask for it",
    ]);
  });

  it("a find-then-delete that deletes the wrong end, or one too many", async () => {
    // "Delete the item that was created first.": item 1.
    const latest = await episode([["delete_items_by_id", { id: 6 }]]);
    expect((await grade("find_then_delete.items", latest)).grade.reasons).toEqual([
      "item 1 (“Buy coffee beans”) was not deleted",
      "collateral damage: item 6 (“Oat milk”) was deleted, and the task did not ask for it",
    ]);
    const both = await episode([
      ["delete_items_by_id", { id: 1 }],
      ["delete_items_by_id", { id: 2 }],
    ]);
    const { code, grade: g } = await grade("find_then_delete.items", both);
    expect(code).toBe(1);
    expect(g.reasons).toEqual([
      "collateral damage: item 2 (“Renew passport”) was deleted, and the task did not ask for it",
    ]);
    const right = await episode([["delete_items_by_id", { id: 1 }]]);
    expect((await grade("find_then_delete.items", right)).grade).toMatchObject({ passed: true, reasons: [] });
  });

  it("the right field set to the wrong value, and another field changed with it", async () => {
    const id = await episode([["patch_items_by_id", { id: 4, body: { done: true, title: "Water plants" } }]]);
    const { grade: g } = await grade("update.items.done", id);
    expect(g.reasons).toEqual([
      "item 4 (“Water the plants”): done is true; expected false",
      "collateral damage: item 4 (“Water the plants”) also changed title: “Water the plants” → “Water plants”, which the task did not ask for",
    ]);
  });

  it("no write at all", async () => {
    const id = await episode([["get_items", {}]]);
    expect((await grade("delete.items", id)).grade.reasons).toEqual(["item 6 (“Oat milk”) was not deleted"]);
    expect((await grade("create.items", id)).grade.reasons).toEqual([
      "no item was created; expected one with title “Quarterly review”",
    ]);
    expect((await grade("find_then_update.items.done", id)).grade.reasons).toEqual([
      "item 6 (“Oat milk”) was not changed; expected its done to become true",
    ]);
  });

  it("a create with the wrong value, and a write where only a question was asked", async () => {
    const id = await episode([["post_items", { body: { title: "Quarterly reveiw" } }]]);
    expect((await grade("create.items", id)).grade.reasons).toEqual([
      "the new item (8): title is “Quarterly reveiw”; expected “Quarterly review”",
    ]);
    expect((await grade("count.items.done", id, "4")).grade.reasons).toEqual([
      "collateral damage: an item was created (item 8 (“Quarterly reveiw”)), and the task only asks a question",
    ]);
  });
});

describe("apptwin grade: refusals (exit 2)", () => {
  it("an unknown episode names the twin's episodes", async () => {
    const { code, stderr } = await runCommand(Grade, [
      items,
      "--task",
      "delete.items",
      "--episode",
      "nope",
      "--url",
      url,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(`The twin at ${url} has no episode "nope" (it has: `);
  });

  it("an evicted episode says so, with the twin's own message", async () => {
    const small = await startHttpTwin(await readBundle(items), {
      port: 0,
      host: "127.0.0.1",
      maxEpisodes: 2,
    });
    try {
      const control = `${small.endpoints.url}/__apptwin/episodes`;
      for (const id of ["first", "second"]) {
        const r = await fetch(control, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ id }),
        });
        expect(r.status).toBe(201);
      }
      const args = [items, "--task", "delete.items", "--episode", "first", "--url", small.endpoints.url];
      const { code, stderr } = await runCommand(Grade, args);
      expect(code).toBe(2);
      expect(stderr).toContain(
        'Episode "first" was evicted: the twin holds at most 2 episodes (--max-episodes)',
      );
    } finally {
      await small.twin.close();
    }
  });

  it("a twin that serves another bundle", async () => {
    const { code, stderr } = await runCommand(Grade, [
      boards,
      "--task",
      "delete.cards",
      "--episode",
      "default",
      "--url",
      url,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `The twin at ${url} serves "items-full" (7 tools), not the bundle ${boards} ("boards-basic", 11 tools); grade against the bundle it serves`,
    );
  });

  it("the smoke task, which only the oracle can run", async () => {
    const { code, stderr } = await runCommand(Grade, [
      items,
      "--task",
      "smoke",
      "--episode",
      "default",
      "--url",
      url,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      "The smoke task is graded on its oracle's own calls; run apptwin eval DIR --task smoke instead.",
    );
  });

  it("no twin at the address", async () => {
    const free = await freePort();
    const { code, stderr } = await runCommand(Grade, [
      items,
      "--task",
      "delete.items",
      "--episode",
      "default",
      "--url",
      `http://127.0.0.1:${free}`,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `No twin answers at http://127.0.0.1:${free} (ECONNREFUSED); start one with apptwin serve DIR, or pass its address with --url`,
    );
  });
});
