/**
 * A write whose body sets a field the recording never showed this write
 * taking (at the top level, or inside the wrapper the entity is sent in:
 * `{"issue": {...}}`) is an explained miss (501 `unlearned_field`), never a success that
 * silently drops the field: what the app does with it (sets it, ignores it,
 * refuses the body) is not in the evidence. A field is learned when an
 * accepted request of the endpoint sent it, or when a confirmed rule of the
 * collection proves it settable by this write (`settable_by`, mirrored in the
 * request schema). A field sent at the value the entity already holds is no
 * change whatever the app does with it (a client sending the entity back), so
 * it is let through.
 */
import type { Collection, Endpoint, WriteRule } from "../../model/model-schema.js";
import { pathOfPointer } from "../../util/json-pointer.js";
import { bodyObject } from "./apply-field-rules.js";
import { locate } from "./collection-read.js";
import type { CollectionState } from "./collection-state.js";
import { explainedAnswer } from "./explain-miss.js";
import type { TwinRequest, TwinResponse } from "./twin-types.js";

/**
 * The body keys the endpoint is known to take under `under` (the top level, or inside the object the collection's
 * item answers wrap their entity in: `{"issue": {...}}`): its request schema's properties there and its rules'
 * pointers.
 */
function learnedKeys(ep: Endpoint, rule: WriteRule, under: string | null = null): Set<string> {
  const top = ep.request_schema?.["properties"] as Record<string, unknown> | undefined;
  const inner = under === null ? top : (top?.[under] as Record<string, unknown> | undefined)?.["properties"];
  const keys = new Set(inner && typeof inner === "object" ? Object.keys(inner) : []);
  const add = (pointer: string) => {
    const path = pathOfPointer(pointer);
    if (under === null) keys.add(path[0] ?? "");
    else if (path[0] === under && path.length > 1) keys.add(path[1]!);
  };
  const walk = (fields: WriteRule["fields"]) => {
    for (const { rule: r } of fields) {
      if (r.kind === "from_request" || r.kind === "length") add(r.pointer);
      else if (r.kind === "object") walk(r.fields);
      else if (r.kind === "format") {
        for (const p of r.parts) if ("request" in p) add(p.request);
      }
    }
  };
  walk(rule.fields);
  return keys;
}

/**
 * The fields of a body wrapped as the collection's item answers wrap their entity (`{"issue": {"subject": …}}`)
 * that the endpoint never took inside the wrapper, named `issue.subject`; none when the body is not so wrapped or
 * the endpoint never took a wrapped body (no known key inside). A field sent at the value the entity holds passes.
 */
function unlearnedWrapped(
  ep: Endpoint,
  c: Collection,
  rule: WriteRule,
  body: Record<string, unknown>,
  old: Record<string, unknown> | undefined,
  form: boolean,
): string[] {
  const env = c.item_envelope;
  if (env.kind !== "object") return [];
  const inner = body[env.item_key];
  if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return [];
  const known = learnedKeys(ep, rule, env.item_key);
  if (known.size === 0) return [];
  return Object.entries(inner as Record<string, unknown>)
    .filter(([k, v]) => !known.has(k) && !sameValue(v, old?.[k], form))
    .map(([k]) => `${env.item_key}.${k}`);
}

/** The same value, a form's text compared as the text of the held one. */
function sameValue(sent: unknown, held: unknown, form: boolean): boolean {
  if (held === undefined) return false;
  if (form) return typeof held === "string" || typeof held === "number" ? String(held) === sent : false;
  return JSON.stringify(sent) === JSON.stringify(held);
}

/**
 * The 501 for a write (create, replace, merge) whose object body sets top-level fields the endpoint never took,
 * or null. Batch and whole-collection writes, and bodies that are no object, are judged elsewhere.
 */
export function refuseUnlearnedFields(
  ep: Endpoint,
  c: Collection,
  list: CollectionState,
  rule: WriteRule,
  req: TwinRequest,
  params: Record<string, string>,
): TwinResponse | null {
  if (rule.kind === "delete" || rule.batch || rule.replace_all) return null;
  const body = bodyObject(req.body);
  if (body === null || typeof body !== "object" || Array.isArray(body)) return null;
  const known = learnedKeys(ep, rule);
  const old = rule.kind === "create" ? undefined : locate(c, list, params, rule.id_param ?? "");
  const form = req.body?.kind === "form";
  const fields = [
    ...Object.entries(body as Record<string, unknown>)
      .filter(([k, v]) => !known.has(k) && !sameValue(v, old?.[k], form))
      .map(([k]) => k),
    ...unlearnedWrapped(ep, c, rule, body as Record<string, unknown>, old, form),
  ].sort();
  if (fields.length === 0) return null;
  const route = `${ep.method} ${ep.template}`;
  const names = fields.map((f) => JSON.stringify(f)).join(", ");
  const one = fields.length === 1;
  return explainedAnswer(
    501,
    {
      error: "unlearned_field",
      message: `${req.method.toUpperCase()} ${req.path}: no accepted ${route} in the recording sets ${names}, and no confirmed rule shows ${one ? "it" : "them"} settable there; the twin does not know whether the app sets, ignores or refuses ${one ? "it" : "them"}, so it writes nothing.`,
      hint: `Record a ${route} that sends ${names} and a read of the ${c.name} after it (or the app's refusal of such a body), then rebuild the bundle.`,
      fields,
    },
    "miss",
    ep.tool_name,
  );
}
