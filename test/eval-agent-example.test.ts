/**
 * The agent harness users run, examples/agents/chat-completions-agent.mjs, under `apptwin eval --agent`: a
 * real process with a real MCP client on its episode, talking to an OpenAI-compatible Chat Completions
 * endpoint. No language model runs here, so the endpoint is a loopback server playing a scripted model: it
 * reads the request the harness sent (the prompt, the tools offered, the tool results so far) and asks for
 * the task's oracle calls one turn at a time, then answers with what it reads from the tool results the
 * harness handed back (never from the answer key). Every items task passing proves the harness's loop: the
 * tools offered as functions, each call run on the episode, its result passed on, the final text on stdout.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildBundle } from "../src/bundle/build-bundle.js";
import { writeBundle } from "../src/bundle/bundle-io.js";
import Eval from "../src/commands/eval.js";
import type { EvalReport } from "../src/eval/eval-report.js";
import { readEvidence } from "../src/evidence/evidence-io.js";
import { oracleAnswer } from "../src/tasks/oracle-answer.js";
import type { Task, TasksFile } from "../src/tasks/task-schema.js";
import { runCommand } from "./fixtures/bundle/run-command.js";

const AGENT = join(import.meta.dirname, "..", "examples", "agents", "chat-completions-agent.mjs");
const KEY = "sk-test-4f1c9a7e2b";

interface ChatMessage {
  role: string;
  content: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}
interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools: { type: string; function: { name: string; parameters: Record<string, unknown> } }[];
}

let dir: string;
let bundleDir: string;
let tasks: TasksFile;
let server: Server;
let baseUrl: string;
const requests: { authorization: string | undefined; body: ChatRequest }[] = [];
let refuse = false;

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** The scripted model: the oracle's next call, or, once every call has a result, the answer read from them. */
function scriptedModel(body: ChatRequest): ChatMessage {
  const prompt = body.messages.find((m) => m.role === "user")!.content;
  const task = tasks.tasks.find((t) => t.prompt === prompt) as Task;
  const results = body.messages.filter((m) => m.role === "tool").map((m) => JSON.parse(m.content!));
  const next = task.oracle.calls[results.length];
  if (next)
    return {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: `call_${results.length}`,
          function: { name: next.tool, arguments: JSON.stringify(next.arguments) },
        },
      ],
    };
  const read = oracleAnswer(task.oracle, results);
  return { role: "assistant", content: read.answer ?? "Done." };
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  if (req.method !== "POST" || req.url !== "/v1/chat/completions") return reply(res, 404, { error: "no" });
  const body = JSON.parse(raw) as ChatRequest;
  requests.push({ authorization: req.headers.authorization, body });
  if (refuse) return reply(res, 429, { error: { message: "Rate limit reached for requests" } });
  reply(res, 200, { choices: [{ index: 0, message: scriptedModel(body), finish_reason: "stop" }] });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "apptwin-eval-agent-example-"));
  bundleDir = join(dir, "items");
  const evidence = await readEvidence(
    join(import.meta.dirname, "fixtures", "evidence", "items.capture.json"),
  );
  await writeBundle(bundleDir, buildBundle({ evidence: [evidence] }).files, { force: false });
  tasks = JSON.parse(await readFile(join(bundleDir, "tasks.json"), "utf8")) as TasksFile;
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  Object.assign(process.env, {
    OPENAI_BASE_URL: baseUrl,
    OPENAI_API_KEY: KEY,
    APPTWIN_AGENT_MODEL: "scripted",
  });
});

afterEach(() => {
  requests.length = 0;
  refuse = false;
});

afterAll(async () => {
  for (const k of ["OPENAI_BASE_URL", "OPENAI_API_KEY", "APPTWIN_AGENT_MODEL"]) delete process.env[k];
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("examples/agents/chat-completions-agent.mjs", () => {
  it("passes every items task when its model calls the right tools: the loop offers, runs and passes on each call", async () => {
    const { stdout, code } = await runCommand(Eval, [
      bundleDir,
      "--agent",
      `node ${JSON.stringify(AGENT)}`,
      "--concurrency",
      "2",
      "--json",
    ]);
    const report = JSON.parse(stdout) as EvalReport;
    expect(report.runs.filter((r) => !r.passed).map((r) => [r.task, r.reasons, r.agent])).toEqual([]);
    expect(report.runs.map((r) => r.task)).toEqual(
      tasks.tasks.filter((t) => t.kind !== "smoke").map((t) => t.id),
    );
    expect(code).toBe(0);
    // A retrieval answer is what the model said last, read from the results the harness handed back.
    const count = report.runs.find((r) => r.kind === "count")!;
    const task = tasks.tasks.find((t) => t.id === count.task)!;
    expect(count.answer).toBe(String((task.answer as { value: number }).value));

    const first = requests.find((r) => r.body.messages.length === 2)!;
    expect(first.authorization).toBe(`Bearer ${KEY}`);
    expect(first.body.model).toBe("scripted");
    expect(first.body.messages[0]!.role).toBe("system");
    // Every tool of the bundle is offered as a function with its input schema.
    const tools = JSON.parse(await readFile(join(bundleDir, "tools.json"), "utf8")) as {
      tools: { name: string; input_schema: Record<string, unknown> }[];
    };
    expect(first.body.tools.map((t) => t.function.name).sort()).toEqual(
      tools.tools.map((t) => t.name).sort(),
    );
    for (const t of first.body.tools) {
      expect(t.type).toBe("function");
      expect(t.function.parameters).toEqual(
        tools.tools.find((x) => x.name === t.function.name)!.input_schema,
      );
    }
    // One request per oracle call plus the final one, per task.
    const calls = tasks.tasks
      .filter((t) => t.kind !== "smoke")
      .reduce((n, t) => n + t.oracle.calls.length + 1, 0);
    expect(requests.length).toBe(calls);
  }, 180_000);

  it("a model endpoint that refuses fails the run with its message, and never prints the key", async () => {
    refuse = true;
    const { stdout } = await runCommand(Eval, [
      bundleDir,
      "--agent",
      `node ${JSON.stringify(AGENT)}`,
      "--task",
      "lookup.items.done",
      "--json",
    ]);
    const report = JSON.parse(stdout) as EvalReport;
    const run = report.runs[0]!;
    expect(run.passed).toBe(false);
    expect(run.reasons).toContain("the agent exited with code 1");
    expect(JSON.stringify(run.agent)).toContain("the model endpoint answered 429");
    expect(JSON.stringify(run.agent)).toContain("Rate limit reached for requests");
    expect(stdout).not.toContain(KEY);
  }, 60_000);
});
