/**
 * Writes whose query picks what they do (issue 10 item 3): WordPress trashes a comment a `DELETE /comments/4` asks it
 * to (the read after it still shows the comment, `status: "trash"`) and deletes it for good under `?force=true` (the
 * read after it answers 404). Judged together, one read-back disagrees and the whole route is withheld. Judged apart,
 * per the query each recorded write sent (its parameters and values, in a canonical order), a variant whose every
 * read-back confirms one rule can be served, guarded by its own query (`WriteRule.query`, write-queries.ts): a
 * request with another query, the withheld variant's included, is the explained miss it already was. Only when
 * exactly one variant is served (the model holds one rule per route), and only after the whole route was refused
 * because a read-back disagreed.
 */
import type { EndpointGroup, Observation } from "./endpoint-index.js";
import type { WriteObservation } from "./state-walk.js";
import { type LearnOptions, learnWrite, type WriteJudgement } from "./write-rules.js";
import type { WriteTarget } from "./write-targets.js";

/** The canonical text of an observation's query: its pairs sorted. */
export function querySignature(o: Observation): string {
  return JSON.stringify(
    [...o.query].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0)),
  );
}

/** The route's observations split by the query each sent, as groups of their own (in signature order); null for one. */
export function queryVariants(group: EndpointGroup): EndpointGroup[] | null {
  const by = new Map<string, Observation[]>();
  for (const o of group.observations) {
    const sig = querySignature(o);
    const list = by.get(sig);
    if (list) list.push(o);
    else by.set(sig, [o]);
  }
  if (by.size < 2) return null;
  return [...by.keys()].sort().map((sig) => ({ ...group, observations: by.get(sig)! }));
}

/** The record indexes of the route's successful observations a variant leaves out (what the twin does not serve). */
export function leftOut(group: EndpointGroup, variant: EndpointGroup): number[] {
  const kept = new Set(variant.observations);
  return group.observations
    .filter((o) => !kept.has(o) && o.status >= 200 && o.status < 400)
    .map((o) => o.index)
    .sort((a, b) => a - b);
}

/**
 * The one variant of a route (its observations of one query) whose own observations teach a rule, with that
 * judgement; null when the route sent one query only, or no variant or more than one teaches one.
 */
export function servedVariant(
  group: EndpointGroup,
  target: WriteTarget | null,
  walked: WriteObservation[],
  opts: LearnOptions,
  readRoutes: ReadonlySet<string>,
): { group: EndpointGroup; judgement: WriteJudgement } | null {
  const variants = queryVariants(group);
  if (!variants) return null;
  const served = variants.flatMap((v) => {
    const own = new Set(v.observations);
    const j = learnWrite(
      v,
      target,
      walked.filter((w) => own.has(w.obs)),
      opts,
      readRoutes,
    );
    return j.draft ? [{ group: v, judgement: j }] : [];
  });
  return served.length === 1 ? served[0]! : null;
}

/** The sentence a variant's rule ends with: what it leaves out, and why another query is an explained miss. */
export function variantText(group: EndpointGroup, variant: EndpointGroup, guarded: boolean): string {
  const others = leftOut(group, variant);
  if (others.length === 0) return "";
  return ` ${guarded ? "" : "Served only without a query. "}The recorded ${group.method} ${group.template} with another query (${others.map((i) => `records[${i}]`).join(", ")}) did another thing its read-back showed (read together, their read-backs disagree), and the twin holds one rule per route, so that query is an explained miss.`;
}
