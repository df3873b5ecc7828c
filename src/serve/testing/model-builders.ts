/**
 * Small builders for hand-written test Models: an endpoint with defaults, a
 * field rule, a from-request rule and a write rule.
 */
import type { Endpoint, FieldRule, WriteRule } from "../../learn/model-schema.js";

/** The fields of an endpoint a test names; the rest get defaults. */
export type EndpointSpec = Pick<
  Endpoint,
  "tool_name" | "method" | "template" | "kind" | "collection" | "serving"
> &
  Partial<Endpoint>;

/** An endpoint with path params from its template and empty schemas. */
export function endpoint(spec: EndpointSpec): Endpoint {
  const params = [...spec.template.matchAll(/\{([^}]+)\}/g)].map((m) => ({
    name: m[1]!,
    in: "path" as const,
    schema: { type: m[1] === "id" ? "integer" : "string" },
  }));
  return {
    params,
    request_body: null,
    request_schema: null,
    response_schemas: {},
    withheld: null,
    observations: 1,
    explain: `${spec.method} ${spec.template}`,
    ...spec,
  };
}

/** A field rule entry. */
export const f = (field: string, rule: FieldRule) => ({ field, rule });
/** A `from_request` rule reading `/<field>` with the given fallback. */
export const fromBody = (field: string, otherwise: FieldRule | { kind: "omit" }) =>
  f(field, {
    kind: "from_request",
    pointer: `/${field}`,
    otherwise:
      otherwise.kind === "constant"
        ? otherwise
        : otherwise.kind === "keep"
          ? { kind: "keep" }
          : { kind: "omit" },
  });

/** A write rule with a JSON content type and an explain sentence by default. */
export function write(
  spec: Omit<WriteRule, "explain" | "content_type"> & { content_type?: string | null },
): WriteRule {
  return { content_type: "application/json", explain: `${spec.kind} ${spec.collection}`, ...spec };
}
