/**
 * The model of one endpoint: its parameters, merged request and response
 * schemas, its kind, and how the twin serves it (state, replay, withheld).
 */
import type {
  Acknowledged,
  Endpoint,
  JsonSchema,
  Param,
  Withheld,
  WriteRule,
} from "../model/model-schema.js";
import type { FoundCollection } from "./collections.js";
import type { EndpointGroup } from "./endpoint-index.js";
import { emptyShape, observe, type Shape, toJsonSchema } from "./json-schema.js";
import { explainSignIn, type SignInKey } from "./sign-in.js";
import { isUuid, singular } from "./value-kinds.js";
import type { WriteTarget } from "./write-targets.js";

function paramSchema(values: string[]): JsonSchema {
  if (values.length > 0 && values.every((v) => /^\d+$/.test(v))) return { type: "integer" };
  if (values.length > 0 && values.every(isUuid)) return { type: "string", format: "uuid" };
  return { type: "string" };
}

/** Builds the Endpoint model of a group (a sign-in, given with its key, is replayed, kind `other`). */
export function endpointModel(
  g: EndpointGroup,
  col: FoundCollection | null,
  target: WriteTarget | null,
  verdict: { rule: WriteRule | null; withheld: Withheld | null } | null,
  signIn: SignInKey | null = null,
  acknowledged: Acknowledged | null = null,
): Endpoint {
  const params: Param[] = g.params.map((name) => ({
    name,
    in: "path" as const,
    schema: paramSchema(g.observations.map((o) => o.pathParams[name]!)),
  }));
  const queryNames = new Set<string>();
  for (const o of g.observations) for (const [n] of o.query) queryNames.add(n);
  for (const name of [...queryNames].sort()) params.push({ name, in: "query", schema: { type: "string" } });

  const req = emptyShape();
  let requestBody: Endpoint["request_body"] = null;
  const responses = new Map<string, Shape>();
  for (const o of g.observations) {
    if (o.request.kind === "json" || o.request.kind === "form") {
      requestBody ??= o.request.kind;
      observe(req, o.request.value);
    }
    const key = String(o.status);
    let shape = responses.get(key);
    if (!shape) {
      shape = emptyShape();
      responses.set(key, shape);
    }
    if (o.response.kind === "json") observe(shape, o.response.value);
  }
  const response_schemas: Record<string, JsonSchema> = {};
  for (const key of [...responses.keys()].sort()) response_schemas[key] = toJsonSchema(responses.get(key)!);

  const isList = col !== null && col.list === g;
  const kind: Endpoint["kind"] = isList ? "list" : col ? "item" : target ? target.endpointKind : "other";
  const serving: Endpoint["serving"] = acknowledged
    ? "acknowledged"
    : verdict
      ? verdict.rule
        ? "state"
        : "withheld"
      : col
        ? "state"
        : "replay";
  const n = g.observations.length;
  const explain = signIn
    ? explainSignIn(g, signIn)
    : acknowledged
      ? acknowledged.explain
      : verdict?.rule
        ? verdict.rule.explain
        : verdict?.withheld
          ? `${g.method} ${g.template} is withheld (${verdict.withheld.reason}): ${verdict.withheld.hint}.`
          : isList
            ? `${g.method} ${g.template} lists the ${col.name} collection from state.`
            : col
              ? `${g.method} ${g.template} reads one ${singular(col.name)} from state by {id}.`
              : `${g.method} ${g.template} replays the ${n} recorded answer${n === 1 ? "" : "s"} by exact path and query.`;
  return {
    tool_name: g.toolName,
    method: g.method,
    template: g.template,
    params,
    request_body: requestBody,
    request_schema: requestBody ? toJsonSchema(req) : null,
    response_schemas,
    kind,
    collection: col?.name ?? target?.collection.name ?? null,
    serving,
    withheld: verdict?.withheld ?? null,
    observations: n,
    explain,
  };
}
