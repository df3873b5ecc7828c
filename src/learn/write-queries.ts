/**
 * The query a served write was recorded with. A write's query can change what it does (WordPress deletes a post for
 * good with `?force=true` and trashes it without), so the twin serves a write only with the parameters and values
 * its recorded successful writes sent, and explains any other query instead of applying the recorded effect.
 */
import type { WriteRule } from "../model/model-schema.js";
import type { EndpointGroup } from "./endpoint-index.js";
import { isRedirect } from "./redirect-location.js";

/** A recorded value holding a redaction marker (a credential sent in the query): its value is never known. */
const REDACTED = "[REDACTED";

/** The recorded query of an endpoint's successful writes, by parameter name; undefined when none sent one. */
export function writeQuery(group: EndpointGroup): WriteRule["query"] {
  const ok = group.observations.filter((o) => (o.status >= 200 && o.status < 300) || isRedirect(o.status));
  const names = [...new Set(ok.flatMap((o) => o.query.map(([k]) => k)))].sort();
  if (names.length === 0) return undefined;
  return names.map((param) => {
    const sent = ok.map((o) => o.query.filter(([k]) => k === param).map(([, v]) => v));
    const values = [...new Set(sent.flat())].sort();
    const redacted = values.some((v) => v.includes(REDACTED));
    return {
      param,
      values: redacted ? [] : values,
      ...(sent.some((v) => v.length === 0) ? { absent: true as const } : {}),
      ...(redacted ? { redacted: true as const } : {}),
    };
  });
}

/** The clause a write's explain() sentence ends with when it was recorded with a query (`""` when not). */
export function writeQueryText(query: WriteRule["query"]): string {
  if (query === undefined) return "";
  const each = query.map((q) => {
    const vals = q.redacted ? ["any value (redacted)"] : q.values.map((v) => JSON.stringify(v));
    return `${q.param}: ${[...vals, ...(q.absent ? ["absent"] : [])].join(" or ")}`;
  });
  return ` Served only with the query its recorded writes sent (${each.join("; ")}); another parameter or value is an explained miss.`;
}
