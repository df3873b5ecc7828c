/**
 * Answers the recording kept without their body: a HAR entry without
 * `content.text` (DevTools' `size: -1`), a capture that could not read it.
 * Told apart from an answer that truly had none by its own headers: a status
 * that carries a body and a Content-Length above 0, or a Content-Type
 * without a Content-Length of 0. Each becomes a model fact the twin flags
 * when it replays the answer, and a coverage warning pointing at the record.
 */
import type { UnrecordedBody } from "../model/model-schema.js";
import type { LearnWarning } from "./api-records.js";
import type { EndpointGroup } from "./endpoint-index.js";

/** Statuses that never carry a body. */
const BODILESS = new Set([204, 205, 304]);

function header(headers: { name: string; value: string }[], name: string): string | null {
  for (const h of headers) if (h.name.toLowerCase() === name) return h.value;
  return null;
}

/** True when a recorded response had a body by its headers but the recording kept none. */
export function bodyNotRecorded(
  method: string,
  response: { status: number; headers: { name: string; value: string }[]; body: unknown },
): boolean {
  if (response.body !== null || method === "HEAD") return false;
  if (
    response.status < 200 ||
    BODILESS.has(response.status) ||
    (response.status >= 300 && response.status < 400)
  )
    return false;
  const length = header(response.headers, "content-length");
  if (length !== null) return Number(length) > 0;
  return header(response.headers, "content-type") !== null;
}

/** Every answer of the groups kept without its body, one per request and status, sorted, with warnings. */
export function findUnrecordedBodies(groups: readonly EndpointGroup[]): {
  unrecorded: UnrecordedBody[];
  warnings: LearnWarning[];
} {
  const byKey = new Map<string, UnrecordedBody>();
  const warnings: LearnWarning[] = [];
  for (const g of groups) {
    for (const o of g.observations) {
      const res = o.record.response;
      if (res === null || !bodyNotRecorded(o.method, res)) continue;
      const pointer = `/records/${o.index}/response/body`;
      const key = `${o.method} ${o.pathAndQuery} ${o.status}`;
      const known = byKey.get(key);
      if (known) known.pointers.push(pointer);
      else
        byKey.set(key, {
          tool_name: g.toolName,
          method: o.method,
          path_and_query: o.pathAndQuery,
          status: o.status,
          pointers: [pointer],
        });
      warnings.push({
        code: "unrecorded_body",
        message: `${o.method} ${o.pathAndQuery} answered ${o.status} with a body the recording did not keep; the twin replays it without one and says so (x-apptwin-body: not-recorded). Re-record it with bodies kept (a HAR exported with content)`,
        pointer,
      });
    }
  }
  const unrecorded = [...byKey.values()].sort((a, b) => {
    const ka = `${a.method} ${a.path_and_query} ${a.status}`;
    const kb = `${b.method} ${b.path_and_query} ${b.status}`;
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return { unrecorded, warnings };
}
