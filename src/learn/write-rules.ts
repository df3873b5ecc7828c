/**
 * Turns the observations of one write endpoint into a served WriteRule or a
 * withheld verdict. Served only when a later read confirmed the effect and
 * every field of the written entity, and the answer, fit a rule.
 */
import type { Withheld, WriteRule } from "../model/model-schema.js";
import type { LearnWarning } from "./api-records.js";
import type { EndpointGroup } from "./endpoint-index.js";
import { explainWrite } from "./explain.js";
import { type FieldContext, inferFieldRule } from "./infer-field-rule.js";
import { isRedirect, locationTemplate } from "./redirect-location.js";
import { type AnswerCase, learnResponse } from "./response-shape.js";
import type { WriteObservation } from "./state-walk.js";
import { isObject } from "./value-kinds.js";
import { withheld } from "./withheld-hint.js";
import type { WriteTarget } from "./write-targets.js";

/** Options of learning. */
export interface LearnOptions {
  /** How far (ms) a stamped time may be from the request's start to count as the clock. Default 120 000. */
  clockWindowMs: number;
}

/** The read that confirms a write of this endpoint, as shown in hints. */
export function readBackOf(group: EndpointGroup, target: WriteTarget | null): string {
  const lits = group.literals;
  let params = 0;
  const render = (upto: number) =>
    `/${lits
      .slice(0, upto)
      .map((l) => (l === null ? `{${group.params[params++]}}` : l))
      .join("/")}`;
  if (!target) return `GET ${render(group.method === "POST" ? lits.length : Math.max(1, lits.length - 1))}`;
  if (target.kind === "create") return `GET ${render(lits.length)}`;
  if (target.endpointKind === "other") return `GET ${render(lits.length - 1)}`;
  if (target.kind === "delete") return `GET ${render(lits.length)} (answering 404)`;
  return `GET ${render(lits.length)}`;
}

/** Learns one write endpoint: a rule, or why it is withheld (plus warnings about ignored failures). */
export function learnWrite(
  group: EndpointGroup,
  target: WriteTarget | null,
  walked: WriteObservation[],
  opts: LearnOptions,
): { rule: WriteRule | null; withheld: Withheld | null; warnings: LearnWarning[] } {
  const base = { method: group.method, template: group.template, readBack: readBackOf(group, target) };
  const warnings: LearnWarning[] = [];
  const no = (w: Withheld) => ({ rule: null, withheld: w, warnings });
  const bad = group.observations.find(
    (o) => o.request.kind === "unsupported" || o.request.kind === "truncated",
  );
  if (bad)
    return no(
      withheld("unsupported_body", {
        ...base,
        mime: bad.request.kind === "unsupported" ? bad.request.mime : null,
      }),
    );
  // A redirect (post-redirect-get) is a write's answer, not a failure: it is judged by its read-back too.
  const success = group.observations.filter(
    (o) => (o.status >= 200 && o.status < 300) || isRedirect(o.status),
  );
  const failed = group.observations.filter((o) => o.status >= 400);
  if (success.length === 0)
    return no(
      withheld("failed_status", {
        ...base,
        statuses: [...new Set(group.observations.map((o) => o.status))].sort(),
      }),
    );
  for (const o of failed)
    warnings.push({
      code: "failed_write",
      message: `${group.method} ${group.template} answered ${o.status}; a failed write teaches no write rule, only a validation (see validations) when its answer names a field every success sent`,
      pointer: `/records/${o.index}/response/status`,
    });
  if (!target) return no(withheld("no_collection", base));
  const disagree = walked.find((w) => w.result === "disagrees");
  if (disagree) return no(withheld("read_back_disagrees", { ...base, field: disagree.mismatch ?? "" }));
  const confirmed = walked.filter((w) => w.result === "confirmed");
  if (confirmed.length === 0) return no(withheld("not_read_back", base));
  const statuses = new Set(confirmed.map((w) => w.obs.status));
  if (statuses.size > 1) return no(withheld("conflicting_observations", base));
  const col = target.collection;
  const contexts: FieldContext[] = confirmed.map((w) => ({
    entity: target.kind === "delete" ? (w.pre ?? { [col.idField]: w.id }) : w.readBack!,
    request:
      w.obs.request.kind === "json" && isObject(w.obs.request.value)
        ? w.obs.request.value
        : w.obs.request.kind === "form"
          ? w.obs.request.value
          : null,
    loose: w.obs.request.kind === "form",
    pathParams: w.obs.pathParams,
    pre: w.pre,
    time: w.obs.time,
    maxIntBefore: w.maxIntBefore,
    scopeMax: w.scopeMaxBefore,
    idSeenBefore: w.idSeenBefore,
    idField: col.idField,
    create: target.kind === "create",
  }));
  const fields: WriteRule["fields"] = [];
  if (target.kind !== "delete") {
    const names: string[] = [];
    for (const c of contexts) for (const k of Object.keys(c.entity)) if (!names.includes(k)) names.push(k);
    for (const f of names) {
      const verdict = inferFieldRule(f, contexts, opts.clockWindowMs);
      if (!verdict.ok)
        return no(
          withheld(verdict.reason, { ...base, field: f, ...(verdict.gap ? { gap: verdict.gap } : {}) }),
        );
      fields.push({ field: f, rule: verdict.rule });
    }
  }
  const cases: AnswerCase[] = confirmed.map((w, i) => ({
    body: w.obs.response.kind === "json" ? w.obs.response.value : undefined,
    entity: contexts[i]!.entity,
    request: contexts[i]!.request,
  }));
  const response = learnResponse(cases);
  if (!response.ok)
    return no(
      withheld("unexplained_field", {
        ...base,
        field: response.field,
        ...(response.token ? { gap: { kind: "token", token: response.token, answerOnly: true } } : {}),
      }),
    );
  const locations = new Set(
    confirmed.map((w, i) =>
      isRedirect(w.obs.status) ? locationTemplate(w.obs, contexts[i]!.entity, col.idField) : null,
    ),
  );
  if (locations.size > 1) return no(withheld("conflicting_observations", { ...base, field: "Location" }));
  const location = [...locations][0] ?? null;
  const first = confirmed[0]!.obs;
  const partial: Omit<WriteRule, "explain"> = {
    tool_name: group.toolName,
    kind: target.kind,
    collection: col.name,
    id_param: target.idParam,
    status: first.status,
    content_type: first.contentType,
    response: response.response,
    ...(location === null ? {} : { location }),
    fields,
  };
  const rule = { ...partial, explain: "" };
  rule.explain = explainWrite(rule, group.method, group.template);
  return { rule, withheld: null, warnings };
}
