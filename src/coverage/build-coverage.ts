/**
 * Builds the coverage report from what learning found: status, reads
 * (state-backed and replayed, per tool), writes served and withheld with
 * reason and hint, warnings with pointers into the evidence, and the single
 * next thing to do.
 */
import type { Evidence } from "../evidence/evidence-schema.js";
import type { Learned } from "../learn/learn.js";
import { unconfirmedParts } from "../learn/write-unconfirmed.js";
import { unlearnedQueryParams } from "../model/collection-query.js";
import type { Endpoint, Model, SeedState, WithheldReason } from "../model/model-schema.js";
import { unescapePointerToken } from "../util/json-pointer.js";
import { COVERAGE_SCHEMA_VERSION, type Coverage, type CoverageWarning } from "./coverage-schema.js";
import { evidenceVerdict, verdictNext } from "./evidence-verdict.js";

/** The fix order of withheld reasons: the gap a re-recording closes most surely comes first. */
const NEXT_ORDER: WithheldReason[] = [
  "not_read_back",
  "no_collection",
  "failed_status",
  "untimed_capture",
  "unsupported_body",
  "read_back_disagrees",
  "conflicting_observations",
  "unexplained_field",
];

/** The hint given when the evidence holds nothing learnable. */
export const EMPTY_HINT =
  "Nothing to learn: the evidence has no API records (XHR/fetch reads or writes on the app's origin). Record steps that load the app's data, or request steps on its API, then run apptwin coverage again";

/** The `next` of a partial report whose every gap is beyond recording (the twin lacks the rule). */
export function unclosableHint(tools: string[]): string {
  return `No recording can close the remaining gaps (${tools.join(", ")}): the twin has no rule for what they need. Export the environment and report them as withheld`;
}

/** `/records/12/response/body` → `records[12].response.body`. */
export function pointerToPath(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map(unescapePointerToken)
    .reduce(
      (acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc === "" ? part : `${acc}.${part}`),
      "",
    );
}

/** The query parameters a state-backed read was recorded with and cannot answer from state, with how many recorded requests sent each. */
function unlearnedQuery(
  model: Model,
  seed: SeedState,
  e: Endpoint,
): { param: string; recorded: number; hint: string }[] {
  const c = e.serving === "state" ? model.collections.find((x) => x.name === e.collection) : undefined;
  if (!c || (e.kind !== "list" && e.kind !== "item")) return [];
  const sample = (seed.collections[c.name] ?? []).slice(0, 50);
  const counts = new Map<string, number>();
  for (const r of model.replays) {
    if (r.tool_name !== e.tool_name) continue;
    const at = r.path_and_query.indexOf("?");
    const query: [string, string][] = at < 0 ? [] : [...new URLSearchParams(r.path_and_query.slice(at + 1))];
    // An item read's parameters learned as assertions on a field (item-assertions.ts) have their meaning.
    const asserted = new Set((c.item_assertions ?? []).map((a) => a.param));
    const names =
      e.kind === "list"
        ? unlearnedQueryParams(c, query, sample)
        : [...new Set(query.map(([k]) => k))].filter((k) => !asserted.has(k));
    for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([param, recorded]) => ({
      param,
      recorded,
      hint: `the ${recorded} recorded request${recorded === 1 ? "" : "s"} with "${param}" ${recorded === 1 ? "replays" : "replay"} as recorded; no hypothesis (filter, search, sort, page, projection, no effect) held against the state at every one of them, so any other value is an unlearned_query miss`,
    }));
}

/** A list read's query meanings inferred from a sibling collection, and those refused (inferred-queries.ts). */
function inferredQueryOf(
  model: Model,
  e: Endpoint,
): { param: string; kind: string; from: string; serving: "inferred" | "refused"; explain: string }[] {
  const c = e.kind === "list" ? model.collections.find((x) => x.list_endpoint === e.tool_name) : undefined;
  if (!c?.query) return [];
  const param = (r: { path: unknown[] }) =>
    r.path
      .map((s) =>
        typeof s === "string"
          ? s
          : "literal" in (s as object)
            ? (s as { literal: string }).literal
            : "field" in (s as object)
              ? "{field}"
              : "op" in (s as object)
                ? "{op}"
                : "branch" in (s as object)
                  ? `{${(s as { branch: string }).branch}}`
                  : `{field}${(s as { field_op: string }).field_op}{op}`,
      )
      .join(".");
  return [
    ...c.query.rules.flatMap((r) =>
      "inferred" in r && r.inferred
        ? [
            {
              param: param(r),
              kind: r.kind,
              from: r.inferred.from,
              serving: "inferred" as const,
              explain: r.explain,
            },
          ]
        : [],
    ),
    ...(c.query.refused_inferences ?? []).map((x) => ({
      param: x.param,
      kind: x.kind,
      from: x.from,
      serving: "refused" as const,
      explain: `not inferred from ${x.from}: ${x.reason}`,
    })),
  ];
}

/** The coverage report of a learned model, with the verdict of the evidence it was learned from. */
export function buildCoverage(
  learned: Learned,
  evidence: Pick<Evidence, "verdict" | "steps" | "limitations">,
): Coverage {
  const { model, seed } = learned;
  const reads = model.endpoints
    .filter((e) => e.serving !== "withheld" && (e.method === "GET" || e.method === "HEAD"))
    .map((e) => {
      const unlearned = unlearnedQuery(model, seed, e);
      const inferredQuery = inferredQueryOf(model, e);
      return {
        tool_name: e.tool_name,
        method: e.method,
        template: e.template,
        serving: e.inferred ? ("inferred" as const) : (e.serving as "state" | "replay"),
        collection: e.collection,
        observations: e.observations,
        explain: e.explain,
        ...(unlearned.length > 0 ? { unlearned_query: unlearned } : {}),
        ...(inferredQuery.length > 0 ? { inferred_query: inferredQuery } : {}),
      };
    });
  const writes = model.endpoints.filter((e) => e.method !== "GET" && e.method !== "HEAD");
  const rules = new Map(model.write_rules.map((r) => [r.tool_name, r]));
  const writeRow = (e: Endpoint) => {
    const rule = rules.get(e.tool_name);
    const unconfirmed = rule ? unconfirmedParts(rule) : [];
    return {
      tool_name: e.tool_name,
      method: e.method,
      template: e.template,
      collection: e.collection,
      observations: e.observations,
      explain: e.explain,
      ...(unconfirmed.length > 0 ? { unconfirmed } : {}),
    };
  };
  const served = writes.filter((e) => e.serving === "state").map(writeRow);
  const acknowledged = writes.filter((e) => e.serving === "acknowledged").map(writeRow);
  // A write is replayed only when it is a sign-in (see src/learn/sign-in.ts).
  const signIn = writes
    .filter((e) => e.serving === "replay")
    .map((e) => ({
      tool_name: e.tool_name,
      method: e.method,
      template: e.template,
      observations: e.observations,
      explain: e.explain,
    }));
  const withheld = writes
    .filter((e) => e.withheld !== null)
    .map((e) => ({
      tool_name: e.tool_name,
      method: e.method,
      template: e.template,
      collection: e.collection,
      observations: e.observations,
      reason: e.withheld!.reason,
      hint: e.withheld!.hint,
      closable: e.withheld!.closable ?? true,
    }));
  const endpointOf = new Map(model.endpoints.map((e) => [e.tool_name, e]));
  const validations = (model.validations ?? []).map((v) => ({
    tool_name: v.tool_name,
    method: endpointOf.get(v.tool_name)?.method ?? "",
    template: endpointOf.get(v.tool_name)?.template ?? "",
    field: v.field,
    kind: v.kind ?? ("missing" as const),
    status: v.status,
    explain: v.explain,
  }));
  const warnings: CoverageWarning[] = learned.warnings.map((w) => ({
    code: w.code,
    message: w.message,
    pointer: w.pointer,
    path: w.pointer === null ? null : pointerToPath(w.pointer),
  }));
  const status = model.endpoints.length === 0 ? "empty" : withheld.length > 0 ? "partial" : "complete";
  // A gap no recording can close is never the next thing to do (an agent must not loop on it).
  const first = withheld
    .filter((w) => w.closable)
    .sort((a, b) => NEXT_ORDER.indexOf(a.reason) - NEXT_ORDER.indexOf(b.reason))[0];
  const verdict = evidenceVerdict(evidence);
  // A capture that stopped at a failed step is re-recorded first: what came after it was never seen.
  const next =
    verdictNext(verdict, evidence.steps) ??
    (status === "empty"
      ? EMPTY_HINT
      : first
        ? first.hint
        : withheld.length > 0
          ? unclosableHint(withheld.map((w) => w.tool_name))
          : null);
  return {
    schema_version: COVERAGE_SCHEMA_VERSION,
    status,
    app_origin: model.app_origin,
    counts: learned.counts,
    collections: model.collections.map((c) => ({
      name: c.name,
      id_field: c.id_field,
      entities: seed.collections[c.name]?.length ?? 0,
    })),
    reads,
    writes: { served, withheld, acknowledged },
    sign_in: signIn,
    validations,
    warnings,
    evidence: verdict,
    next,
  };
}
