/**
 * Path templates from a tree of segments over every distinct path the app
 * answered, whatever the method: a segment is a parameter when it is an id by
 * shape, when it is one of several varying siblings whose values appear as
 * ids in bodies, or when its value identifies an entity the list read of its
 * parent path showed (by role: `/projects/website` under `/projects` listing
 * a project whose `identifier` is `website`), or when it ends a path only ever
 * answered "not found" beside such ids (an unknown id, `/api/contents/nope.md`). A file-type suffix stays literal
 * around the id (`/issues/{id}.json`). `api`, `v1`-like and date segments
 * never are parameters. The result depends on the set of paths, not their order.
 */
import { isIdShaped, isNeverParam, singular, snake } from "./value-kinds.js";

/** A path template: its segments (`null` for a parameter) and the parameter names. */
export interface PathTemplate {
  /** `/api/boards/{board_id}/cards/{id}`, `/issues/{id}.json` */
  template: string;
  /** Per segment: the literal, or null for a parameter. */
  literals: (string | null)[];
  /** Parameter names in path order. */
  params: string[];
  /** Per parameter: the literal text after it in its segment (`.json`), or "". */
  suffixes: string[];
}

interface Node {
  children: Map<string, Node>;
  /** Parameter children by the suffix that follows the value in the segment ("" for a whole segment). */
  params: Map<string, Node>;
}

const newNode = (): Node => ({ children: new Map(), params: new Map() });

/** A file-type suffix (`.json`, `.xml`) after a non-empty stem, or none. */
const SUFFIX = /^(.+?)(\.[A-Za-z][A-Za-z0-9]{0,7})$/;

/** Splits a segment into its stem and a file-type suffix (`1.json` → `1`, `.json`). */
export function splitSuffix(segment: string): { stem: string; suffix: string } {
  const m = SUFFIX.exec(segment);
  return m ? { stem: m[1]!, suffix: m[2]! } : { stem: segment, suffix: "" };
}

function insert(node: Node, segments: string[], at: number): void {
  if (at === segments.length) return;
  const seg = segments[at]!;
  let child = node.children.get(seg);
  if (!child) {
    child = newNode();
    node.children.set(seg, child);
  }
  insert(child, segments, at + 1);
}

function mergeInto(target: Node, source: Node): void {
  for (const [seg, child] of source.children) {
    const existing = target.children.get(seg);
    if (existing) mergeInto(existing, child);
    else target.children.set(seg, child);
  }
  for (const [suffix, child] of source.params) {
    const existing = target.params.get(suffix);
    if (existing) mergeInto(existing, child);
    else target.params.set(suffix, child);
  }
}

/** What marks a segment as an id: values of id-like keys anywhere, and the keys of entities listed per list path. */
export interface IdEvidence {
  idValues: ReadonlySet<string>;
  /** List path (segments joined by `/`, the last one without its suffix) → values of its entities' unique fields. */
  keysByList: ReadonlyMap<string, ReadonlySet<string>>;
  /** Paths (segments joined by `/`) every request of which was answered 404 or 410: an unknown id, not a route. */
  missed?: ReadonlySet<string>;
}

function collapse(node: Node, ev: IdEvidence, path: string[]): void {
  const listed = ev.keysByList.get(path.join("/"));
  const groups = new Map<string, string[]>();
  for (const seg of node.children.keys()) {
    const { suffix } = splitSuffix(seg);
    for (const s of suffix === "" ? [""] : ["", suffix]) groups.set(s, [...(groups.get(s) ?? []), seg]);
  }
  const moved = new Set<string>();
  // Suffixed groups first: `1.json` is the id `1` with `.json`, not an opaque id `1.json`.
  for (const [suffix, segs] of [...groups.entries()].sort(([a], [b]) =>
    a === "" ? 1 : b === "" ? -1 : a < b ? -1 : 1,
  )) {
    const stems = segs
      .filter((s) => !moved.has(s))
      .map((seg) => ({ seg, stem: suffix === "" ? seg : seg.slice(0, -suffix.length) }))
      .filter(({ stem }) => stem !== "" && !isNeverParam(stem));
    const byShape = stems.filter(({ stem }) => isIdShaped(stem));
    const byValue = stems.filter(({ stem }) => !isIdShaped(stem) && ev.idValues.has(stem));
    const byRole = stems.filter(({ stem }) => !isIdShaped(stem) && listed?.has(stem));
    const params = [
      ...byShape,
      ...(byValue.length >= 2 || (byValue.length >= 1 && byShape.length >= 1) ? byValue : []),
      ...byRole,
    ];
    // A last segment only ever answered "not found" beside ids is an unknown id (`/api/contents/nope.md`).
    const byMiss = stems.filter(({ seg }) => {
      const child = node.children.get(seg)!;
      return (
        ev.missed?.has([...path, seg].join("/")) === true &&
        child.children.size === 0 &&
        child.params.size === 0
      );
    });
    if (params.length > 0) params.push(...byMiss);
    for (const { seg } of [...new Map(params.map((p) => [p.seg, p])).values()].sort((a, b) =>
      a.seg < b.seg ? -1 : 1,
    )) {
      const child = node.children.get(seg)!;
      node.children.delete(seg);
      moved.add(seg);
      const existing = node.params.get(suffix);
      if (existing) mergeInto(existing, child);
      else node.params.set(suffix, child);
    }
  }
  for (const [seg, child] of node.children) collapse(child, ev, [...path, seg]);
  for (const child of node.params.values()) collapse(child, ev, [...path, "{}"]);
}

/** Names each parameter: `id` when it ends the path, else `<singular previous literal>_id`. */
export function nameParams(literals: (string | null)[]): string[] {
  const names: string[] = [];
  literals.forEach((lit, i) => {
    if (lit !== null) return;
    const prev = i > 0 ? literals[i - 1] : null;
    let name =
      i === literals.length - 1
        ? "id"
        : prev
          ? `${snake(singular(splitSuffix(prev).stem))}_id`
          : `param${i + 1}`;
    if (name === "_id") name = `param${i + 1}`;
    let unique = name;
    for (let n = 2; names.includes(unique); n++) unique = `${name}_${n}`;
    names.push(unique);
  });
  return names;
}

/** Renders literals and parameter names (with their suffixes) as `/api/items/{id}` or `/issues/{id}.json`. */
export function renderTemplate(
  literals: (string | null)[],
  params: string[],
  suffixes: string[] = [],
): string {
  let p = 0;
  const parts = literals.map((lit) => {
    if (lit !== null) return encodeURIComponent(lit);
    const out = `{${params[p]}}${encodeURIComponent(suffixes[p] ?? "")}`;
    p++;
    return out;
  });
  return `/${parts.join("/")}`;
}

/** Builds the templater for a set of paths (as segment lists) and what the bodies show of ids. */
export function buildTemplater(
  paths: Iterable<string[]>,
  evidence: ReadonlySet<string> | IdEvidence,
): (segments: string[]) => PathTemplate {
  const ev: IdEvidence =
    evidence instanceof Set ? { idValues: evidence, keysByList: new Map() } : (evidence as IdEvidence);
  const root = newNode();
  for (const segments of paths) insert(root, segments, 0);
  collapse(root, ev, []);
  const cache = new Map<string, PathTemplate>();
  return (segments) => {
    const key = segments.join("/");
    const hit = cache.get(key);
    if (hit) return hit;
    const literals: (string | null)[] = [];
    const suffixes: string[] = [];
    let node: Node | null = root;
    for (const seg of segments) {
      const lit: Node | undefined = node?.children.get(seg);
      const { suffix } = splitSuffix(seg);
      if (lit) {
        literals.push(seg);
        node = lit;
      } else if (node && suffix !== "" && node.params.has(suffix)) {
        literals.push(null);
        suffixes.push(suffix);
        node = node.params.get(suffix)!;
      } else if (node?.params.has("")) {
        literals.push(null);
        suffixes.push("");
        node = node.params.get("")!;
      } else {
        const param = isIdShaped(seg);
        literals.push(param ? null : seg);
        if (param) suffixes.push("");
        node = null;
      }
    }
    const params = nameParams(literals);
    const out = { template: renderTemplate(literals, params, suffixes), literals, params, suffixes };
    cache.set(key, out);
    return out;
  };
}
