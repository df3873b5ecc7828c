/**
 * Writes with no visible effect (a page-tracking ping, a "mark seen", a
 * heartbeat): a write on no collection every success of which answered
 * alike, around which the recording repeated a read that answered alike
 * before and after it, while no read changed across it and no read of its own
 * path came only after it. The twin answers it as recorded and changes
 * nothing: `acknowledged`, a tier of its own, never counted as a proven write.
 * A read that did change across it (with no other write in between) shows an
 * effect the twin cannot apply, and a write no read was repeated around has
 * no evidence either way: both stay withheld.
 */
import type { Acknowledged } from "../model/model-schema.js";
import type { EndpointGroup, Observation } from "./endpoint-index.js";
import { canned } from "./read-model.js";
import { isRedirect } from "./redirect-location.js";
import { isWriteMethod } from "./write-targets.js";

const success = (o: Observation) => (o.status >= 200 && o.status < 300) || isRedirect(o.status);

/** The text of an answer as the twin compares answers: status, content type and body. */
function answerKey(o: Observation): string {
  const text = o.record.response?.body?.text ?? "";
  return JSON.stringify([o.status, o.contentType, o.response.kind === "none" ? "" : text]);
}

/** True when a read's path is the write's, lies under it, or is its parent: a read that would show its effect. */
function related(write: Observation, read: Observation): boolean {
  const w = write.segments.join("/");
  const r = read.segments.join("/");
  const parent = write.segments.slice(0, -1).join("/");
  return r === w || r.startsWith(`${w}/`) || r === parent;
}

/** What the reads around a write endpoint's successes show: the first that changed, and those that answered alike. */
export interface ReadsAcross {
  /** The first read showing an effect, or null: it answered otherwise than before the write, or it read the write's own path (or one under it, or its parent) only after it. */
  changed: Observation | null;
  /** `GET /path?query` of every read answered alike before and after a success, sorted. */
  unchanged: string[];
}

/**
 * The reads around each success of `group` in `ordered` (time order): for each, the last answer of every read before
 * it back to the previous write of another endpoint, compared with the reads after it up to the next such write.
 */
export function readsAcross(group: EndpointGroup, ordered: Observation[]): ReadsAcross {
  const at = new Map(ordered.map((o, i) => [o, i]));
  const unchanged = new Set<string>();
  for (const w of group.observations.filter(success)) {
    const i = at.get(w);
    if (i === undefined) continue;
    const before = new Map<string, Observation>();
    for (let j = i - 1; j >= 0; j--) {
      const o = ordered[j]!;
      if (isWriteMethod(o.method)) {
        if (o.endpoint === group) continue;
        break;
      }
      if (!before.has(o.pathAndQuery)) before.set(o.pathAndQuery, o);
    }
    for (let j = i + 1; j < ordered.length; j++) {
      const o = ordered[j]!;
      if (isWriteMethod(o.method)) {
        if (o.endpoint === group) continue;
        break;
      }
      const b = before.get(o.pathAndQuery);
      if (b ? answerKey(b) !== answerKey(o) : related(w, o)) return { changed: o, unchanged: [] };
      if (b) unchanged.add(`${o.method} ${o.pathAndQuery}`);
    }
  }
  return { changed: null, unchanged: [...unchanged].sort() };
}

/**
 * The acknowledgement of a write on no collection, or why there is none: `changed` names the route of the read
 * (`GET /api/settings`, as the model names it) that answered otherwise across it, an effect the twin cannot apply; null when its answers
 * differ (or are binary) or no read was repeated around it (nothing shows it changed nothing either).
 */
export function acknowledge(
  group: EndpointGroup,
  ordered: Observation[],
): { acknowledged: Acknowledged } | { changed: string | null } {
  const none = { changed: null };
  const ok = group.observations.filter(success);
  // Only 2xx answers: a redirect's answer is its Location, which a recorded body does not carry.
  if (ok.length === 0 || ok.some((o) => isRedirect(o.status))) return none;
  if (ok.length !== group.observations.filter((o) => o.status < 400).length) return none;
  const across = readsAcross(group, ordered);
  if (across.changed) return { changed: `${across.changed.method} ${across.changed.endpoint.template}` };
  if (new Set(ok.map(answerKey)).size > 1) return none;
  if (ok[0]!.record.response?.body?.encoding === "base64") return none;
  if (across.unchanged.length === 0) return none;
  const answer = canned(ok[0]!);
  const n = ok.length;
  const reads = across.unchanged;
  const shown =
    reads.length > 3 ? `${reads.slice(0, 3).join(", ")} and ${reads.length - 3} more` : reads.join(", ");
  const acknowledged: Acknowledged = {
    tool_name: group.toolName,
    ...answer,
    empty: ok[0]!.response.kind === "none",
    explain: `${group.method} ${group.template} is acknowledged: the twin answers ${answer.status} as recorded and changes nothing, since every read repeated around it (${shown}) answered alike before and after the ${n} recorded; its effect, if any, is unproven.`,
  };
  return { acknowledged };
}
