/**
 * Running a task's oracle as an agent would: a real MCP client over
 * Streamable HTTP, bound to one episode by the `x-apptwin-episode` header
 * on initialize, calling each tool in turn. Returns every call's outcome
 * and the oracle's answer read from them.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallOutcome } from "../tasks/grade-task.js";
import { oracleAnswer } from "../tasks/oracle-answer.js";
import type { Task } from "../tasks/task-schema.js";
import { APPTWIN_VERSION } from "../version.js";

/** What running an oracle gave: each call's outcome, the answer, and problems the oracle itself met. */
export interface OracleRun {
  calls: CallOutcome[];
  answer: string | null;
  problems: string[];
}

function text(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as { type?: string; text?: string }[]) : [];
  return content.map((c) => (c.type === "text" ? (c.text ?? "") : "")).join("\n");
}

/** Runs the oracle of `task` against the twin's MCP endpoint on `episode`. */
export async function runOracle(mcpUrl: string, episode: string, task: Task): Promise<OracleRun> {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { "x-apptwin-episode": episode } },
  });
  const client = new Client({ name: "apptwin-eval", version: APPTWIN_VERSION });
  await client.connect(transport);
  const calls: CallOutcome[] = [];
  const problems: string[] = [];
  try {
    for (const [i, call] of task.oracle.calls.entries()) {
      const result = await client.callTool({ name: call.tool, arguments: call.arguments });
      const structured = result.structuredContent as { status?: unknown; body?: unknown } | undefined;
      const status = typeof structured?.status === "number" ? structured.status : null;
      const failed = result.isError === true;
      calls.push({
        tool: call.tool,
        status,
        body: structured?.body ?? null,
        error: failed && status === null ? text(result) : null,
      });
      if (failed && task.kind !== "smoke")
        problems.push(`oracle call ${i + 1} (${call.tool}) failed: ${text(result).slice(0, 300)}`);
    }
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
  const read = oracleAnswer(
    task.oracle,
    calls.map((c) => ({ status: c.status, body: c.body })),
  );
  if (read.problem) problems.push(`the oracle's answer could not be read: ${read.problem}`);
  return { calls, answer: read.answer, problems };
}
