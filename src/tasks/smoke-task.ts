/**
 * The smoke task: every read tool called once on a fresh episode answers as
 * recorded — a replayed read with its recorded status and body, a
 * state-backed read with the recorded status and a body of the recorded
 * shape. It checks the environment, not an agent: only the oracle runs it.
 */
import { unknownItemFields } from "../model/item-knowledge.js";
import type { Collection, Endpoint, Entity, Model, SeedState } from "../model/model-schema.js";
import { queryForm } from "../util/query-form.js";
import { safeDecode } from "../util/safe-decode.js";
import { type CollectionView, type EvalTool, type Scope, scopeOf } from "./collection-view.js";
import { entityArgs } from "./task-parts.js";
import type { NotGenerated, OracleCall, SmokeCheck, Task } from "./task-schema.js";

/** The id of the smoke task. */
export const SMOKE_TASK_ID = "smoke";

interface Planned {
  call: OracleCall;
  check: Omit<SmokeCheck, "call">;
}

/** Arguments of a tool that produce exactly the recorded path and query, or null. */
function replayArgs(tool: EvalTool, pathAndQuery: string): Record<string, unknown> | null {
  const [path = "", query = ""] = pathAndQuery.split("?", 2);
  const want = tool.binding.template.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return null;
  const args: Record<string, unknown> = {};
  for (let i = 0; i < want.length; i++) {
    const m = /^\{(.+)\}$/.exec(want[i]!);
    if (m) args[m[1]!] = safeDecode(got[i]!);
    else if (want[i] !== got[i]) return null;
  }
  const seen = new Set<string>();
  for (const [name, value] of new URLSearchParams(query)) {
    if (!tool.binding.query_params.includes(name) || seen.has(name)) return null;
    seen.add(name);
    args[name] = value;
  }
  return args;
}

function replayed(model: Model, tool: EvalTool): Planned | string {
  const replays = model.replays
    .filter((r) => r.tool_name === tool.name && r.responses.length > 0)
    .sort((a, b) => (a.path_and_query < b.path_and_query ? -1 : a.path_and_query > b.path_and_query ? 1 : 0));
  for (const r of replays) {
    const args = replayArgs(tool, r.path_and_query);
    if (!args) continue;
    const first = r.responses[0]!;
    const body = first.body?.encoding === "json" ? { body: first.body.value } : {};
    return { call: { tool: tool.name, arguments: args }, check: { status: first.status, ...body } };
  }
  return "no recorded request of it can be sent through its arguments";
}

/** A list of a nested collection whose entities name no parent, called under the first scope the recording listed. */
function listedScope(endpoint: Endpoint, tool: EvalTool, c: Collection | undefined): Planned | null {
  const scope = c?.parent?.implied ? c.parent.listed?.[0] : undefined;
  if (endpoint.kind !== "list" || scope === undefined || tool.binding.path_params.join() !== c!.parent!.param)
    return null;
  const status = Object.keys(endpoint.response_schemas).find((s) => /^2\d\d$/.test(s));
  if (!status) return null;
  const schema = endpoint.response_schemas[status] as Record<string, unknown>;
  return {
    call: { tool: tool.name, arguments: { [c!.parent!.param]: scope } },
    check: { status: Number(status), schema },
  };
}

function fromState(
  endpoint: Endpoint,
  tool: EvalTool,
  view: CollectionView | undefined,
  model: Model,
  seed: SeedState,
): Planned | string {
  const c = model.collections.find((x) => x.name === endpoint.collection);
  if (!view)
    return (
      listedScope(endpoint, tool, c) ??
      `its collection ${endpoint.collection} offers no served list to take arguments from`
    );
  const scope: Scope = scopeOf(view);
  // An item read of an entity only a list showed is an explained miss: call one whose item the state knows.
  const rows = new Map(
    (seed.collections[view.collection.name] ?? []).map((e) => [queryForm(e[view.collection.id_field]), e]),
  );
  const known = (e: Entity) => {
    const row = rows.get(queryForm(e[view.collection.id_field]));
    return !c || !row || unknownItemFields(c, row).length === 0;
  };
  const entity = endpoint.kind === "item" ? (scope.entities.find(known) ?? null) : null;
  const idParam =
    endpoint.kind === "item" ? (tool.binding.path_params[tool.binding.path_params.length - 1] ?? null) : null;
  const args = entityArgs(view, scope, tool.binding.path_params, idParam, entity);
  if (!args || (endpoint.kind === "item" && !entity))
    return "the seed state gives no value for its path parameters";
  const status = Object.keys(endpoint.response_schemas).find((s) => /^2\d\d$/.test(s));
  if (!status) return "the recording has no successful answer of it";
  const schema = endpoint.response_schemas[status] as Record<string, unknown>;
  return { call: { tool: tool.name, arguments: args }, check: { status: Number(status), schema } };
}

/** The smoke task over every read tool, and the read tools it cannot call, with why. */
export function smokeTask(
  model: Model,
  tools: EvalTool[],
  views: CollectionView[],
  seed: SeedState = { collections: {} },
): { task: Task | null; skipped: NotGenerated[] } {
  const skipped: NotGenerated[] = [];
  const planned: Planned[] = [];
  const viewOf = new Map(views.map((v) => [v.collection.name, v]));
  for (const tool of tools.filter((t) => t.annotations.readOnlyHint)) {
    const endpoint = model.endpoints.find((e) => e.tool_name === tool.name);
    if (!endpoint) continue;
    const stateRead = endpoint.serving === "state" && (endpoint.kind === "list" || endpoint.kind === "item");
    const plan = stateRead
      ? fromState(endpoint, tool, viewOf.get(endpoint.collection ?? ""), model, seed)
      : replayed(model, tool);
    if (typeof plan === "string")
      skipped.push({
        subject: `${tool.binding.method} ${tool.binding.template}`,
        kind: "smoke",
        reason: "not_callable",
        explain: plan,
      });
    else planned.push(plan);
  }
  if (planned.length === 0) return { task: null, skipped };
  return {
    task: {
      id: SMOKE_TASK_ID,
      kind: "smoke",
      category: "smoke",
      prompt:
        "Environment check, run by apptwin eval and not given to agents: every read tool answers as the recording did.",
      answer: null,
      expected: { changes: [] },
      checks: planned.map((p, call) => ({ call, ...p.check })),
      oracle: { calls: planned.map((p) => p.call), answer: null },
      explain: `Calls each of the ${planned.length} read tools once on a fresh episode and compares the status and body with the recording (the body's shape for reads served from state).`,
    },
    skipped,
  };
}
