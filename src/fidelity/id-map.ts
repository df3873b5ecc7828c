/**
 * The correspondence between ids the real app assigned in the held-out run
 * and the ids the twin assigned to the same creates, so later requests that
 * name the real id are sent to the twin with its own. Integer sequences
 * usually agree (learned sequences continue after the highest id seen);
 * UUIDs never do, which is why the map exists.
 *
 * Ids are paired per collection: project 3 being the twin's 4 says nothing
 * about issue 3. The collection of an id comes from where it sits: the
 * written entity's own id belongs to the write's collection, a nested
 * object's id or a `project_id` key to the collection its key names (see
 * {@link IdScopes}); a path segment to the collection of the item route the
 * path's prefix is. Where no collection is known, only a string id (a UUID,
 * a cuid) paired in exactly one collection is translated: integers collide
 * across collections, strings of that kind do not.
 */

import { isUuid } from "../learn/value-kinds.js";
import type { Model } from "../model/model-schema.js";

const ID_KEY = /^(id|uuid|_id)$|_id$|[a-z]Id$/;
const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** True for a key that names an id (`id`, `uuid`, `*_id`, `*Id`). */
export function isIdKey(key: string): boolean {
  return ID_KEY.test(key);
}

/** `project_id` / `projectId` / `project` → `project`; `id`, `uuid`, `_id` → "". */
function keyStem(key: string): string {
  if (/^(id|uuid|_id)$/.test(key)) return "";
  return key.replace(/_id$|Id$/, "");
}

/**
 * The collection an id belongs to, from the model: item routes give the collection of the path prefix they
 * share (`/projects/{project_id}/versions` → the collection of `/projects/{id}`), and their parameter names
 * and the collections' names give the collection a key names (`project_id`, `project`, `posts` → `posts`).
 */
export class IdScopes {
  readonly #byPrefix = new Map<string, string>();
  readonly #byStem = new Map<string, string>();

  constructor(model: Model | null) {
    if (model === null) return;
    for (const e of model.endpoints) {
      if (e.collection === null) continue;
      const segs = e.template.split("/").slice(1);
      const last = segs.length - 1;
      if (e.kind !== "list" && last >= 0 && segs[last]!.startsWith("{"))
        this.#byPrefix.set(segs.slice(0, last).join("/"), e.collection);
    }
    for (const c of model.collections) {
      this.#byStem.set(c.name, c.name);
      if (c.name.endsWith("s")) this.#byStem.set(c.name.slice(0, -1), c.name);
      if (c.name.endsWith("es")) this.#byStem.set(c.name.slice(0, -2), c.name);
    }
    for (const e of model.endpoints) {
      const segs = e.template.split("/").slice(1);
      segs.forEach((s, i) => {
        const m = /^\{([^}+]+)\+?\}/.exec(s);
        const c = m ? this.#byPrefix.get(segs.slice(0, i).join("/")) : undefined;
        if (m && c !== undefined && keyStem(m[1]!) !== "") this.#byStem.set(keyStem(m[1]!), c);
      });
    }
  }

  /** The scope of a value at `key` (the collection it names, else `key:<stem>`); null for a key naming none. */
  ofKey(key: string): string | null {
    const stem = keyStem(key);
    if (stem === "") return null;
    const c = this.#byStem.get(stem);
    if (c !== undefined) return c;
    return isIdKey(key) ? `key:${stem}` : null;
  }

  /** The scope of a request's field or query value at `key`: the collection it names, `id` the request's own. */
  ofRequestKey(key: string, collection: string | null): string | null {
    return this.ofKey(key) ?? (key === "id" ? collection : null);
  }

  /** The scope of the path segment at `index` of a request matching `template` (its literal prefix's item route). */
  ofSegment(templateSegments: readonly string[], index: number): string | null {
    return this.#byPrefix.get(templateSegments.slice(0, index).join("/")) ?? null;
  }
}

/** One id-like leaf of a JSON document: where it is (keys from the root) and the collection it belongs to. */
export interface IdPlace {
  keys: (string | number)[];
  /** Display path, as compareValues writes it (`body.data.id`). */
  path: string;
  scope: string;
  value: string | number;
}

/**
 * The id-like leaves of a document about an entity of `collection`: the entity's own id (the document, each
 * element of a top-level array, or the one object under an envelope key that holds an id), any other object's
 * id under the key that holds it, and keys that name a collection (`project_id`, `post`).
 */
export function idPlaces(
  doc: unknown,
  collection: string | null,
  scopes: IdScopes,
  root = "body",
): IdPlace[] {
  const out: IdPlace[] = [];
  const hasId = (v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v) && ["id", "uuid", "_id"].some((k) => k in v);
  const walk = (v: unknown, keys: (string | number)[], path: string, self: string | null, depth: number) => {
    if (depth > 16) return;
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) walk(x, [...keys, i], `${path}[${i}]`, self, depth + 1);
      return;
    }
    if (v === null || typeof v !== "object") return;
    const entries = Object.entries(v);
    const envelopeChild =
      !hasId(v) && depth === 0
        ? entries.filter(([, x]) => hasId(x) || (Array.isArray(x) && x.some(hasId)))
        : [];
    for (const [k, x] of entries) {
      const kp = [...keys, k];
      const p = `${path}.${k}`;
      if (x !== null && typeof x === "object") {
        const own =
          envelopeChild.length === 1 && envelopeChild[0]![0] === k ? self : (scopes.ofKey(k) ?? `key:${k}`);
        walk(x, kp, p, own, depth + 1);
        continue;
      }
      if (typeof x !== "string" && typeof x !== "number") continue;
      const scope = keyStem(k) === "" && isIdKey(k) ? self : scopes.ofKey(k);
      if (scope !== null) out.push({ keys: kp, path: p, scope, value: x });
    }
  };
  walk(doc, [], root, collection ?? "key:", 0);
  return out;
}

function at(doc: unknown, keys: readonly (string | number)[]): unknown {
  let v = doc;
  for (const k of keys) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

/**
 * The key of a value a request sent, for {@link IdMap.learn}'s `sent`: under a key naming a collection
 * (`issue_id` → `issues`) it blocks pairing only in that scope, so `issue_id: 2` never stops a new time entry 2
 * being paired; `null` (an `id`, a `name`, a path segment: a value the client may have chosen for any entity)
 * blocks it in every scope.
 */
export function sentKey(scope: string | null, value: string): string {
  return `${scope ?? "*"}\u0000${value}`;
}

/** Real id → twin id per collection, kept by type so `7` and `"7"` stay apart. */
export class IdMap {
  readonly #map = new Map<string, Map<string, string | number>>();

  #key(value: string | number): string {
    return `${typeof value}:${value}`;
  }

  /** Records that the real `real` of `scope` is the twin's `twin` (the first pairing of an id wins). */
  add(scope: string, real: string | number, twin: string | number): void {
    const m = this.#map.get(scope) ?? new Map<string, string | number>();
    this.#map.set(scope, m);
    const k = this.#key(real);
    if (!m.has(k)) m.set(k, twin);
  }

  /** The twin's id for a real id of `scope`; else a string id (not an integer's) paired in exactly one scope. */
  get(scope: string | null, real: unknown): string | number | undefined {
    if (typeof real !== "string" && typeof real !== "number") return undefined;
    const k = this.#key(real);
    const own = scope === null ? undefined : this.#map.get(scope)?.get(k);
    if (own !== undefined) return own;
    if (typeof real !== "string" || /^-?\d+$/.test(real)) return undefined;
    const found = [...this.#map.values()].map((m) => m.get(k)).filter((x) => x !== undefined);
    return found.length === 1 ? found[0] : undefined;
  }

  /** The twin's id for a path segment or query value (a string that may spell a number). */
  translateText(scope: string | null, text: string): string {
    const twin = this.get(scope, text) ?? (/^\d+$/.test(text) ? this.get(scope, Number(text)) : undefined);
    return twin === undefined ? text : String(twin);
  }

  /**
   * The text with each UUID in it that is a real id paired in exactly one scope replaced by the twin's (a not-found
   * message naming the session it did not find): UUIDs never collide, so a pairing anywhere is the one meant.
   */
  translateUuidsIn(text: string): string {
    return text.replace(UUID_IN_TEXT, (u) => {
      const twin = this.get(null, u);
      return typeof twin === "string" ? twin : u;
    });
  }

  /** A copy of a JSON document with each id-like leaf's real id replaced by the twin's. */
  translateJson(doc: unknown, collection: string | null, scopes: IdScopes): unknown {
    const places = idPlaces(doc, collection, scopes);
    if (places.length === 0) return doc;
    const copy = structuredClone(doc);
    for (const p of places) {
      const twin = this.get(p.scope, p.value);
      if (twin === undefined) continue;
      const parent = at(copy, p.keys.slice(0, -1)) as Record<string | number, unknown>;
      parent[p.keys[p.keys.length - 1]!] = twin;
    }
    return copy;
  }

  /**
   * Pairs ids found at the same id-like places of the real and the twin's
   * answer to a write on `collection`. Never a value the request itself
   * `sent` ({@link sentKey}: in any scope, or in the place's own; a
   * reference the client chose is not an id the app assigned, so a wrong
   * one stays a difference). `generated`: UUIDs on both sides,
   * paired before comparing (the twin draws its own); `assigned`: any other
   * differing id, paired after comparing, so the difference is reported
   * once and later requests by the real id still reach the twin's entity.
   */
  learn(
    real: unknown,
    twin: unknown,
    pass: "generated" | "assigned",
    collection: string | null,
    scopes: IdScopes,
    sent: ReadonlySet<string> = new Set(),
  ): void {
    for (const p of idPlaces(real, collection, scopes)) {
      const t = at(twin, p.keys);
      const v = String(p.value);
      if (t === p.value || sent.has(sentKey(null, v)) || sent.has(sentKey(p.scope, v))) continue;
      if (pass === "generated" && isUuid(p.value) && isUuid(t)) this.add(p.scope, p.value, t as string);
      if (
        pass === "assigned" &&
        (typeof t === "number" || typeof t === "string") &&
        typeof t === typeof p.value
      )
        this.add(p.scope, p.value, t);
    }
  }
}
