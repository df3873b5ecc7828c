/**
 * End to end: capture the items app with examples/items.scenario.json in a
 * real Chromium, learn and write a real bundle, read it back, serve it, and
 * check the twin (1) answers a CRUD sequence over MCP like the real app that
 * was recorded, and (2) runs the app's own /items page: the seed is listed
 * and an item added through the page shows up.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Browser } from "playwright-core";
import { fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ITEMS_SEED, type ItemsApp, startItemsApp } from "../scripts/fixtures/items-app/server.mjs";
import { buildBundle } from "../src/bundle/build-bundle.js";
import { writeBundle } from "../src/bundle/bundle-io.js";
import { readBundle } from "../src/bundle/bundle-reader.js";
import type { Bundle } from "../src/bundle/bundle-schema.js";
import { runCapture } from "../src/capture/run-capture.js";
import type { Evidence } from "../src/evidence/evidence-schema.js";
import { parseScenario } from "../src/scenario/parse-scenario.js";
import { createTwinServer, type TwinServer } from "../src/serve/http/twin-http-server.js";
import { launchTestBrowser } from "./support/launch-test-browser.js";

const PASSWORD = "twin-ui-password";
let app: ItemsApp;
let dir: string;
let evidence: Evidence;
let bundle: Bundle;
let twin: TwinServer;
let base: string;
let browser: Browser;

beforeAll(async () => {
  app = await startItemsApp({ port: 0, password: PASSWORD });
  const file = join(import.meta.dirname, "..", "examples", "items.scenario.json");
  const raw = JSON.parse(await readFile(file, "utf8"));
  const scenario = parseScenario(JSON.stringify({ ...raw, start_url: `${app.url}/` }), file);
  ({ evidence } = await runCapture({ scenario, env: { ...process.env, ITEMS_PASSWORD: PASSWORD } }));
  dir = await mkdtemp(join(tmpdir(), "apptwin-twin-ui-"));
  await writeBundle(join(dir, "bundle"), buildBundle({ evidence: [evidence] }).files, { force: false });
  bundle = await readBundle(join(dir, "bundle"));
  twin = createTwinServer(bundle);
  base = await twin.listen(0, "127.0.0.1");
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await twin?.close();
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The recorded answer of a request step, parsed. */
function recorded(stepId: string): { status: number; body: unknown } {
  const r = evidence.records.find((x) => x.step_id === stepId && x.initiator === "request-step")!;
  const text = r.response!.body?.text ?? "";
  return { status: r.response!.status, body: text === "" ? null : JSON.parse(text) };
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Replaces the clock fields (the app's real time vs the twin's episode clock) after checking their form. */
function stable(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(stable);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "created_at" || k === "updated_at") {
      expect(v).toMatch(ISO);
      out[k] = "<time>";
    } else out[k] = stable(v);
  }
  return out;
}

describe("the twin of a real items capture", () => {
  it("captured, learned and bundled the CRUD endpoints and the pages", () => {
    expect(evidence.verdict).toBe("passed");
    expect(bundle.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        "get_items",
        "get_items_by_id",
        "post_items",
        "put_items_by_id",
        "patch_items_by_id",
        "delete_items_by_id",
      ]),
    );
    expect(bundle.manifest.assets.map((a) => a.path)).toEqual(
      expect.arrayContaining(["/items", "/static/items.js"]),
    );
  });

  it("answers create → read → update → delete over MCP as the recorded app did", async () => {
    const client = new Client({ name: "twin-ui", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })).structuredContent as {
        status: number;
        body: unknown;
      };
    // The seed is the state the recording ended with (Milk is 6, Bread 7 was deleted), so the next id is 8.
    const created = await call("post_items", { body: { title: "Milk" } });
    const milk = recorded("create-milk");
    expect(created.status).toBe(milk.status);
    expect(stable(created.body)).toEqual(stable({ ...(milk.body as object), id: 8 }));
    expect(await call("get_items_by_id", { id: 8 })).toEqual({ status: 200, body: created.body });
    const read1 = recorded("read-item-1");
    expect(await call("get_items_by_id", { id: 1 })).toEqual(read1);
    const put = await call("put_items_by_id", { id: 8, body: { title: "Oat milk", done: false } });
    expect(stable(put)).toEqual(
      stable({ ...recorded("put-milk"), body: { ...(recorded("put-milk").body as object), id: 8 } }),
    );
    const patched = await call("patch_items_by_id", { id: 8, body: { done: true } });
    expect(stable(patched.body)).toEqual(
      stable({ ...(recorded("read-put-milk").body as object), id: 8, done: true }),
    );
    // A PATCH of a field the recording never patched: the tool accepts it and the twin applies it.
    const renamed = await call("patch_items_by_id", { id: 8, body: { title: "Renamed over MCP" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: 8, title: "Renamed over MCP", done: true });
    expect(await call("delete_items_by_id", { id: 8 })).toEqual({ status: 204, body: null });
    expect(await call("get_items_by_id", { id: 8 })).toEqual(recorded("read-deleted-bread"));
    expect(await call("get_items", {})).toEqual(recorded("list-after-writes"));
    expect(await call("get_items", { limit: 2, offset: 2 })).toEqual({
      status: 200,
      body: { data: (recorded("list-after-writes").body as { data: unknown[] }).data.slice(2, 4), total: 6 },
    });
    await client.close();
  });

  it("runs the app's own /items page against the twin: seed listed, an added item shown", async () => {
    await fetch(`${base}/__apptwin/episodes/default/reset`, { method: "POST" });
    const context = await browser.newContext();
    await context.addInitScript(() => localStorage.setItem("auth", JSON.stringify({ token: "twin" })));
    const page = await context.newPage();
    await page.goto(`${base}/items`);
    const list = page.getByRole("list", { name: "Items" });
    for (const item of ITEMS_SEED.filter((i) => i.id !== 3))
      await expect.poll(() => list.textContent()).toContain(item.title);
    await expect.poll(() => page.locator("#summary").textContent()).toBe("6 items, 2 done");
    await page.getByLabel("New item").fill("Tea from the twin");
    await page.getByRole("button", { name: "Add" }).click();
    await expect.poll(() => list.textContent()).toContain("Tea from the twin");
    await expect.poll(() => page.locator("#summary").textContent()).toBe("7 items, 2 done");
    const diff = (await (await fetch(`${base}/__apptwin/episodes/default/diff`)).json()) as {
      changes: { kind: string; after?: { title: string } }[];
    };
    expect(diff.changes.map((c) => [c.kind, c.after?.title])).toEqual([["created", "Tea from the twin"]]);
    await context.close();
  });

  it("signs in through the app's own /login form on the twin (the sign-in is replayed) and lands on /items", async () => {
    await fetch(`${base}/__apptwin/episodes/default/reset`, { method: "POST" });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel("Email").fill("admin@example.test");
    // Any password: the twin never checks credentials and never held the real one.
    await page.getByLabel("Password").fill("not-the-real-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/items$/);
    await expect.poll(() => page.locator("#summary").textContent()).toBe("6 items, 2 done");
    const stored = await page.evaluate(() => localStorage.getItem("auth"));
    expect(JSON.parse(stored ?? "{}")).toEqual({ token: "[REDACTED:field:token]" });
    await context.close();
  });
});
