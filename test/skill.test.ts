/**
 * The skill an agent follows: its frontmatter fits every client that reads
 * it (Codex caps the description at 500 characters), its worked scenarios
 * are valid scenarios, and it names exactly the tools, resources and prompts
 * apptwin mcp offers (read through a real in-memory SDK client), so an agent
 * following it never calls something that does not exist.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApptwinMcpServer } from "../src/mcp/apptwin-mcp-server.js";
import { McpContext } from "../src/mcp/mcp-context.js";
import { Workspace } from "../src/mcp/workspace.js";
import { validateScenarioText } from "../src/scenario/parse-scenario.js";

const skillDir = join(import.meta.dirname, "..", "docs", "skill");
const skill = await readFile(join(skillDir, "SKILL.md"), "utf8");
const reference = await readFile(join(skillDir, "references", "environments.md"), "utf8");

let dir: string;
let client: Client;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "apptwin-skill-"));
  const ctx = new McpContext(new Workspace(dir), {});
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createApptwinMcpServer(ctx).connect(b);
  client = new Client({ name: "skill-test", version: "1.0.0" });
  await client.connect(a);
});
afterAll(async () => {
  await client?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("docs/skill", () => {
  it("has frontmatter every client reads: a name and a description of at most 500 characters", () => {
    const m = /^---\nname: ([a-z0-9-]+)\ndescription: (.+)\n---\n/.exec(skill);
    expect(m?.[1]).toBe("apptwin");
    expect(m![2]!.length).toBeLessThanOrEqual(500);
  });

  for (const name of ["items", "loopback-todo"]) {
    it(`worked scenario ${name} is valid, with a timeout on every step`, async () => {
      const text = await readFile(join(skillDir, "examples", `${name}.scenario.json`), "utf8");
      const v = validateScenarioText(text, `${name}.scenario.json`);
      expect(v.issues).toEqual([]);
      expect(v.scenario!.steps.every((s) => s.timeout_ms !== undefined)).toBe(true);
      // Every change of a created entity takes its id from the create's answer, as the skill says.
      const raw = JSON.parse(text) as { steps: { step_id: string; method?: string; params?: unknown }[] };
      const posts = new Set(raw.steps.filter((s) => s.method === "POST").map((s) => s.step_id));
      const changes = raw.steps.filter(
        (s) => s.method === "PUT" || s.method === "PATCH" || s.method === "DELETE",
      );
      expect(changes.length).toBeGreaterThan(0);
      for (const c of changes)
        expect(posts.has((c.params as { id?: { response?: string } })?.id?.response ?? ""), c.step_id).toBe(
          true,
        );
    });
  }

  it("names exactly the tools, resource templates and prompts apptwin mcp offers", async () => {
    const { tools } = await client.listTools();
    const { resourceTemplates } = await client.listResourceTemplates();
    const { prompts } = await client.listPrompts();
    for (const t of tools) expect(skill, t.name).toContain(`\`${t.name}\``);
    for (const p of prompts) expect(skill, p.name).toContain(`\`${p.name}\``);
    expect(skill).toContain("`apptwin://captures/{id}/evidence.json`");
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain("apptwin://bundles/{name}/manifest.json");
    const named = [...`${skill}\n${reference}`.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)].map((m) => m[1]!);
    const args = new Set(
      tools.flatMap((t) => [
        ...Object.keys(t.inputSchema.properties ?? {}),
        ...Object.keys(t.outputSchema?.properties ?? {}),
      ]),
    );
    const toolish = named.filter(
      (n) => /^(capture|import|environment|export|serve|stop)_/.test(n) && !args.has(n),
    );
    expect(new Set(toolish)).toEqual(new Set(tools.map((t) => t.name)));
  });

  it("covers every withheld reason the coverage can give", async () => {
    const { WithheldReasonSchema } = await import("../src/model/model-schema.js");
    for (const reason of WithheldReasonSchema.options) expect(reference, reason).toContain(`\`${reason}\``);
  });

  it("the build-environment prompt ends with what to call next", async () => {
    const p = await client.getPrompt({
      name: "build-environment",
      arguments: {
        url: "http://127.0.0.1:4010/",
        entities: "items",
        secret_env: "ITEMS_PASSWORD",
        output_folder: "/tmp/items-env",
      },
    });
    const text = (p.messages[0]!.content as { text: string }).text;
    expect(text).toContain('{ "id": "…", "env": "ITEMS_PASSWORD" }');
    expect(text).toContain("ASK THE USER before any scenario that writes");
    expect(text.split("\n").at(-1)).toBe(
      "Next: map the app, draft the scenario, show it to the user, then call capture_browser_scenario.",
    );
    const after = await client.getPrompt({ name: "after-capture", arguments: { capture_id: "nope-1" } });
    expect((after.messages[0]!.content as { text: string }).text).toContain(
      "holds no captures yet: call capture_browser_scenario or import_har first.",
    );
  });
});
