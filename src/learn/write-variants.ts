/**
 * A route whose query picks what it does, each recorded query its own rule: WordPress trashes a comment a
 * `DELETE /comments/4` asks it to (the read after it still shows it, `status: "trash"`: an update, see
 * `softDeletes` in write-rules.ts) and deletes it for good under `?force=true` (the read after it answers 404).
 * Judged together the read-backs disagree; judged apart (query-variants.ts splits the observations by the query each
 * sent), every variant whose own read-backs confirm a rule is served, guarded by its own query: the first as the
 * route's rule, the others as its `query_variants`. A request with a query no recorded write sent, or one of a
 * variant no rule was confirmed for, stays the explained miss it was.
 */
import type { WriteRule } from "../model/model-schema.js";
import type { EndpointGroup } from "./endpoint-index.js";
import { leftOut, queryVariants } from "./query-variants.js";
import type { WriteObservation } from "./state-walk.js";
import { type LearnOptions, learnWrite, type WriteJudgement } from "./write-rules.js";
import type { WriteTarget } from "./write-targets.js";

/** A variant of a route (its observations of one query) and the judgement its own observations teach. */
export interface ServedVariant {
  group: EndpointGroup;
  judgement: WriteJudgement;
}

/**
 * Every variant of a route whose own observations teach a rule, in signature order (the route sent no query first);
 * empty when the route sent one query only, or no variant teaches one.
 */
export function servedVariants(
  group: EndpointGroup,
  target: WriteTarget | null,
  walked: WriteObservation[],
  opts: LearnOptions,
  readRoutes: ReadonlySet<string>,
): ServedVariant[] {
  const variants = queryVariants(group) ?? [];
  return variants.flatMap((v) => {
    const own = new Set(v.observations);
    const judgement = learnWrite(
      v,
      target,
      walked.filter((w) => own.has(w.obs)),
      opts,
      readRoutes,
    );
    return judgement.draft ? [{ group: v, judgement }] : [];
  });
}

/**
 * The route's rule with the other served variants' rules as its `query_variants`, and an explain() saying each
 * query's rule (`rules`, the route's own first, each explained alone) and which recorded writes no rule serves.
 */
export function withQueryVariants(
  group: EndpointGroup,
  variants: readonly EndpointGroup[],
  rules: readonly WriteRule[],
): WriteRule {
  const [first, ...rest] = rules;
  const served = new Set(variants.flatMap((v) => v.observations));
  const others = leftOut(group, { ...group, observations: [...served] });
  const unserved =
    others.length === 0
      ? ""
      : ` The recorded ${group.method} ${group.template} with another query (${others.map((i) => `records[${i}]`).join(", ")}) did another thing no rule confirmed, so that query is an explained miss.`;
  // A variant no recorded write of which sent a query serves only a request without one.
  const each = rules.map((r) =>
    r.query === undefined ? `${r.explain} Served only without a query.` : r.explain,
  );
  const explain = `${each.join(" With another query: ")}${unserved}`;
  return { ...first!, query_variants: rest, explain };
}
