/**
 * The skill's workflow followed step by step through apptwin mcp, as a
 * coding agent would: the build-environment prompt, the skill's worked
 * items scenario captured on a disposable items app, the coverage read and
 * its gaps decided, a dry run then the export, apptwin eval passing on it,
 * the twin served, and the
 * hand-off written from what the tools and resources said. Everything goes
 * through a real SDK client over stdio (the built CLI, spawned).
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startItemsApp } from "../scripts/fixtures/items-app/server.mjs";
import { bin, buildCli, type McpHandle, root, stdioClient } from "./support/mcp-clients.js";

const PASSWORD = "skill-workflow-secret-9931";
let dir: string;
let app: Awaited<ReturnType<typeof startItemsApp>>;
let mcp: McpHandle;

beforeAll(async () => {
  buildCli();
  dir = await mkdtemp(join(tmpdir(), "apptwin-skill-flow-"));
  app = await startItemsApp({ port: 0, password: PASSWORD });
  mcp = await stdioClient({
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    APPTWIN_WORKSPACE: join(dir, "ws"),
    ITEMS_PASSWORD: PASSWORD,
  });
}, 180_000);

afterAll(async () => {
  await mcp?.close();
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

type Result = { isError?: boolean; structuredContent: Record<string, unknown>; content: { text: string }[] };

async function call(name: string, args: Record<string, unknown>): Promise<Result> {
  const r = (await mcp.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as Result;
  expect(r.isError, `${name}: ${r.content?.[0]?.text}`).toBeUndefined();
  return r;
}

describe("following the skill through apptwin mcp", () => {
  it("goes from the items app to a served twin and an honest hand-off", { timeout: 180_000 }, async () => {
    const destination = join(dir, "items-env");
    // 1. The user's request becomes the build-environment prompt.
    const prompt = await mcp.client.getPrompt({
      name: "build-environment",
      arguments: {
        url: `${app.url}/`,
        entities: "items",
        secret_env: "ITEMS_PASSWORD",
        output_folder: destination,
      },
    });
    const plan = (prompt.messages[0]!.content as { text: string }).text;
    expect(plan).toContain("Write ONE whole scenario");

    // 2–5. One whole scenario (the skill's worked one), pointed at this disposable instance.
    const scenario = JSON.parse(
      await readFile(join(root, "docs", "skill", "examples", "items.scenario.json"), "utf8"),
    );
    scenario.start_url = `${app.url}/`;
    expect(scenario.secrets).toEqual([{ id: "password", env: "ITEMS_PASSWORD" }]);

    // 6. Capture.
    const capture = await call("capture_browser_scenario", { scenario });
    const id = capture.structuredContent.capture_id as string;
    expect(capture.structuredContent.verdict).toBe("passed");

    // 7. Coverage: decide each gap by its action; record again only what one recording can close.
    const coverage = await call("environment_coverage", { capture_ids: [id] });
    const gaps = (coverage.structuredContent.coverage as { gaps: { action: string }[] }).gaps;
    expect(gaps.filter((g) => g.action === "record")).toEqual([]);
    const next = await mcp.client.getPrompt({ name: "after-coverage", arguments: { capture_ids: id } });
    expect((next.messages[0]!.content as { text: string }).text).toContain(
      `Next: call export_environment_bundle with capture_ids ["${id}"]`,
    );

    // 8. Export: a dry run first, then for real.
    const dry = await call("export_environment_bundle", { capture_ids: [id], destination, dry_run: true });
    expect(dry.structuredContent.dry_run).toBe(true);
    const exported = await call("export_environment_bundle", { capture_ids: [id], destination });
    expect(exported.structuredContent.coverage).toMatchObject({ status: "complete", withheld: 0 });

    // 9. Check the bundle with apptwin eval (every task's oracle on a fresh episode), then serve it:
    // the twin answers the app's own paths with the app gone.
    const evaluated = spawnSync(process.execPath, [bin, "eval", destination, "--json"], {
      cwd: root,
      encoding: "utf8",
    });
    expect(evaluated.status, evaluated.stderr).toBe(0);
    const report = JSON.parse(evaluated.stdout) as {
      passed: boolean;
      runs: { kind: string; passed: boolean }[];
    };
    expect(report.passed).toBe(true);
    expect(report.runs.length).toBeGreaterThan(2);
    expect(new Set(report.runs.map((r) => r.kind)).size).toBeGreaterThan(1);
    await app.close();
    const served = await call("serve_environment", { bundle: destination });
    const { url, twin_id } = served.structuredContent as { url: string; twin_id: string };
    // A write carries what the recorded writes carried (any value: the twin never checks one); without any, the
    // twin says it never saw the app's answer to such a write (501 unauthenticated_unrecorded).
    const post = (headers: Record<string, string>) =>
      fetch(`${url}/api/items`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ title: "Eggs" }),
      });
    const anonymous = await post({});
    const carried = ((await anonymous.json()) as { carried?: string[] }).carried ?? [];
    expect([anonymous.status, carried.length > 0]).toEqual([501, true]);
    const [place, name] = carried[0]!.split(/:(.*)/s) as [string, string];
    const created = await post(place === "cookie" ? { cookie: `${name}=any` } : { [name]: "any" });
    expect(created.status).toBe(201);
    const read = await fetch(`${url}/api/items/${((await created.json()) as { id: number }).id}`);
    expect(await read.json()).toMatchObject({ title: "Eggs" });

    // 10. The hand-off, from the coverage resource: what is served and withheld, and why.
    const resource = await mcp.client.readResource({ uri: `apptwin://captures/${id}/coverage.json` });
    const coverageReport = JSON.parse((resource.contents[0] as { text: string }).text);
    const handOff = [
      `Environment: ${destination}, from capture ${id} of ${scenario.start_url}.`,
      `Served from state: ${coverageReport.collections.map((c: { name: string; entities: number }) => `${c.name} (${c.entities})`).join(", ")}.`,
      `Writes served: ${coverageReport.writes.served.map((w: { tool_name: string }) => w.tool_name).join(", ")}.`,
      `Withheld: ${coverageReport.writes.withheld.length === 0 ? "nothing" : coverageReport.writes.withheld.length}.`,
      `Checked: apptwin eval → ${report.runs.length} of ${report.runs.length} oracles passed.`,
      `Twin served at ${url}.`,
    ].join("\n");
    expect(handOff).toContain("Served from state: items (6).");
    expect(handOff).toContain("Withheld: nothing.");
    expect(handOff).not.toContain(PASSWORD);
    await call("stop_environment", { twin_id });
  });
});
