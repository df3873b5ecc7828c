/**
 * The top-level pure entry of learning: Evidence in, the Model, the seed
 * state and the facts coverage reports on out. No I/O, no clock, no
 * randomness: the same evidence always gives the same model.
 */
import type { Evidence } from "../evidence/evidence-schema.js";
import {
  MODEL_SCHEMA_VERSION,
  type Model,
  type SeedState,
  type Withheld,
  type WriteRule,
} from "../model/model-schema.js";
import { type LearnWarning, selectApiRecords } from "./api-records.js";
import { type FoundCollection, findCollections } from "./collections.js";
import { type EndpointGroup, indexEndpoints, type Observation } from "./endpoint-index.js";
import { endpointModel } from "./endpoint-model.js";
import { explainWrite } from "./explain.js";
import { buildReplays, collectionModel } from "./read-model.js";
import { type ServedWrite, widenRequestSchemas, widenSettable } from "./settable-fields.js";
import { isSignIn, type SignInKey, signedIn, signInKey, signInMatch } from "./sign-in.js";
import { type WriteObservation, walkState } from "./state-walk.js";
import { learnValidations } from "./validation-rules.js";
import { type LearnOptions, learnWrite } from "./write-rules.js";
import { findWriteTargets, isWriteMethod } from "./write-targets.js";

/** What learning found: the model, the seed, and the counts and warnings coverage reports. */
export interface Learned {
  model: Model;
  seed: SeedState;
  counts: { records: number; api_records: number; assets: number; ignored: number };
  warnings: LearnWarning[];
}

/** Default learning options. */
export const DEFAULT_LEARN_OPTIONS: LearnOptions = { clockWindowMs: 120_000 };

/** The episode clock's step per write, in ms. */
export const CLOCK_STEP_MS = 1000;

function timeOrder(obs: Observation[]): Observation[] {
  if (!obs.every((o) => o.time !== null)) return obs;
  return [...obs].sort((a, b) => a.time! - b.time! || a.index - b.index);
}

/** Learns the model and seed state from one (merged) evidence. */
export function learn(evidence: Evidence, options: Partial<LearnOptions> = {}): Learned {
  const opts = { ...DEFAULT_LEARN_OPTIONS, ...options };
  const selected = selectApiRecords(evidence);
  const warnings = [...selected.warnings];
  const { groups, observations } = indexEndpoints(selected.api);
  const found = findCollections(groups, warnings);
  const targets = findWriteTargets(groups, found);
  const walk = walkState(timeOrder(observations), found, targets);

  const writesByGroup = new Map<EndpointGroup, WriteObservation[]>();
  for (const w of walk.writes) {
    const list = writesByGroup.get(w.obs.endpoint);
    if (list) list.push(w);
    else writesByGroup.set(w.obs.endpoint, [w]);
  }
  const verdicts = new Map<EndpointGroup, { rule: WriteRule | null; withheld: Withheld | null }>();
  // A sign-in touches no collection: it is replayed (its successful answers), never judged as a write.
  const signIns = new Map<EndpointGroup, SignInKey>(
    groups.filter((g) => !targets.has(g.key) && isSignIn(g)).map((g) => [g, signInKey(g)]),
  );
  for (const g of groups) {
    if (!isWriteMethod(g.method) || signIns.has(g)) continue;
    const v = learnWrite(g, targets.get(g.key) ?? null, writesByGroup.get(g) ?? [], opts);
    warnings.push(...v.warnings);
    verdicts.set(g, v);
  }

  const validations = groups.filter((g) => isWriteMethod(g.method)).map(learnValidations);

  const collections = [];
  const stateServed = new Set<Observation>();
  const seed: SeedState = { collections: {} };
  const idSequences: Record<string, number> = {};
  for (const st of [...walk.states.values()].sort((a, b) => (a.col.name < b.col.name ? -1 : 1))) {
    const m = collectionModel(st, walk.queries);
    collections.push(m.collection);
    for (const o of m.stateServed) stateServed.add(o);
    seed.collections[st.col.name] = [...st.scopes.keys()].flatMap((scope) => st.list(scope));
    if (st.col.idKind === "int") idSequences[st.col.name] = (st.maxInt ?? 0) + 1;
  }
  const served: ServedWrite[] = [];
  for (const [g, v] of verdicts)
    if (v.rule) served.push({ group: g, target: targets.get(g.key)!, rule: v.rule });
  widenSettable(
    served,
    groups.flatMap((g) => (targets.has(g.key) ? [{ group: g, target: targets.get(g.key)! }] : [])),
  );
  for (const [g, v] of verdicts) {
    if (!v.rule) continue;
    for (const f of v.rule.fields)
      if (f.rule.kind === "id_sequence") f.rule.start = idSequences[v.rule.collection] ?? f.rule.start;
    v.rule.explain = explainWrite(v.rule, g.method, g.template);
  }
  const stateGroups = new Set(found.flatMap((c) => (c.item ? [c.list, c.item] : [c.list])));
  // A keyed sign-in also replays the app's refusals: the answer to a user the recording never signed in.
  const replayReads = timeOrder(observations).filter((o) =>
    signIns.has(o.endpoint)
      ? signedIn(o) || signIns.get(o.endpoint)!.refusals.includes(o)
      : !isWriteMethod(o.method) && !(stateGroups.has(o.endpoint) && stateServed.has(o)),
  );
  const colByGroup = new Map<EndpointGroup, FoundCollection>();
  for (const c of found) {
    colByGroup.set(c.list, c);
    if (c.item) colByGroup.set(c.item, c);
  }
  const endpoints = groups.map((g) =>
    endpointModel(
      g,
      colByGroup.get(g) ?? null,
      targets.get(g.key) ?? null,
      verdicts.get(g) ?? null,
      signIns.get(g) ?? null,
    ),
  );
  widenRequestSchemas(
    endpoints,
    served.map((w) => w.rule),
  );

  let last: number | null = null;
  for (const r of evidence.records)
    if (r.started_at !== null) last = Math.max(last ?? 0, Math.round(r.started_at + (r.duration_ms ?? 0)));

  const model: Model = {
    schema_version: MODEL_SCHEMA_VERSION,
    app_origin: evidence.app_origin,
    endpoints,
    collections,
    write_rules: [...verdicts.values()]
      .flatMap((v) => (v.rule ? [v.rule] : []))
      .sort((a, b) => (a.tool_name < b.tool_name ? -1 : 1)),
    replays: buildReplays(replayReads, (o) => {
      const key = signIns.get(o.endpoint);
      return key ? signInMatch(key, o) : undefined;
    }),
    clock: { last_time_ms: last, step_ms: CLOCK_STEP_MS },
    id_sequences: idSequences,
    validations: validations
      .flat()
      .sort((a, b) =>
        a.tool_name !== b.tool_name ? (a.tool_name < b.tool_name ? -1 : 1) : a.field < b.field ? -1 : 1,
      ),
  };
  return {
    model,
    seed,
    counts: {
      records: evidence.records.length,
      api_records: selected.api.length,
      assets: selected.assets,
      ignored: selected.ignored,
    },
    warnings,
  };
}
