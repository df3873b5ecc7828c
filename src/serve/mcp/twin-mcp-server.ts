/**
 * The twin's MCP server: one tool per bundle tool, answered from one
 * episode. Built on the SDK's low-level `Server` so each tool's JSON Schema
 * input from tools.json is offered exactly as written (no round trip through
 * zod that could drop formats, enums or descriptions). Side-effect free: it
 * opens nothing until a transport is connected.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { APPTWIN_VERSION } from "../../version.js";
import { type EpisodeHandle, isMissing, type MissingEpisode } from "../episode-store.js";
import { type DoubleAnswer, type DoubleOutcome, TestDouble } from "../test-double.js";
import type { TwinBundle } from "../twin-bundle.js";
import { toolRequest } from "./tool-request.js";

/** The body of an answer as a tool result carries it: JSON as is, text as a string. */
function resultBody(answer: DoubleAnswer): unknown {
  const b = answer.body;
  if (b === null) return null;
  return b.kind === "json" ? b.value : b.text;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** Turns a twin answer into a tool result; a miss or a withheld endpoint is an error result with the hint. */
export function toolResult(answer: DoubleAnswer): CallToolResult {
  const structured = { status: answer.status, body: resultBody(answer) };
  const text = JSON.stringify(structured);
  const failed =
    answer.served_by === "miss" || answer.served_by === "withheld" || answer.served_by === "refused";
  return {
    content: [{ type: "text", text }],
    structuredContent: structured,
    ...(failed ? { isError: true } : {}),
  };
}

/** The bytes of an answer's body as the HTTP twin would send them. */
function bodyText(answer: DoubleAnswer): string {
  const b = answer.body;
  if (b === null) return "";
  if (b.kind === "json") return JSON.stringify(b.value);
  return b.kind === "text" ? b.text : Buffer.from(b.text, "base64").toString("latin1");
}

/**
 * A tool result for what the double decided: the answer, or, for a dropped connection or a cut-off answer, an
 * error result that reads like the failure an HTTP client would meet, so an agent's recovery is what is tested.
 */
export function outcomeResult(outcome: DoubleOutcome): CallToolResult {
  if (outcome.kind === "answer") return toolResult(outcome.answer);
  if (outcome.kind === "drop") {
    return errorResult(
      "The app closed the connection before answering (socket hang up). Nothing says whether the request took effect; the call may be retried.",
    );
  }
  const text = bodyText(outcome.answer);
  const kept = text.slice(0, Math.floor(text.length * outcome.keep));
  return errorResult(
    `The app's answer (status ${outcome.answer.status}) was cut off after ${kept.length} of ${text.length} bytes (premature close): ${kept}`,
  );
}

/** The episode a server's tool calls act on: a handle, or a way to find it at each call (a shared store). */
export type EpisodeSource = EpisodeHandle | (() => Promise<EpisodeHandle | MissingEpisode>);

/**
 * Creates an MCP server offering the bundle's tools against one episode; calls go through `double` (the HTTP
 * twin's, for journals and faults shared with HTTP), else through a double of their own without faults.
 */
export function createTwinMcpServer(bundle: TwinBundle, episode: EpisodeSource, double?: TestDouble): Server {
  const through = double ?? new TestDouble(bundle.model);
  const server = new Server(
    { name: `apptwin-${bundle.manifest.name}`, version: APPTWIN_VERSION },
    {
      capabilities: { tools: {} },
      instructions: `Tools of the "${bundle.manifest.name}" twin. Each call acts on your own episode; results are {status, body} as the app would answer.`,
    },
  );
  const byName = new Map(bundle.tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: bundle.tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.input_schema as { type: "object" },
      outputSchema: t.output_schema as { type: "object" },
      annotations: { title: t.title, ...t.annotations },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      return errorResult(
        `Unknown tool "${request.params.name}". The tools are: ${[...byName.keys()].join(", ")}.`,
      );
    }
    const built = toolRequest(tool, request.params.arguments ?? {});
    if ("problems" in built) return errorResult(built.problems.join("\n"));
    const found = typeof episode === "function" ? await episode() : episode;
    // The session's episode was evicted (or expired) since the session began: say so, as the twin would.
    if (isMissing(found)) return errorResult(JSON.stringify(found.body));
    const outcome = await through.serve(found, built.request, { via: "mcp", tool: tool.name });
    return outcomeResult(outcome);
  });
  return server;
}
