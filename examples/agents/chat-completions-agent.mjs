#!/usr/bin/env node
// An agent harness for `apptwin eval DIR --agent`: a language model behind any OpenAI-compatible Chat
// Completions endpoint (OpenAI, a vLLM/Ollama/llama.cpp server, a gateway) acting on one episode of the twin
// through its MCP tools.
//
//   apptwin eval ./my-bundle --agent "node examples/agents/chat-completions-agent.mjs" --repeat 3
//
// apptwin sets, per task and run: APPTWIN_TASK_PROMPT (the request), APPTWIN_MCP_URL (the episode's MCP
// endpoint) and APPTWIN_TASK (the task id, unused here: an agent should not know which task it is on).
// You set: OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_API_KEY (when the endpoint needs
// one), APPTWIN_AGENT_MODEL (default gpt-4o-mini), APPTWIN_AGENT_MAX_TURNS (default 20).
//
// The loop: offer the episode's tools as functions, run each tool call the model makes over MCP and hand it
// the result, until it answers in text; that answer, on stdout, is what apptwin grades (with the episode's
// final state). Problems go to stderr with a non-zero exit, which fails the run. The key is only sent in the
// Authorization header, never printed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const SYSTEM = [
  "You carry out a person's request in a web application, using only the tools given (each is one request",
  "to the application's API; results are {status, body}). Look things up before changing them; change only",
  "what the request asks for. When done, reply with the answer alone, in the form the request asks for; for",
  "a request that asks for no answer, reply with one short sentence saying what you did.",
].join(" ");

function fail(message) {
  process.stderr.write(`chat-completions-agent: ${message}\n`);
  process.exit(1);
}

const prompt = process.env.APPTWIN_TASK_PROMPT;
const mcpUrl = process.env.APPTWIN_MCP_URL;
if (!prompt || !mcpUrl)
  fail("APPTWIN_TASK_PROMPT and APPTWIN_MCP_URL must be set (apptwin eval --agent sets them)");
const base = (process.env.OPENAI_BASE_URL || "https://api.openai.com/v1").replace(/\/+$/, "");
const model = process.env.APPTWIN_AGENT_MODEL || "gpt-4o-mini";
const maxTurns = Number(process.env.APPTWIN_AGENT_MAX_TURNS || 20);
if (!Number.isInteger(maxTurns) || maxTurns < 1)
  fail("APPTWIN_AGENT_MAX_TURNS must be a whole number of at least 1");

/** One Chat Completions request; the reply's first choice's message. */
async function complete(messages, tools) {
  const headers = { "content-type": "application/json" };
  if (process.env.OPENAI_API_KEY) headers.authorization = `Bearer ${process.env.OPENAI_API_KEY}`;
  const res = await fetch(`${base}/chat/completions`, {
    method: "POST",
    headers,
    body: JSON.stringify({ model, messages, tools, tool_choice: "auto" }),
  });
  const text = await res.text();
  if (!res.ok) fail(`the model endpoint answered ${res.status}: ${text.slice(0, 500)}`);
  const message = JSON.parse(text).choices?.[0]?.message;
  if (!message) fail(`the model endpoint's answer has no choices[0].message: ${text.slice(0, 500)}`);
  return message;
}

/** A tool result as the model reads it: the text the twin gave (JSON of {status, body}). */
function resultText(result) {
  const parts = Array.isArray(result.content) ? result.content : [];
  const text = parts.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  return result.isError ? `Error: ${text}` : text;
}

const transport = new StreamableHTTPClientTransport(new URL(mcpUrl));
const client = new Client({ name: "chat-completions-agent", version: "1.0.0" });
await client.connect(transport);
try {
  const { tools } = await client.listTools();
  const functions = tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description ?? "", parameters: t.inputSchema },
  }));
  const messages = [
    { role: "system", content: SYSTEM },
    { role: "user", content: prompt },
  ];
  for (let turn = 0; ; turn++) {
    if (turn === maxTurns) fail(`no answer after ${maxTurns} turns`);
    const message = await complete(messages, functions);
    const calls = message.tool_calls ?? [];
    messages.push({
      role: "assistant",
      content: message.content ?? null,
      ...(calls.length ? { tool_calls: calls } : {}),
    });
    if (calls.length === 0) {
      process.stdout.write(`${(message.content ?? "").trim()}\n`);
      break;
    }
    for (const call of calls) {
      let args;
      try {
        args = JSON.parse(call.function.arguments || "{}");
      } catch {
        messages.push({ role: "tool", tool_call_id: call.id, content: "Error: the arguments are not JSON" });
        continue;
      }
      // A call the server refuses (an unknown tool, arguments against its schema) is the model's to correct.
      const content = await client
        .callTool({ name: call.function.name, arguments: args })
        .then(resultText, (error) => `Error: ${error instanceof Error ? error.message : String(error)}`);
      messages.push({ role: "tool", tool_call_id: call.id, content });
    }
  }
} finally {
  await transport.terminateSession().catch(() => undefined);
  await client.close();
}
