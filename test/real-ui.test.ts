/**
 * The real apps' own UIs on their twins. Each examples/real/<app>.ui.scenario.json
 * was captured from the running app (scripts/record-real-ui.mjs) in real
 * Chromium with default limits: a sign-in through the app's form (LoopBack has
 * none: its UI is the API Explorer), a create the server assigns the id of, and
 * a read, update and delete of that id through `{ response, pointer }`. The
 * recordings are checked in (test/fixtures/real-ui/), so this runs without the
 * apps: each is built into a bundle, served by the twin's HTTP server, and a
 * real Chromium that may reach nothing but the twin opens the app's page, which
 * must show the recorded data, styled by the recorded stylesheets (its
 * screenshot is read pixel by pixel), with no script error. On LoopBack a todo
 * created through the explorer's "Try it out" lands in the episode's state.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle } from "../src/bundle/build-bundle.js";
import { writeBundle } from "../src/bundle/bundle-io.js";
import { readBundle } from "../src/bundle/bundle-reader.js";
import { readEvidence } from "../src/evidence/evidence-io.js";
import type { Evidence } from "../src/evidence/evidence-schema.js";
import { parseScenario } from "../src/scenario/parse-scenario.js";
import { createTwinServer, type TwinServer } from "../src/serve/http/twin-http-server.js";
import { launchTestBrowser } from "./support/launch-test-browser.js";

const root = join(import.meta.dirname, "..");

/** The lab apps' documented fixture credentials (../shared/real-apps/README.md): none may be in a recording. */
const CREDENTIALS = [
  "wp-admin-pass-1",
  "wp-editor-pass-1",
  "realappsAdminAppPass0001",
  "realappsEditorAppPass001",
  "redmine-admin-1",
  "redmine-dev-1",
  "realappsRedmineAdminApiKey00000000000001",
  "realappsRedmineJsmithApiKey0000000000001",
  "jupyter-pass-1",
  "realappsjupytertoken0001",
];

interface UiCase {
  app: string;
  /** The page of the app's UI opened on the twin. */
  page: string;
  /** Texts of the recorded data the page must show. */
  shows: string[];
  /** An element the recorded stylesheet paints: its background must fill much of its screenshot. */
  painted: string;
  /** The request steps that sent the server-assigned id back, chained from the create. */
  chained: string[];
  /** The step that created the entity and where its id is. */
  create: { step: string; pointer: string };
}

const CASES: UiCase[] = [
  {
    app: "wordpress",
    page: "/wp-admin/edit.php",
    shows: ["Hello world!", "Version 2.0 released", "Getting started with the API", "Howdy, Eddie Editor"],
    painted: "#adminmenuback",
    chained: ["read-created", "update-post", "read-updated", "delete-post", "read-deleted"],
    create: { step: "create-post", pointer: "/id" },
  },
  {
    app: "redmine",
    page: "/projects/website/issues",
    shows: ["Broken link on the home page", "Add a dark theme", "Logged in as admin"],
    painted: "#header",
    chained: ["read-created", "update-issue", "read-updated", "delete-issue", "read-deleted"],
    create: { step: "create-issue", pointer: "/issue/id" },
  },
  {
    app: "loopback-todo",
    page: "/explorer/",
    shows: ["TodoController", "/todos/{id}", "@loopback/example-todo"],
    painted: ".opblock-post .opblock-summary-method",
    chained: ["read-created", "patch-todo", "read-patched", "replace-todo", "read-replaced", "delete-todo"],
    create: { step: "create-todo", pointer: "/id" },
  },
  {
    // The tree page lists the folder by XHR, each with a cache-buster (`_=<now>`) the twin answers as recorded.
    app: "jupyter",
    page: "/tree",
    shows: ["notes.md", "data.csv", "projects"],
    painted: "#notebook_list_header",
    chained: ["save-file", "read-file", "rename-file"],
    create: { step: "create-file", pointer: "/path" },
  },
];

/** How long a page may take to show what it loads (a real app's page loads dozens of scripts; the machine is shared). */
const PAGE_LOAD = { timeout: 30_000 };

let browser: Browser;
let dir: string;

beforeAll(async () => {
  browser = await launchTestBrowser();
  dir = await mkdtemp(join(tmpdir(), "apptwin-real-ui-"));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * A PNG read pixel by pixel in a blank page's canvas: the share of pixels within 12 of an rgb colour
 * (`near`), and the share far (over 150) from the image's most frequent colour (`ink`: drawn text).
 */
async function readPixels(
  page: Page,
  png: Buffer,
  rgb: [number, number, number],
): Promise<{ near: number; ink: number }> {
  return page.evaluate(
    async ({ data, rgb }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const canvas = document.createElement("canvas");
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext("2d")!;
      ctx.drawImage(img, 0, 0);
      const px = ctx.getImageData(0, 0, img.width, img.height).data;
      const distance = (i: number, c: number[]) =>
        Math.abs(px[i]! - c[0]!) + Math.abs(px[i + 1]! - c[1]!) + Math.abs(px[i + 2]! - c[2]!);
      const counts = new Map<number, number>();
      let near = 0;
      for (let i = 0; i < px.length; i += 4) {
        if (distance(i, rgb) <= 12) near++;
        const key = (px[i]! << 16) | (px[i + 1]! << 8) | px[i + 2]!;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const top = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
      const dominant = [(top >> 16) & 255, (top >> 8) & 255, top & 255];
      let ink = 0;
      for (let i = 0; i < px.length; i += 4) if (distance(i, dominant) > 150) ink++;
      const n = px.length / 4;
      return { near: near / n, ink: ink / n };
    },
    { data: png.toString("base64"), rgb },
  );
}

/** The largest element showing a text, when one is drawn bigger than a screen reader's 1-pixel label; else null. */
async function drawnMatch(page: Page, text: string): Promise<Locator | null> {
  let best: { match: Locator; area: number } | null = null;
  for (const match of await page.getByText(text).all()) {
    const box = await match.boundingBox();
    if (box && box.width > 4 && box.height > 4 && (!best || box.width * box.height > best.area))
      best = { match, area: box.width * box.height };
  }
  return best?.match ?? null;
}

/** A context that reaches only the twin: every other request is aborted and remembered. */
async function twinOnlyContext(base: string, foreign: string[]): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(`${base}/`) || url.startsWith("data:")) return route.continue();
    foreign.push(url);
    return route.abort();
  });
  return context;
}

const fixture = (app: string) => join(root, "test", "fixtures", "real-ui", `${app}.ui.evidence.json`);

/** The twin of an app's UI recording: built into `dir/<name>`, read back and listening on a free port. */
async function servedTwin(app: string, name: string): Promise<{ twin: TwinServer; base: string }> {
  const out = join(dir, name);
  await writeBundle(out, buildBundle({ evidence: [await readEvidence(fixture(app))] }).files, {
    force: false,
  });
  const twin = createTwinServer(await readBundle(out));
  return { twin, base: await twin.listen(0, "127.0.0.1") };
}

describe.each(CASES)("the $app UI scenario's recording", (c) => {
  let evidence: Evidence;

  beforeAll(async () => {
    evidence = await readEvidence(fixture(c.app));
  });

  it("was recorded from its scenario with every step passed and no credential in its bytes", async () => {
    const file = join(root, "examples", "real", `${c.app}.ui.scenario.json`);
    const scenario = parseScenario(await readFile(file, "utf8"), file);
    expect(evidence.verdict).toBe("passed");
    expect(evidence.steps.map((s) => [s.step_id, s.status])).toEqual(
      scenario.steps.map((s) => [s.step_id, "passed"]),
    );
    const bytes = await readFile(fixture(c.app), "utf8");
    for (const secret of CREDENTIALS) expect(bytes.includes(secret), secret).toBe(false);
  });

  it("followed the server-assigned id from the create into the later steps' paths", () => {
    const stepRecord = (id: string) =>
      evidence.records.find((r) => r.step_id === id && r.initiator === "request-step")!;
    const created = JSON.parse(stepRecord(c.create.step).response!.body!.text) as Record<string, unknown>;
    const id = c.create.pointer
      .split("/")
      .slice(1)
      .reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], created);
    expect(["number", "string"]).toContain(typeof id);
    const segment = encodeURIComponent(String(id)).replace(/[.]/g, "\\.");
    for (const step of c.chained)
      expect(new URL(stepRecord(step).request.url).pathname, step).toMatch(
        new RegExp(`/${segment}(\\.json)?$`),
      );
  });
});

describe.each(CASES)("the $app UI on its twin", (c) => {
  let twin: TwinServer;
  let base: string;

  beforeAll(async () => {
    ({ twin, base } = await servedTwin(c.app, c.app));
  }, 120_000);

  afterAll(async () => {
    await twin?.close();
  });

  it("loads the app's page from the twin alone: the recorded data shown and styled, no script error", async () => {
    const foreign: string[] = [];
    const context = await twinOnlyContext(base, foreign);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // Every read the page makes is answered from the recording (a write it sends may be withheld).
    const unanswered: string[] = [];
    page.on("response", (r) => {
      if (r.request().method() === "GET" && r.status() >= 400) unanswered.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${base}${c.page}`);
    for (const text of c.shows)
      await expect.poll(async () => (await drawnMatch(page, text)) !== null, PAGE_LOAD).toBe(true);
    const painted = page.locator(c.painted).first();
    const background = await painted.evaluate((el) => getComputedStyle(el).backgroundColor);
    const rgb = /^rgba?\((\d+), (\d+), (\d+)/.exec(background);
    expect(rgb, `${c.painted} has a background from the recorded stylesheet`).not.toBeNull();
    const colour = [Number(rgb![1]), Number(rgb![2]), Number(rgb![3])] as [number, number, number];
    expect(colour).not.toEqual([0, 0, 0]);
    const shot = await page.screenshot({ path: join(dir, `${c.app}.png`) });
    const element = await painted.screenshot();
    const blank = await context.newPage();
    // The element is painted in its stylesheet's colour, and so is its part of the page's own screenshot.
    expect((await readPixels(blank, element, colour)).near).toBeGreaterThan(0.5);
    expect((await readPixels(blank, shot, colour)).near).toBeGreaterThan(0.001);
    // Each recorded value is drawn: its element's screenshot holds text on its background.
    for (const text of c.shows) {
      const drawn = await (await drawnMatch(page, text))!.screenshot();
      expect((await readPixels(blank, drawn, colour)).ink, text).toBeGreaterThan(0.02);
    }
    expect(errors).toEqual([]);
    expect(unanswered).toEqual([]);
    expect(foreign).toEqual([]);
    await context.close();
  }, 60_000);
});

describe("the LoopBack explorer on its twin", () => {
  let twin: TwinServer;
  let base: string;

  beforeAll(async () => {
    ({ twin, base } = await servedTwin("loopback-todo", "loopback-todo-explorer"));
  }, 120_000);

  afterAll(async () => {
    await twin?.close();
  });

  it("creates a todo through Try it out: the explorer calls the twin, and the todo lands in the episode", async () => {
    const foreign: string[] = [];
    const context = await twinOnlyContext(base, foreign);
    const page = await context.newPage();
    await page.goto(`${base}/explorer/`);
    // The recorded OpenAPI document named the app's own server; the twin names itself.
    await expect.poll(() => page.locator(".servers select").textContent(), PAGE_LOAD).toBe(base);
    const create = page.locator(".opblock-post").filter({ has: page.locator('[data-path="/todos"]') });
    await create.locator(".opblock-summary").click();
    await create.getByRole("button", { name: "Try it out" }).click();
    await create
      .locator("textarea.body-param__text")
      .fill(JSON.stringify({ title: "Made in the twin's explorer", isComplete: false }));
    await create.getByRole("button", { name: "Execute" }).click();
    const answer = create.locator(".live-responses-table .response-col_description pre").first();
    await expect
      .poll(async () => JSON.parse((await answer.textContent()) || "null"), PAGE_LOAD)
      .toEqual({
        id: 6,
        title: "Made in the twin's explorer",
        isComplete: false,
      });
    await page.screenshot({ path: join(dir, "loopback-todo-created.png") });
    const diff = (await (await fetch(`${base}/__apptwin/episodes/default/diff`)).json()) as {
      changes: { collection: string; kind: string; after?: { title?: string } }[];
    };
    expect(diff.changes.map((x) => [x.collection, x.kind, x.after?.title])).toEqual([
      ["todos", "created", "Made in the twin's explorer"],
    ]);
    expect(foreign).toEqual([]);
    await context.close();
  }, 60_000);
});
