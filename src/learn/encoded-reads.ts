/**
 * Item reads with a query that re-encode a field (`GET /api/contents/data.csv?type=file&format=base64`: the file's
 * text as base64, `format` the parameter's value). A query is such an encoding when every recorded read with exactly
 * those parameters of an entity whose plain value the state held answered it with every field as held except fields
 * that are the base64 of the held text (decoded exactly, re-encoded alike) and fields that echo a parameter's value,
 * each echoed field held one value in all of them (`format: "text"`). A read of such a query of an entity the state
 * knew only from lists (those fields null) then teaches its plain value: the decoded text, and the echoed fields'
 * plain value. Rejected: a query whose reads change any other field, one no read with the plain value confirms, an
 * echoed field whose plain value differs between reads, and a value that is no exact base64 of the text.
 */
import type { Entity, ItemEnvelope } from "../model/model-schema.js";
import { queryKey } from "../model/query-key.js";
import { appendTo } from "../util/append-to.js";
import { itemEntity } from "./collections.js";
import type { Observation } from "./endpoint-index.js";

/** The text a base64 value (lines of any length) encodes, when re-encoding it gives the value back exactly. */
function base64Text(v: unknown): string | null {
  if (typeof v !== "string") return null;
  const packed = v.replace(/\s+/g, "");
  if (packed.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(packed)) return null;
  const text = Buffer.from(packed, "base64").toString("utf8");
  return Buffer.from(text, "utf8").toString("base64") === packed ? text : null;
}

/** How one read's answer differs from the entity held: encoded fields, echoed fields (with the held value), or null. */
function difference(
  answer: Entity,
  held: Entity,
  query: [string, string][],
): { encoded: string[]; echoed: Map<string, unknown> } | null {
  const keys = Object.keys(answer);
  if (keys.length !== Object.keys(held).length || !keys.every((k) => k in held)) return null;
  const values = new Set(query.map(([, v]) => v));
  const encoded: string[] = [];
  const echoed = new Map<string, unknown>();
  for (const k of keys) {
    if (JSON.stringify(answer[k]) === JSON.stringify(held[k])) continue;
    if (typeof held[k] === "string" && base64Text(answer[k]) === held[k]) encoded.push(k);
    else if (typeof answer[k] === "string" && values.has(answer[k] as string)) echoed.set(k, held[k]);
    else return null;
  }
  return encoded.length > 0 ? { encoded: encoded.sort(), echoed } : null;
}

/**
 * Per item read of a confirmed encoding whose entity the state held without those fields: the entity as a plain read
 * would show it. Empty when no query is confirmed so.
 */
export function plainFromEncodedReads(
  item: { observations: Observation[] },
  envelope: ItemEnvelope,
  held: ReadonlyMap<Observation, Entity | null>,
): Map<Observation, Entity> {
  const groups = new Map<string, Observation[]>();
  for (const o of item.observations) if (held.get(o)) appendTo(groups, queryKey(o.query), o);
  const out = new Map<Observation, Entity>();
  for (const reads of groups.values()) {
    const answer = (o: Observation) =>
      itemEntity(o.response.kind === "json" ? o.response.value : undefined, envelope);
    const unknown = (o: Observation, fields: string[]) => fields.every((f) => held.get(o)![f] === null);
    let rule: { encoded: string[]; plain: Map<string, string> } | null = null;
    let ok = true;
    const teaching: Observation[] = [];
    for (const o of reads) {
      const a = answer(o);
      if (!a) {
        ok = false;
        break;
      }
      const d = difference(a, held.get(o)!, o.query);
      if (d) {
        const plain = new Map([...d.echoed].map(([k, v]) => [k, JSON.stringify(v)]));
        const same =
          rule === null ||
          (rule.encoded.join() === d.encoded.join() &&
            rule.plain.size === plain.size &&
            [...plain].every(([k, v]) => rule!.plain.get(k) === v));
        if (!same) {
          ok = false;
          break;
        }
        rule = { encoded: d.encoded, plain };
      } else teaching.push(o);
    }
    if (!ok || rule === null) continue;
    const { encoded, plain } = rule;
    for (const o of teaching) {
      const a = answer(o)!;
      const state = held.get(o)!;
      if (!unknown(o, [...encoded, ...plain.keys()])) continue;
      const e: Entity = { ...a };
      let fits = Object.keys(a).length === Object.keys(state).length;
      for (const k of Object.keys(a)) {
        if (encoded.includes(k)) {
          const text = base64Text(a[k]);
          if (text === null) fits = false;
          else e[k] = text;
        } else if (plain.has(k)) e[k] = JSON.parse(plain.get(k)!);
        else if (JSON.stringify(a[k]) !== JSON.stringify(state[k])) fits = false;
      }
      if (fits) out.set(o, e);
    }
  }
  return out;
}
