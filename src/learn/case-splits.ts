/**
 * A write served for the kind of request the recording explains, and refused for the kind it does not (issue 10):
 * LoopBack's `POST /todos` answers a geocoded `remindAtGeo` for a todo sent with a `remindAtAddress`, which no rule
 * the twin has builds, while every create sent without an address is explained; withholding the whole endpoint for
 * that one kind refused every create. When one top-level request field, sent by some successful writes and not by
 * others, tells the explained writes from the unexplained ones — the writes that did not send it learn a rule on
 * their own, the writes that sent it do not — the rule is served with `withheld_sent` naming the field: a request
 * sending it is an explained 501 (`withheld_case`, serve/runtime/withheld-cases.ts) with the reason the writes that
 * sent it stayed unexplained. The rule served must be confirmed by two writes or more without the field (one write
 * alone fits constants to anything, so it would "explain" any kind). Refused (the endpoint stays withheld) when two
 * fields would each tell the kinds apart (the recording does not say which one the app reads), or when the writes
 * without the field do not learn a rule either.
 */
import type { Withheld } from "../model/model-schema.js";
import { isCredentialName } from "../util/credential-name.js";
import { escapePointerToken } from "../util/json-pointer.js";
import type { EndpointGroup } from "./endpoint-index.js";
import type { WriteObservation } from "./state-walk.js";
import { isObject } from "./value-kinds.js";
import type { LearnOptions, WriteJudgement } from "./write-rules.js";
import type { WriteTarget } from "./write-targets.js";

/** The verdicts a kind of request can be split off from: a field or an answer no rule explains. */
const SPLITTABLE = new Set<Withheld["reason"]>([
  "unexplained_field",
  "conflicting_observations",
  "read_back_disagrees",
]);

type Learn = (
  group: EndpointGroup,
  target: WriteTarget | null,
  walked: WriteObservation[],
  opts: LearnOptions,
  readRoutes: ReadonlySet<string>,
) => WriteJudgement;

/** The top-level keys of a write's JSON object body, or null when it sent none. */
function sentKeys(w: WriteObservation): Set<string> | null {
  const req = w.obs.request;
  if (req.kind !== "json" || !isObject(req.value)) return null;
  return new Set(Object.keys(req.value));
}

/**
 * The top-level request fields some successful writes sent and others did not, never a credential's name, sorted.
 * Null when some write sent no JSON object (a form, text): its fields cannot be told apart.
 */
export function partlySent(walked: WriteObservation[]): string[] | null {
  const sent = walked.map(sentKeys);
  if (sent.some((s) => s === null)) return null;
  const all = new Set(sent.flatMap((s) => [...s!]));
  return [...all]
    .filter((k) => !isCredentialName(k))
    .filter((k) => sent.some((s) => s!.has(k)) && sent.some((s) => !s!.has(k)))
    .sort();
}

/**
 * The judgement of `group` with the writes that sent one field split off, when `judged` withheld it and exactly one
 * such field explains why (see the module comment); else null (the endpoint keeps `judged`).
 */
export function splitBySentField(
  group: EndpointGroup,
  target: WriteTarget | null,
  walked: WriteObservation[],
  opts: LearnOptions,
  readRoutes: ReadonlySet<string>,
  judged: WriteJudgement,
  learn: Learn,
): WriteJudgement | null {
  if (judged.withheld === null || !SPLITTABLE.has(judged.withheld.reason)) return null;
  const keys = partlySent(walked) ?? [];
  const found: { key: string; judgement: WriteJudgement; sent: number }[] = [];
  for (const key of keys) {
    const sends = (w: WriteObservation) => sentKeys(w)!.has(key);
    const without = walked.filter((w) => !sends(w));
    const withIt = walked.filter(sends);
    // The rule served must be confirmed by two writes at least: one write alone fits a constant anything.
    if (without.length < 2) continue;
    const rest = learn(group, target, without, opts, readRoutes);
    if (rest.draft === null) continue;
    found.push({ key, judgement: rest, sent: withIt.length });
  }
  if (found.length !== 1) return null;
  const [{ key, judgement, sent }] = found as [(typeof found)[number]];
  if (judgement.draft === null) return null;
  return {
    draft: {
      ...judgement.draft,
      withheld_sent: [
        {
          pointer: `/${escapePointerToken(key)}`,
          reason: judged.withheld.reason,
          hint: judged.withheld.hint,
          recorded: sent,
        },
      ],
    },
    withheld: null,
    warnings: judgement.warnings,
  };
}
