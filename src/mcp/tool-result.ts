/**
 * How apptwin's MCP tools answer: a success carries `structuredContent` and
 * a readable text that ends with what to call next; a failure is an
 * `isError` result whose text says what was wrong and how to recover (the
 * SDK's documented pattern for domain errors), never a protocol error.
 * Text that came from the app's pages (step errors, URLs) is wrapped as
 * untrusted content, so an agent reads it as data and not as instructions.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isUserError } from "../errors/user-error.js";

/** A tool's success: the structured result and the lines of its text. */
export function toolOk(structured: Record<string, unknown>, lines: readonly string[]): CallToolResult {
  return { structuredContent: structured, content: [{ type: "text", text: lines.join("\n") }] };
}

/** A tool's failure the agent can recover from: what went wrong, then each way out. */
export function toolError(message: string, hints: readonly string[] = []): CallToolResult {
  const text = [message, ...hints.map((h) => `hint: ${h}`)].join("\n");
  return { isError: true, content: [{ type: "text", text }] };
}

/** A UserError (bad file, existing destination, missing variable) as a tool failure; anything else is rethrown. */
export function userErrorResult(error: unknown): CallToolResult {
  if (!isUserError(error)) throw error;
  return toolError(error.message, error.suggestions);
}

const OPEN = '<untrusted-content source="app">';
const CLOSE = "</untrusted-content>";

/**
 * Wraps text that came from the app (a page's text in a step error, a URL)
 * so it cannot pass for apptwin's own words: a closing tag inside it is
 * defused, so the text cannot end the wrapper early.
 */
export function untrusted(text: string): string {
  return `${OPEN}${text.replaceAll("</untrusted-content", "<\\/untrusted-content")}${CLOSE}`;
}
