/**
 * `apptwin mcp` at its boundary, through real SDK clients over stdio (the
 * built CLI spawned as a coding agent would) and Streamable HTTP: capture
 * the items scenario with progress, read its coverage, export a bundle
 * byte-identical to `apptwin build` on the same evidence, recover from bad
 * input through isError hints, read resources across a restart, and never
 * let the secret reach a result, a notification or a resource.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startItemsApp } from "../scripts/fixtures/items-app/server.mjs";
import { bin, buildCli, httpClient, type McpHandle, root, stdioClient } from "./support/mcp-clients.js";

const PASSWORD = "mcp-boundary-secret-4821";
type App = Awaited<ReturnType<typeof startItemsApp>>;
let dir: string;

beforeAll(async () => {
  buildCli();
  dir = await mkdtemp(join(tmpdir(), "apptwin-mcp-"));
}, 180_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function itemsScenario(app: App): Promise<Record<string, unknown>> {
  const s = JSON.parse(await readFile(join(root, "examples", "items.scenario.json"), "utf8"));
  delete s.$schema;
  return { ...s, start_url: `${app.url}/` };
}

function env(workspace: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    APPTWIN_WORKSPACE: workspace,
    ITEMS_PASSWORD: PASSWORD,
  };
}

function text(result: unknown): string {
  return ((result as { content: { text: string }[] }).content ?? []).map((c) => c.text).join("\n");
}

/** Every byte an agent saw: results, progress, notifications, resources. */
const seen: string[] = [];

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  seen.push(JSON.stringify(result));
  return result as { isError?: boolean; structuredContent?: Record<string, unknown>; content: unknown };
}

async function filesOf(d: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const walk = async (rel: string) => {
    for (const e of await readdir(join(d, rel), { withFileTypes: true })) {
      const p = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(p);
      else out.set(p, await readFile(join(d, p)));
    }
  };
  await walk("");
  return out;
}

for (const transport of ["stdio", "http"] as const) {
  describe(`apptwin mcp over ${transport}`, () => {
    let ws: string;
    let mcp: McpHandle;
    let app: App;
    let captureId: string;

    const connect = () => (transport === "stdio" ? stdioClient(env(ws)) : httpClient(env(ws)));

    beforeAll(async () => {
      // A fresh app per transport: the scenario creates items 6 and 7.
      app = await startItemsApp({ port: 0, password: PASSWORD });
      ws = join(dir, `ws-${transport}`);
      mcp = await connect();
    });

    afterAll(async () => {
      if (mcp) seen.push(...mcp.notifications.map((n) => JSON.stringify(n)));
      await mcp?.close();
      await app?.close();
    });

    it("lists its tools, each with an output schema, and the resource templates", async () => {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        "capture_browser_scenario",
        "environment_coverage",
        "export_environment_bundle",
        "import_har",
        "serve_environment",
        "stop_environment",
      ]);
      for (const t of tools) expect(t.outputSchema, t.name).toBeDefined();
      expect(tools.find((t) => t.name === "environment_coverage")?.annotations?.readOnlyHint).toBe(true);
      const { resourceTemplates } = await mcp.client.listResourceTemplates();
      expect(resourceTemplates.map((t) => [t.uriTemplate, t.mimeType])).toEqual([
        ["apptwin://captures/{id}/evidence.json", "application/json"],
        ["apptwin://captures/{id}/coverage.json", "application/json"],
        ["apptwin://bundles/{name}/manifest.json", "application/json"],
      ]);
      const gitignore = await readFile(join(ws, ".gitignore"), "utf8");
      expect(gitignore).toContain("*");
    });

    it("captures the items scenario with one progress notification per step, then list_changed", async () => {
      const scenario = await itemsScenario(app);
      const progress: { progress: number; total?: number; message?: string }[] = [];
      const result = (await mcp.client.callTool(
        { name: "capture_browser_scenario", arguments: { scenario } },
        undefined,
        { onprogress: (p) => void progress.push(p), timeout: 120_000, resetTimeoutOnProgress: true },
      )) as { structuredContent: Record<string, unknown>; isError?: boolean };
      seen.push(JSON.stringify(result), JSON.stringify(progress));
      expect(result.isError).toBeUndefined();
      const out = result.structuredContent;
      captureId = out.capture_id as string;
      // The sign-in POST and the scenario's five writes.
      expect(out).toMatchObject({ kind: "capture", verdict: "passed", writes_sent: 6 });
      expect(captureId).toBe("items-full-1");
      const steps = (scenario.steps as unknown[]).length;
      expect(out.steps).toHaveLength(steps);
      expect(progress.map((p) => p.progress)).toEqual(Array.from({ length: steps }, (_, i) => i + 1));
      expect(progress[0]).toMatchObject({ total: steps, message: `step 1/${steps} login-page: passed` });
      expect(out.coverage).toMatchObject({ status: "complete", gaps: [] });
      expect((out.coverage as { writes_served: string[] }).writes_served.sort()).toEqual([
        "delete_items_by_id",
        "patch_items_by_id",
        "post_items",
        "put_items_by_id",
      ]);
      expect(out.next).toMatch(/^Next: call export_environment_bundle with capture_ids \["items-full-1"\]/);
      expect(text(result)).toContain("Captured items-full-1: passed");
      await expect
        .poll(() => mcp.notifications.map((n) => n.method))
        .toContain("notifications/resources/list_changed");
    });

    it("reads the coverage of the capture", async () => {
      const r = await call(mcp.client, "environment_coverage", { capture_ids: [captureId] });
      expect(r.isError).toBeUndefined();
      expect(r.structuredContent?.coverage).toMatchObject({ status: "complete", reads: { state: 2 } });
      expect(text(r)).toContain("Coverage: complete.");
    });

    it("exports a bundle byte-identical to apptwin build on the same evidence; a dry run writes nothing", async () => {
      const dest = join(dir, `bundle-${transport}`);
      const dry = await call(mcp.client, "export_environment_bundle", {
        capture_ids: [captureId],
        destination: dest,
        dry_run: true,
      });
      expect(dry.structuredContent).toMatchObject({ dry_run: true, name: "items-full" });
      await expect(stat(dest)).rejects.toThrow();
      const r = await call(mcp.client, "export_environment_bundle", {
        capture_ids: [captureId],
        destination: dest,
      });
      expect(r.isError).toBeUndefined();
      expect(r.structuredContent).toMatchObject({
        destination: dest,
        dry_run: false,
        manifest: "apptwin://bundles/items-full/manifest.json",
      });
      const cli = join(dir, `cli-bundle-${transport}`);
      const build = spawnSync(
        process.execPath,
        [bin, "build", "--evidence", join(ws, "captures", captureId, "evidence.json"), "--out", cli],
        { cwd: root, encoding: "utf8" },
      );
      expect(build.status, build.stderr).toBe(0);
      const [a, b] = [await filesOf(dest), await filesOf(cli)];
      expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
      for (const [name, bytes] of a) expect(bytes.equals(b.get(name)!), name).toBe(true);
      const manifest = await mcp.client.readResource({ uri: "apptwin://bundles/items-full/manifest.json" });
      seen.push(JSON.stringify(manifest));
      expect((manifest.contents[0] as { text: string }).text).toBe(a.get("manifest.json")!.toString("utf8"));
    });

    it("answers an existing destination, a relative path and an unknown capture id with isError and a hint", async () => {
      const exists = await call(mcp.client, "export_environment_bundle", {
        capture_ids: [captureId],
        destination: join(dir, `bundle-${transport}`),
      });
      expect(exists.isError).toBe(true);
      expect(text(exists)).toBe(
        `destination ${join(dir, `bundle-${transport}`)} already exists; export_environment_bundle never replaces anything, so nothing was written.\nhint: Choose a destination that does not exist (for example ${join(dir, `bundle-${transport}`)}-2), or ask the user whether the old bundle may be removed.`,
      );
      const relative = await call(mcp.client, "export_environment_bundle", {
        capture_ids: [captureId],
        destination: "out/bundle",
      });
      expect(relative.isError).toBe(true);
      expect(text(relative)).toBe(
        'destination must be an absolute path (got "out/bundle").\nhint: Give the full path of a folder that does not exist yet, e.g. /home/me/envs/items-env.',
      );
      const unknown = await call(mcp.client, "environment_coverage", { capture_ids: ["items-full-9"] });
      expect(unknown.isError).toBe(true);
      expect(text(unknown)).toBe(
        'capture_ids[0]: no capture "items-full-9" in the workspace.\nhint: Known capture ids: items-full-1 (passed).',
      );
      const relEvidence = await call(mcp.client, "environment_coverage", { evidence_paths: ["ev.json"] });
      expect(text(relEvidence)).toContain('evidence_paths[0] must be an absolute path (got "ev.json").');
    });

    it("refuses a scenario with every error at once, and a missing secret variable, before anything runs", async () => {
      const before = app.requests.length;
      const bad = await call(mcp.client, "capture_browser_scenario", {
        scenario: {
          schema_version: 1,
          name: "bad",
          start_url: `${app.url}/`,
          steps: [{ step_id: "x", action: "click", target: 'role=buton[name="Go"]' }],
        },
      });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toContain('scenario.json: steps[0].target names the role "buton"');
      expect(text(bad)).toContain("The scenario has 2 problem(s); nothing was run");
      const scenario = await itemsScenario(app);
      const missing = await call(mcp.client, "capture_browser_scenario", {
        scenario: { ...scenario, secrets: [{ id: "password", env: "NOT_SET_ANYWHERE" }] },
      });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toContain("NOT_SET_ANYWHERE");
      expect(text(missing)).toContain("hint: Secrets are read from the environment of apptwin mcp itself");
      expect(app.requests.length).toBe(before);
    });

    it("serves the exported bundle on loopback and stops it", async () => {
      const r = await call(mcp.client, "serve_environment", { bundle: "items-full" });
      expect(r.isError).toBeUndefined();
      const twin = r.structuredContent as { twin_id: string; url: string; mcp: string };
      expect(twin.mcp).toBe(`${twin.url}/mcp`);
      const items = await fetch(`${twin.url}/api/items`);
      expect(items.status).toBe(200);
      const unknown = await call(mcp.client, "stop_environment", { twin_id: "twin-99" });
      expect(text(unknown)).toBe(`No running twin "twin-99".\nhint: Running twins: ${twin.twin_id}.`);
      const stop = await call(mcp.client, "stop_environment", { twin_id: twin.twin_id });
      expect(stop.structuredContent).toMatchObject({ stopped: true, running: [] });
      await expect(fetch(`${twin.url}/api/items`)).rejects.toThrow();
    });

    it("keeps captures and bundles as resources across a restart; an unknown id is ResourceNotFound", async () => {
      await mcp.close();
      seen.push(...mcp.notifications.map((n) => JSON.stringify(n)));
      mcp = await connect();
      const { resources } = await mcp.client.listResources();
      expect(resources.map((r) => r.uri).sort()).toEqual([
        "apptwin://bundles/items-full/manifest.json",
        `apptwin://captures/${captureId}/coverage.json`,
        `apptwin://captures/${captureId}/evidence.json`,
      ]);
      for (const r of resources) {
        const read = await mcp.client.readResource({ uri: r.uri });
        seen.push(JSON.stringify(read));
        expect(read.contents[0]).toMatchObject({ uri: r.uri, mimeType: "application/json" });
      }
      const evidence = await mcp.client.readResource({
        uri: `apptwin://captures/${captureId}/evidence.json`,
      });
      expect(JSON.parse((evidence.contents[0] as { text: string }).text).verdict).toBe("passed");
      const error = await mcp.client
        .readResource({ uri: "apptwin://captures/nope-1/coverage.json" })
        .catch((e) => e);
      expect(error).toBeInstanceOf(McpError);
      expect(error.code).toBe(-32002);
      expect(error.message).toContain(`no capture "nope-1" in the workspace. Known: ${captureId}.`);
    });
  });
}

describe("the secret", () => {
  it("never appears in any tool result, progress or other notification, or resource the agents saw", () => {
    expect(seen.length).toBeGreaterThan(20);
    const all = seen.join("\n");
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain(Buffer.from(PASSWORD).toString("base64"));
    expect(all).not.toContain(encodeURIComponent(PASSWORD));
    expect(all).toContain("[REDACTED:");
  });
});
