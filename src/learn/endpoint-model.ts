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
import { isRedirect } from "./redirect-location.js";
import { explainSignIn, type SignInKey } from "./sign-in.js";
import { isUuid, singular } from "./value-kinds.js";
import type { WriteTarget } from "./write-targets.js";

function paramSchema(values: string[]): JsonSchema {
  if (values.length > 0 && values.every((v) => /^\d+$/.test(v))) return { type: "integer" };
  if (values.length > 0 && values.every(isUuid)) return { type: "string", format: "uuid" };
  return { type: "string" };
}

/**
 * The request schema of what the app accepted, requiring only what every recorded request sent, refused ones too:
 * a field a refusal lacked is not shown required by the successes (validation-rules.ts marks what a refusal proves).
 */
function requestSchema(accepted: Shape, g: EndpointGroup): JsonSchema {
  const schema = toJsonSchema(accepted);
  const required = schema["required"];
  if (!Array.isArray(required)) return schema;
  const bodies = g.observations.flatMap((o) =>
    o.request.kind === "json" || o.request.kind === "form" ? [o.request.value] : [],
  );
  const always = required.filter((k) =>
    bodies.every((b) => b !== null && typeof b === "object" && Object.hasOwn(b, k as string)),
  );
  if (always.length === required.length) return schema;
  return { ...schema, required: always };
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
  // The request schema is what the app accepted: a refused body teaches a validation (validation-rules.ts), never
  // a field or a type the endpoint takes. An endpoint with no accepted request keeps the schema of those it has.
  const accepted = g.observations.filter((o) => (o.status >= 200 && o.status < 300) || isRedirect(o.status));
  for (const o of accepted.length > 0 ? accepted : g.observations)
    if (o.request.kind === "json" || o.request.kind === "form") {
      requestBody ??= o.request.kind;
      observe(req, o.request.value);
    }
  const responses = new Map<string, Shape>();
  for (const o of g.observations) {
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
    request_schema: requestBody ? requestSchema(req, g) : null,
    response_schemas,
    kind,
    collection: col?.name ?? target?.collection.name ?? null,
    serving,
    withheld: verdict?.withheld ?? null,
    observations: n,
    explain,
  };
}
