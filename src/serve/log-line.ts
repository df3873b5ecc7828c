/** `apptwin serve --log`: one line per request on stderr, the way access logs read. */
import type { JournalEntry } from "./request-journal.js";

/** `POST /api/items 201 state post_items 3.2ms episode=default`, with the fault and delay when there were any. */
export function logLine(e: JournalEntry): string {
  const target = e.query === "" ? e.path : `${e.path}?${e.query}`;
  const parts = [
    e.via === "mcp" ? `${e.method} ${target} (mcp ${e.tool})` : `${e.method} ${target}`,
    e.status === null ? "---" : String(e.status),
    e.served_by,
    ...(e.rule !== null && e.rule !== e.tool ? [e.rule] : []),
    `${e.ms}ms`,
  ];
  if (e.fault !== null) parts.push(`fault=${e.fault}`);
  if (e.latency_ms > 0) parts.push(`delay=${e.latency_ms}ms`);
  if (e.episode !== "-") parts.push(`episode=${e.episode}`);
  return parts.join(" ");
}
