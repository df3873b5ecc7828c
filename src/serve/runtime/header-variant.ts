/**
 * Reads rendered by a request header (`collections[].variants`, src/learn/header-variants.ts): a read sending a
 * variant's header value (`Accept: application/vnd.…v2+json`) is answered from the same state as the primary reads,
 * with the variant's list and item envelopes, each entity rendered by the variant's fields (`/stats/views` from
 * `/views`), and the variant's content type. A read of a kind the variant never confirmed (a list when only item
 * reads were recorded so, a write) is no state read; an unknown id the recording never showed the variant's answer
 * to is the explained miss, never the primary not-found passed off as the variant's.
 */
import type { Collection, Entity } from "../../model/model-schema.js";
import { pathOfPointer, readPointer } from "../../util/json-pointer.js";
import { explainedAnswer } from "./explain-miss.js";
import type { TwinRequest, TwinResponse } from "./twin-types.js";

export type Variant = NonNullable<Collection["variants"]>[number];

/** Each variant's view of its collection, and each view's entity rendering. */
const views = new WeakMap<Variant, Collection>();
const renderers = new WeakMap<Collection, (e: Entity) => Entity>();

/** The variant a request's headers ask for, or undefined (the primary rendering). */
export function variantOf(c: Collection, req: TwinRequest): Variant | undefined {
  if (!c.variants?.length) return undefined;
  const sent = new Map(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), v]));
  return c.variants.find((v) => sent.get(v.header) === v.value);
}

/** An entity as the variant renders it: each field from its primary leaf (or its constant), in the variant's order. */
function render(fields: Variant["fields"], e: Entity): Entity {
  const out: Entity = {};
  for (const f of fields) {
    const value = "from" in f ? readPointer(e, f.from) : structuredClone(f.value);
    if (value === undefined) continue;
    const path = pathOfPointer(f.pointer);
    let node: Record<string, unknown> = out;
    for (const seg of path.slice(0, -1)) {
      const next = node[seg];
      if (next === null || typeof next !== "object" || Array.isArray(next)) node[seg] = {};
      node = node[seg] as Record<string, unknown>;
    }
    node[path[path.length - 1]!] = value;
  }
  return out;
}

/** An entity as a collection (or a variant's view of one) shows it. */
export function renderedView(c: Collection, e: Entity): Entity {
  const r = renderers.get(c);
  return r ? r(e) : e;
}

/**
 * The variant's view of the collection: its envelopes and not-found; what only the primary reads showed (totals
 * in headers or envelope leaves, a list's own view, projections, counts, other misses) is left out.
 */
export function variantView(c: Collection, v: Variant): Collection {
  let view = views.get(v);
  if (!view) {
    const {
      envelope_fields: _f,
      total_headers: _t,
      link_header: _l,
      list_view: _v,
      counts: _c,
      item_projections: _p,
      item_assertions: _a,
      not_found_id: _n,
      gone: _g,
      gone_id: _gi,
      gone_ids: _gs,
      malformed_id: _m,
      malformed_id_id: _mi,
      etag: _e,
      ...rest
    } = c;
    view = {
      ...rest,
      envelope: v.envelope ?? c.envelope,
      item_envelope: v.item_envelope ?? c.item_envelope,
      not_found: v.not_found,
    };
    renderers.set(view, (e) => render(v.fields, e));
    views.set(v, view);
  }
  return view;
}

/** True when the variant confirmed reads of this kind (a list envelope for lists, an item envelope for items). */
export function variantServes(v: Variant, kind: string): boolean {
  return kind === "list" ? v.envelope !== null : kind === "item" ? v.item_envelope !== null : false;
}

/** A state answer under the variant: its content type; an unknown id it never recorded, the explained miss. */
export function variantAnswer(v: Variant, res: TwinResponse, tool: string): TwinResponse {
  if (res.served_by === "state" && (res.status === 404 || res.status === 410) && v.not_found === null)
    return explainedAnswer(
      501,
      {
        error: "unrecorded_variant",
        message: `${tool}: the recording never showed what the app answers to an unknown id when ${v.header} is ${JSON.stringify(v.value)}; apptwin does not pass another rendering's not-found off as it`,
        hint: `Record a read of an id that does not exist with ${v.header}: ${v.value}, then rebuild the bundle.`,
      },
      "miss",
      tool,
    );
  if (res.served_by !== "state" || v.content_type === null || res.status >= 300) return res;
  return { ...res, headers: { ...res.headers, "content-type": v.content_type } };
}
