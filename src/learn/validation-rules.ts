/**
 * Learns the validation failures a recording confirms: a write answered 400
 * or 422 whose request differed from every successful request of the
 * endpoint in one respect — a field they all sent non-empty lacking or blank,
 * a value of another JSON type, null where they sent values or left it out,
 * a number beyond every one they sent, a field none of them sent (when the
 * app's answer names it). The twin answers such a request with
 * the recorded status and body, before applying the write.
 */
import type { Endpoint, Entity, ValidationRule } from "../model/model-schema.js";
import { isCredentialName } from "../util/credential-name.js";
import { pathOfPointer, pointerEntries, pointerOf, readPointer } from "../util/json-pointer.js";
import type { EndpointGroup, Observation } from "./endpoint-index.js";
import { canned } from "./read-model.js";
import { isRedirect } from "./redirect-location.js";
import type { RefusedWrite, WriteObservation } from "./state-walk.js";
import type { OthersBefore } from "./update-scopes.js";
import { isObject } from "./value-kinds.js";

/** Statuses that answer an invalid body; 401/403/404/409/413 and the like mean something else (decision). */
const VALIDATION_STATUSES = new Set([400, 422]);
/** A conflict with the state (a stale revision, a value taken) may also be answered 409 or 412. */
const CONFLICT_STATUSES = new Set([400, 409, 412, 422]);

/** What the walk showed of an endpoint's writes: the state each refusal and each success met (state-walk.ts). */
export interface ValidationState {
  refused: ReadonlyMap<Observation, RefusedWrite>;
  /** The endpoint's successful writes, with what they met. */
  writes: readonly WriteObservation[];
  /**
   * For an update: the other entities each of its writes met (update-scopes.ts), the walk keeping a scope only for
   * creates. Absent: no update is judged for uniqueness.
   */
  othersBefore?: OthersBefore;
}

type Body = Record<string, unknown>;

/** A request body as an object (JSON object, or the form's values), or null. */
function bodyOf(o: Observation): Body | null {
  if ((o.request.kind === "json" || o.request.kind === "form") && isObject(o.request.value))
    return o.request.value;
  return null;
}

/** Missing, null, or a string of nothing but white space. */
export function isBlank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === "string" && v.trim() === "");
}

/** True when the JSON answer holds `name` as a key or as a whole string value (`{"field": "title"}`). */
function names(value: unknown, name: string, depth = 0): boolean {
  if (depth > 6) return false;
  // A JSON pointer to the field names it too (`{"path": "/title"}`, as JSON Schema validators answer).
  if (typeof value === "string") return value === name || value === `/${name}`;
  if (Array.isArray(value)) return value.some((v) => names(v, name, depth + 1));
  if (isObject(value)) return Object.entries(value).some(([k, v]) => k === name || names(v, name, depth + 1));
  return false;
}

type JsonType = NonNullable<ValidationRule["types"]>[number];

/** The JSON type of a sent value (integers are numbers), or null for null and undefined. */
function jsonType(v: unknown): JsonType | null {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return "array";
  const t = typeof v;
  return t === "string" || t === "number" || t === "boolean" || t === "object" ? t : null;
}

/** One way a failed request differed from every success, in one field. */
interface Anomaly {
  pointer: string;
  kind: "missing" | "type" | "null" | "range" | "stale" | "unique" | "sent";
  /** For `type`: the types successes sent. */
  types?: JsonType[];
  /** For `range`: the failed value, and the side of the accepted values it lay on. */
  value?: number;
  side?: "below" | "above";
  /** For `unique` and `stale` of a wrapped body (`/project/identifier`): the entity's field compared. */
  entityField?: string;
  /** For `unique`: the clash held only when letter case is ignored (`Howto` against `howto`). */
  ignoreCase?: boolean;
  /** For `unique`: the id of the entity the refused value clashed with. */
  clashId?: unknown;
}

/** What every success sent in each field: the values (undefined where one left it out), by pointer. */
function successFields(bodies: Body[]): Map<string, unknown[]> {
  const pointers = new Set<string>();
  for (const b of bodies) for (const p of leaves(b).keys()) pointers.add(p);
  return new Map([...pointers].map((p) => [p, bodies.map((b) => readPointer(b, p))]));
}

/**
 * Every respect in which a failed body differs from every success: a field every success sent that it lacks or
 * leaves blank (on a PATCH only one it sent null or blank), a value of a type no success sent, null where successes
 * sent values or left the field out, a number beyond every success's.
 */
function anomalies(body: Body, fields: Map<string, unknown[]>, partial: boolean): Anomaly[] {
  const out: Anomaly[] = [];
  const failed = leaves(body);
  for (const [pointer, values] of fields) {
    const v = readPointer(body, pointer);
    const sent = values.filter((x) => x !== undefined);
    if (values.every((x) => !isBlank(x))) {
      if (isBlank(v) && (!partial || v !== undefined)) {
        out.push({ pointer, kind: "missing" });
        continue;
      }
    } else if (v === null && sent.length > 0 && sent.every((x) => x !== null)) {
      out.push({ pointer, kind: "null" });
      continue;
    }
    const types = [...new Set(sent.map(jsonType))];
    const t = jsonType(v);
    if (t === null || types.includes(null) || types.length === 0) continue;
    if (!types.includes(t)) {
      out.push({ pointer, kind: "type", types: (types as JsonType[]).sort() });
      continue;
    }
    if (t === "number" && types.length === 1) {
      const nums = sent as number[];
      if ((v as number) < Math.min(...nums))
        out.push({ pointer, kind: "range", value: v as number, side: "below" });
      else if ((v as number) > Math.max(...nums))
        out.push({ pointer, kind: "range", value: v as number, side: "above" });
    }
  }
  // A field no success sent at all is another respect the failure differs in (which the app may refuse).
  for (const p of failed.keys()) if (!fields.has(p)) out.push({ pointer: p, kind: "sent" });
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const scalar = (v: unknown) => (typeof v === "string" && v.trim() !== "") || typeof v === "number";

/** The request body of a successful write as an object, or null. */
const sentBody = (w: WriteObservation) => bodyOf(w.obs);

/** Equal as the app compared: exactly, or (with `ignoreCase`) as strings whose letter case alone differs. */
function sameValue(a: unknown, b: unknown, ignoreCase: boolean): boolean {
  if (same(a, b)) return true;
  return ignoreCase && typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();
}

/**
 * The respects in which a refused body differs from every success in the state it met (its fields, through a
 * wrapped body's objects: `/project/identifier` compares the entity's `identifier`): a value other than the one its
 * entity held where every success sent the held one (a stale revision), or a value an entity of its scope held where
 * no success sent a held one (uniqueness; compared ignoring letter case only when the refused value matched no entity
 * exactly, and then no success matched one that way either). Each needs a success that shows the contrast. For an
 * update the entities compared are the others of its scope (of the collection, for its id field: a rename onto an id
 * another entity holds), and every success that sent the field must have met a state the walk tells.
 */
function stateAnomalies(o: Observation, body: Body, state: ValidationState | undefined): Anomaly[] {
  const met = state?.refused.get(o);
  if (!met) return [];
  const idField = state!.writes[0]?.target.collection.idField;
  const out: Anomaly[] = [];
  for (const [pointer, v] of leaves(body)) {
    if (v === undefined) continue;
    const k = keyOf(pointer);
    const nested = pathOfPointer(pointer).length > 1;
    const sentAt = (w: WriteObservation) => {
      const b = sentBody(w);
      return b === null ? undefined : readPointer(b, pointer);
    };
    const extra = nested ? { entityField: k } : {};
    if (met.pre && Object.hasOwn(met.pre, k) && scalar(v) && !same(v, met.pre[k])) {
      const shown = state!.writes.filter((w) => w.pre && Object.hasOwn(w.pre, k) && sentAt(w) !== undefined);
      if (shown.length > 0 && shown.every((w) => same(sentAt(w), w.pre![k])))
        out.push({ pointer, kind: "stale", ...extra });
    }
    if (!scalar(v)) continue;
    // A create met its scope; an update, the other entities the walk up to it shows.
    const held = met.scope ?? state!.othersBefore?.(o, k) ?? null;
    if (!held) continue;
    const exact = held.find((e) => same(e[k], v));
    const folded = exact ?? held.find((e) => sameValue(e[k], v, true));
    if (!folded) continue;
    const ignoreCase = exact === undefined;
    const metBy = (w: WriteObservation): readonly Entity[] | null | undefined =>
      met.scope ? w.scopeBefore : (state!.othersBefore?.(w.obs, k) ?? null);
    const shown = state!.writes.filter((w) => scalar(sentAt(w)) && metBy(w) !== undefined);
    const told = shown.map(metBy);
    if (
      shown.length > 0 &&
      told.every((es, i) => es && !es.some((e) => sameValue(e[k], sentAt(shown[i]!), ignoreCase)))
    )
      out.push({
        pointer,
        kind: "unique",
        ...extra,
        ...(ignoreCase ? { ignoreCase: true } : {}),
        ...(idField !== undefined && folded[idField] !== undefined ? { clashId: folded[idField] } : {}),
      });
  }
  return out;
}

/** True when a string of the answer mentions the field's name as a word, any case (`Hours cannot be blank`). */
function mentions(value: unknown, key: string, depth = 0): boolean {
  if (depth > 6 || key === "") return false;
  if (typeof value === "string") {
    const word = key.replace(/[_-]+/g, " ").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`(^|[^A-Za-z0-9])${word}([^A-Za-z0-9]|$)`, "i").test(value.replace(/[_-]+/g, " "));
  }
  if (Array.isArray(value)) return value.some((v) => mentions(v, key, depth + 1));
  if (isObject(value)) return Object.values(value).some((v) => mentions(v, key, depth + 1));
  return false;
}

/**
 * The pointers of an answer holding exactly `id` (a scalar), where the app echoes the entity a value clashed with
 * (`data.term_id`), sorted.
 */
function idPointers(value: unknown, id: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, at: string, depth: number): void => {
    if (depth > 6) return;
    if (Array.isArray(v)) for (const [i, x] of v.entries()) walk(x, `${at}/${i}`, depth + 1);
    else if (isObject(v)) for (const [k, x] of Object.entries(v)) walk(x, `${at}${pointerOf(k)}`, depth + 1);
    else if (at !== "" && (typeof v === "number" || typeof v === "string") && same(v, id)) out.push(at);
  };
  walk(value, "", 0);
  return out.sort();
}

/** The answer with each of `pointers` set to `value` (a copy). */
function withAt(answer: unknown, pointers: readonly string[], value: unknown): unknown {
  const copy = structuredClone(answer);
  for (const p of pointers) {
    const path = pathOfPointer(p);
    let node = copy as Record<string, unknown>;
    for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
    node[path.at(-1)!] = value;
  }
  return copy;
}

/**
 * The validation rules of one write endpoint: a failure (400/422) is learned only when its body differs from every
 * success in one respect (`anomalies`), or in several of which its answer names exactly one field. Never when its
 * answer names another field it sent and not this one. A field and kind whose failures answered differently gets
 * no rule.
 */
export function learnValidations(group: EndpointGroup, state?: ValidationState): ValidationRule[] {
  const none: ValidationRule[] = [];
  if (group.method === "DELETE") return none;
  const success = group.observations.filter(
    (o) => (o.status >= 200 && o.status < 300) || isRedirect(o.status),
  );
  const bodies = success.map(bodyOf);
  if (bodies.length === 0 || bodies.some((b) => b === null)) return none;
  const fields = successFields(bodies as Body[]);
  // A PATCH may leave any field out: only a field it sent null or blank can be what the app refused.
  const partial = group.method === "PATCH";
  const byKey = new Map<string, { a: Anomaly; failures: Observation[]; clashes: unknown[] }>();
  for (const o of group.observations) {
    const body = bodyOf(o);
    if (!CONFLICT_STATUSES.has(o.status) || body === null) continue;
    let found = [...anomalies(body, fields, partial), ...stateAnomalies(o, body, state)];
    // 409 and 412 answer a conflict with the state, never a malformed field.
    if (!VALIDATION_STATUSES.has(o.status))
      found = found.filter((x) => x.kind === "stale" || x.kind === "unique");
    const answer = o.response.kind === "json" ? o.response.value : undefined;
    if (found.length > 1) {
      const named = found.filter((x) => names(answer, keyOf(x.pointer)));
      // A message mentioning one of the fields that each explain the refusal breaks the tie (never decides alone).
      found = named.length > 0 ? named : found.filter((x) => mentions(answer, keyOf(x.pointer)));
    }
    if (found.length !== 1) continue;
    const a = found[0]!;
    // A field no success sent is what the app refused only when its answer names it (`additionalProperty: "id"`).
    if (a.kind === "sent" && !names(answer, keyOf(a.pointer))) continue;
    // An answer naming another field the request sent, and not this one, blames that field (`{field: "status"}`).
    const sent = [...leaves(body).keys()].filter((p) => p !== a.pointer).map(keyOf);
    const blamed = sent.some((k) => k !== keyOf(a.pointer) && names(answer, k));
    if (blamed && !names(answer, keyOf(a.pointer))) continue;
    const key = `${a.pointer}\u0000${a.kind}\u0000${a.side ?? ""}\u0000${a.ignoreCase ? "i" : ""}`;
    const entry = byKey.get(key) ?? { a, failures: [], clashes: [] };
    entry.failures.push(o);
    entry.clashes.push(a.clashId);
    // Of several failures beyond the same side, the one nearest the accepted values bounds the rule.
    if (a.side === "below" && a.value! > entry.a.value!) entry.a = a;
    if (a.side === "above" && a.value! < entry.a.value!) entry.a = a;
    byKey.set(key, entry);
  }
  const rules: ValidationRule[] = [];
  for (const key of [...byKey.keys()].sort()) {
    const { a, failures, clashes } = byKey.get(key)!;
    let answers = failures.map(canned);
    // A uniqueness answer may echo the entity the value clashed with (`term_id`): where every failure's answer holds
    // its clashing entity's id at the same places, the twin fills them from the entity it clashes with.
    const clash = a.kind === "unique" ? clashPointers(answers, clashes) : [];
    if (clash.length > 0) answers = answers.map((x) => ({ ...x, body: withAt(x.body, clash, null) }));
    // Where every failure's answer spells the value it sent (or the id its path named) alike, the twin spells the
    // request's own; the answers are then compared without those texts.
    const spell = a.kind === "unique" ? spellings(failures, answers, a.pointer, idParamOf(state)) : [];
    const compared =
      spell.length > 0 ? answers.map((x) => ({ ...x, body: withoutTexts(x.body, spell) })) : answers;
    if (new Set(compared.map((x) => JSON.stringify(x))).size > 1) continue;
    // Two sides of one field answered alike are one rule; answered otherwise, two.
    const field = pathOfPointer(a.pointer).join(".");
    const at = failures.map((o) => `records[${o.index}]`).join(", ");
    const head = `${group.method} ${group.template} answers ${answers[0]!.status} with the recorded body when the request body`;
    const rule = {
      tool_name: group.toolName,
      field,
      pointer: a.pointer,
      ...answers[0]!,
      ...(partial && a.kind === "missing" ? { only_when_sent: true as const } : {}),
      ...(a.entityField !== undefined ? { entity_field: a.entityField } : {}),
      ...(a.ignoreCase ? { ignore_case: true as const } : {}),
      ...(clash.length > 0 ? { clash } : {}),
      ...(spell.length > 0 ? { spell } : {}),
    };
    const kinded = kindOf(a, fields, head, field, at, partial);
    rules.push({ ...rule, ...kinded, explain: kinded.explain + uniqueNote(a, state, spell) });
  }
  return rules;
}

export type Spelling = NonNullable<ValidationRule["spell"]>[number];
type Part = Spelling["parts"][number];

/** The path parameter naming the entity an endpoint's writes update, or null (a create, or none recorded). */
function idParamOf(state: ValidationState | undefined): string | null {
  const t = state?.writes[0]?.target;
  return t && t.kind !== "create" ? t.idParam : null;
}

/** A letter, digit, `_` or `-`: a character a spelled value never borders on. */
const WORD = /[\p{L}\p{N}_-]/u;

/**
 * The places of `text` where `value` stands as a whole token: bordered by the text's ends or by characters that are
 * no part of a word (a `.` only where no word character follows it: `data.csv.` ends a sentence, `data.csv.bak`
 * is another name).
 */
function tokenAt(text: string, value: string): number[] {
  const out: number[] = [];
  const border = (c: string | undefined, next: string | undefined) =>
    c === undefined || !(WORD.test(c) || (c === "." && next !== undefined && WORD.test(next)));
  for (let i = text.indexOf(value); i >= 0; i = text.indexOf(value, i + value.length)) {
    const end = i + value.length;
    if (
      border(text[i - 1], text[i - 1] === "." ? text[i - 2] : undefined) &&
      border(text[end], text[end + 1])
    )
      out.push(i);
  }
  return out;
}

/** A text cut where it spells `value` (`from`), each literal run kept as it is; null when it spells none. */
function cut(text: string, value: string, from: "value" | "own_id"): Part[] | null {
  if (value === "") return null;
  const at = tokenAt(text, value);
  if (at.length === 0) return null;
  const parts: Part[] = [];
  let last = 0;
  for (const i of at) {
    if (i > last) parts.push(text.slice(last, i));
    parts.push({ from });
    last = i + value.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** A text of the answer as parts: where it spells the sent value, then (in the rest) the entity's own id. */
function spelled(text: string, value: string, own: string | null): Part[] | null {
  const byValue = cut(text, value, "value") ?? [text];
  const parts =
    own === null || own === value
      ? byValue
      : byValue.flatMap((p) => (typeof p === "string" ? (cut(p, own, "own_id") ?? [p]) : [p]));
  return parts.some((p) => typeof p !== "string") ? parts : null;
}

/** The texts of one answer (its string leaves, or a text answer whole) spelling the sent value or the own id. */
export function spellingsOf(body: unknown, value: string, own: string | null): Spelling[] {
  const texts: [string, unknown][] = typeof body === "string" ? [["", body]] : pointerEntries(body, 6);
  const out: Spelling[] = [];
  for (const [pointer, v] of texts) {
    const parts = typeof v === "string" ? spelled(v, value, own) : null;
    if (parts) out.push({ pointer, parts });
  }
  return out.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
}

/**
 * The texts every failure's answer spells the same way, in the value it sent at `pointer` (`File already exists:
 * data.csv`) or the id its path named (`own_id`); none unless each failure spells alike and its value is a scalar
 * of a field whose name says no credential (the twin spells only what the request itself sent).
 */
function spellings(
  failures: Observation[],
  answers: { body: unknown }[],
  pointer: string,
  idParam: string | null,
): Spelling[] {
  if (isCredentialName(keyOf(pointer))) return [];
  const sent = failures.map((o) => readPointer(bodyOf(o) ?? {}, pointer));
  if (!sent.every(scalar)) return [];
  const sents = sent.map(String);
  const owns = failures.map((o) => (idParam === null ? null : (o.pathParams[idParam] ?? null)));
  const each = failures.map((_, i) => spellingsOf(answers[i]!.body, sents[i]!, owns[i]!));
  const first = each[0];
  if (!first || each.some((x) => !same(x, first))) return [];
  const from = new Set(first.flatMap((s) => s.parts.flatMap((p) => (typeof p === "string" ? [] : [p.from]))));
  if (from.has("value") && !spellingDecided(sents, first, "value")) return [];
  if (
    from.has("own_id") &&
    !spellingDecided(
      owns.map((x) => x ?? ""),
      first,
      "own_id",
    )
  )
    return [];
  return first;
}

/**
 * True when the refusals' values decide that the answer's texts spell the value (`from`): two or more different ones
 * spelled alike, a value no ordinary word is (it holds a character other than a letter: `data.csv`, `42`), or each
 * text spelling it once. One refusal spelling `File` twice in "File already exists: File" does not tell which
 * `File` is the value, nor `a` in "a file named a exists".
 */
export function spellingDecided(
  values: readonly string[],
  spell: readonly Spelling[],
  from: "value" | "own_id",
): boolean {
  if (new Set(values).size >= 2 || values.some((v) => /[^\p{L}]/u.test(v))) return true;
  return spell.every((s) => s.parts.filter((p) => typeof p !== "string" && p.from === from).length <= 1);
}

/** The answer with the spelled texts left out (null), to compare answers that spelled other values alike. */
export function withoutTexts(body: unknown, spell: readonly Spelling[]): unknown {
  if (spell.some((s) => s.pointer === "")) return null;
  return withAt(
    body,
    spell.map((s) => s.pointer),
    null,
  );
}

/**
 * The places of the answers (the same in each) holding the id of the entity each failure's value clashed with; none
 * unless every failure knew its clashing entity and its answer holds that id somewhere.
 */
function clashPointers(answers: { body: unknown }[], clashes: unknown[]): string[] {
  if (clashes.some((c) => c === undefined || c === null)) return [];
  const each = answers.map((x, i) => idPointers(x.body, clashes[i]));
  const first = each[0] ?? [];
  return each.every((p) => same(p, first)) ? first : [];
}

/** What a uniqueness rule's explain adds: the id field it is (a rename or a create naming the id), and its spelling. */
function uniqueNote(a: Anomaly, state: ValidationState | undefined, spell: readonly Spelling[]): string {
  if (a.kind !== "unique") return "";
  const target = state?.writes[0]?.target;
  const id =
    target && pathOfPointer(a.pointer).length === 1 && keyOf(a.pointer) === target.collection.idField
      ? target.kind === "create"
        ? " It is the entity's id, chosen by the client."
        : " It is the entity's id: a rename onto an id another entity holds."
      : "";
  const spelt = spell.flatMap((s) => s.parts).filter((p) => typeof p !== "string");
  const what = [
    ...(spelt.some((p) => p.from === "value") ? ["the value the request sends"] : []),
    ...(spelt.some((p) => p.from === "own_id") ? ["the id its path names"] : []),
  ].join(" and ");
  return `${id}${what === "" ? "" : ` The answer spells ${what} where the recorded one spelled its own (${spell.map((s) => s.pointer || "the whole text").join(", ")}).`}`;
}

/** The kind-specific part of a validation rule, with its explain sentence. */
function kindOf(
  a: Anomaly,
  fields: Map<string, unknown[]>,
  head: string,
  field: string,
  at: string,
  partial: boolean,
): Pick<ValidationRule, "kind" | "types" | "below" | "above" | "explain"> {
  const name = JSON.stringify(field);
  switch (a.kind) {
    case "missing":
      return {
        explain: partial
          ? `${head} sends ${name} null or blank (a partial update may leave it out; recorded at ${at}).`
          : `${head} lacks ${name} or leaves it blank (every successful request sent it; recorded at ${at}).`,
      };
    case "null":
      return {
        kind: "null",
        explain: `${head} sends ${name} null (successful requests sent a value or left it out; recorded at ${at}).`,
      };
    case "type":
      return {
        kind: "type",
        types: a.types!,
        explain: `${head} sends ${name} as another type than ${a.types!.join(" or ")} (every successful request that sent it sent ${a.types!.length === 1 ? "that" : "one of those"}; recorded at ${at}).`,
      };
    case "stale":
      return {
        kind: "stale",
        explain: `${head} sends ${name} other than the value the entity holds (a stale revision: every successful request sent the one it held; recorded at ${at}).`,
      };
    case "sent":
      return {
        kind: "sent",
        explain: `${head} sends ${name} at all (no successful request sent it, and the app's answer names it; recorded at ${at}).`,
      };
    case "unique":
      return {
        kind: "unique",
        explain: `${head} sends a ${name} another entity already holds${a.ignoreCase ? " (letter case ignored)" : ""} (no successful request sent a held one; recorded at ${at}).`,
      };
    case "range": {
      const nums = fields.get(a.pointer)!.filter((x) => typeof x === "number") as number[];
      const edge = a.side === "below" ? Math.min(...nums) : Math.max(...nums);
      const beyond = a.side === "below" ? "or lower" : "or higher";
      return {
        kind: "range",
        [a.side!]: a.value!,
        explain: `${head} sends ${name} ${a.value} ${beyond} (the ${a.side === "below" ? "lowest" : "highest"} a successful request sent was ${edge}; between them the recording does not tell; recorded at ${at}).`,
      };
    }
  }
}

/** How deep a wrapped body is walked for its fields. */
const MAX_DEPTH = 4;

/** The fields of a body by pointer: its scalar values and empty ones, through objects (never into arrays). */
function leaves(body: Body, at = "", depth = 0, out = new Map<string, unknown>()): Map<string, unknown> {
  for (const [k, v] of Object.entries(body)) {
    const p = `${at}${pointerOf(k)}`;
    if (isObject(v) && Object.keys(v).length > 0 && depth < MAX_DEPTH) leaves(v, p, depth + 1, out);
    else out.set(p, v);
  }
  return out;
}

/** The last key of a pointer: the name an answer may give the field by. */
function keyOf(pointer: string): string {
  return pathOfPointer(pointer).at(-1) ?? "";
}

interface ObjectSchema {
  type?: unknown;
  properties?: Record<string, unknown>;
  required?: string[];
}

/**
 * Marks what the app requires as required in the endpoints' request schemas (the MCP tools' inputs): each field a
 * validation rule (never a PATCH's `only_when_sent` one) shows the app refusing a request without, through a wrapped
 * body's objects (`issue.subject`). A request schema alone requires only what every recorded request sent, and a
 * recorded failure lacks exactly the field the app requires.
 */
export function requireValidatedFields(endpoints: Endpoint[], validations: ValidationRule[]): void {
  const byTool = new Map(endpoints.map((e) => [e.tool_name, e]));
  for (const v of validations) {
    // A type, null or range rule says how a sent value fails, not that the field must be sent.
    if (v.only_when_sent || v.kind !== undefined) continue;
    let schema = byTool.get(v.tool_name)?.request_schema as ObjectSchema | null | undefined;
    for (const key of pathOfPointer(v.pointer)) {
      if (schema?.type !== "object" || !isObject(schema.properties?.[key])) break;
      if (!(schema.required ?? []).includes(key)) schema.required = [...(schema.required ?? []), key].sort();
      schema = schema.properties![key] as ObjectSchema;
    }
  }
}
