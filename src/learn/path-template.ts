/**
 * Path templates from a tree of segments over every distinct path the app
 * answered, whatever the method: a segment is a parameter when it is an id by
 * shape, when it is one of several varying siblings whose values appear as
 * ids in bodies, or when its value identifies an entity the list read of its
 * parent path showed (by role: `/projects/website` under `/projects` listing
 * a project whose `identifier` is `website`), or when it ends a path only ever
 * answered "not found" beside such ids (an unknown id, `/api/contents/nope.md`), or when it is one of several word
 * siblings whose sub-paths answered alike (`/projects/website/issue_categories.json` and the same under
 * `mobile-app`, one shape: no list of projects needed), or one of several whose answers name them by their stem
 * (`/wiki/Roadmap.json` answering `{"wiki_page": {"title": "Roadmap"}}`). A file-type suffix stays literal
 * around the id (`/issues/{id}.json`). `api`, `v1`-like and date segments
 * never are parameters. An id that holds `/` (a file path `projects/a.ipynb`
 * an entity of the recording holds as a value) spans several segments: its
 * parameter is greedy (`{id+}`), and literal segments may follow it
 * (`/api/contents/{content_id+}/checkpoints`). The result depends on the set of
 * paths, not their order.
 */

import { appendTo } from "../util/append-to.js";
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
  /** Per parameter: true when it is greedy, spanning one or more segments (`{id+}`). */
  multi: boolean[];
  /** The path's segments with a multi-segment id joined into one (`["api", "contents", "projects/a.ipynb"]`). */
  segments: string[];
}

interface Node {
  children: Map<string, Node>;
  /** The recorded paths (segments joined by `/`) this node stands for: several once siblings merged into a parameter. */
  raws: Set<string>;
  /** Parameter children by the suffix that follows the value in the segment ("" for a whole segment). */
  params: Map<string, Node>;
  /** On a parameter node: its values may span several segments (an id holding `/`). */
  multi?: boolean;
}

const newNode = (): Node => ({ children: new Map(), params: new Map(), raws: new Set() });
/** A segment standing for several joined ones (a multi-segment id). */
const isJoined = (seg: string) => seg.includes("/");

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
  child.raws.add(segments.slice(0, at + 1).join("/"));
  insert(child, segments, at + 1);
}

function mergeInto(target: Node, source: Node): void {
  for (const raw of source.raws) target.raws.add(raw);
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
  if (source.multi) target.multi = true;
}

/** What marks a segment as an id: values of id-like keys anywhere, and the keys of entities listed per list path. */
export interface IdEvidence {
  idValues: ReadonlySet<string>;
  /** List path (segments joined by `/`, the last one without its suffix) → values of its entities' unique fields. */
  keysByList: ReadonlyMap<string, ReadonlySet<string>>;
  /** Paths (segments joined by `/`) every request of which was answered 404 or 410 (a GET 400/422 too): an unknown or unparsable id, not a route. */
  missed?: ReadonlySet<string>;
  /**
   * Ids holding `/` that entities of the recording hold as a value (a listed entity's unique field, or an answer
   * naming its own path): where a path embeds one, its segments are one multi-segment id.
   */
  pathIds?: ReadonlySet<string>;
  /**
   * Paths (segments joined by `/`) whose answer holds the path's last segment as a value of its own (the entity
   * names itself): beside multi-segment ids, such a segment is one of them even if no list showed it.
   */
  selfNamed?: ReadonlySet<string>;
  /**
   * Paths (segments joined by `/`) whose 2xx answer holds the last segment's stem, without its file-type suffix, as
   * a string value at its top level or in the one object of an envelope (`{"wiki_page": {"title": "Roadmap"}}` at
   * `/wiki/Roadmap.json`): the entity names itself by that segment, so several such siblings are ids.
   */
  stemNamed?: ReadonlySet<string>;
  /**
   * Per path (segments joined by `/`): per method, the JSON bodies of its 2xx answers (a few). Two word siblings
   * whose sub-paths answered alike are one parameter (`/projects/website/issue_categories.json` and
   * `/projects/mobile-app/issue_categories.json`).
   */
  answers?: ReadonlyMap<string, ReadonlyMap<string, readonly unknown[]>>;
}

const SHAPE_DEPTH = 4;

/**
 * True when two JSON answers have one shape: the same kind of value, an object's keys one a subset of the other's
 * (optional fields) with the common ones alike, a list's first items alike (an empty list is like any). `null` is
 * like anything. Only the first levels are compared.
 */
export function sameShape(a: unknown, b: unknown, depth = 0): boolean {
  if (depth >= SHAPE_DEPTH || a === null || b === null) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return false;
    return a.length === 0 || b.length === 0 || sameShape(a[0], b[0], depth + 1);
  }
  if (typeof a !== typeof b) return false;
  if (typeof a !== "object") return true;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const [small, large] = Object.keys(ra).length <= Object.keys(rb).length ? [ra, rb] : [rb, ra];
  for (const k of Object.keys(small)) {
    if (!Object.hasOwn(large, k)) return false;
    if (!sameShape(small[k], large[k], depth + 1)) return false;
  }
  return true;
}

/**
 * The answers below a node by relative path (`wiki/index.json`) and method: every descendant reached through
 * literal segments that are not ids by shape (a coincidence of ids, `/posts/1` and `/pages/1`, proves nothing).
 */
function tailAnswers(node: Node, ev: IdEvidence): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  const visit = (n: Node, rel: string[]) => {
    for (const [seg, child] of n.children) {
      if (isJoined(seg) || isIdShaped(splitSuffix(seg).stem)) continue;
      const here = [...rel, seg];
      for (const raw of child.raws)
        for (const [method, bodies] of ev.answers?.get(raw) ?? [])
          for (const body of bodies) appendTo(out, `${method} ${here.join("/")}`, body);
      visit(child, here);
    }
  };
  // The node's own answers, under a key of their own: they can refute a likeness, never prove one.
  for (const raw of node.raws)
    for (const [method, bodies] of ev.answers?.get(raw) ?? [])
      for (const body of bodies) appendTo(out, `${method} ${SELF}`, body);
  visit(node, []);
  return out;
}

/** The key of a node's own answers in `tailAnswers`. */
const SELF = ".";

/** An answer that shows a shape: an empty list, an empty object or null is like anything and proves no likeness. */
const informative = (v: unknown): boolean =>
  v !== null &&
  (Array.isArray(v) ? v.length > 0 : typeof v !== "object" || Object.keys(v as object).length > 0);

/**
 * Word siblings that are one parameter by what answered below them: each shares with another at least one sub-path
 * answered under both with one shape, and none answered a shared sub-path with another shape. Siblings with no
 * sub-path in common (two singleton documents, `/config/a` and `/config/b`) never are.
 */
function alikeBelow(node: Node, segs: string[], ev: IdEvidence): Set<string> {
  const out = new Set<string>();
  if (!ev.answers || segs.length < 2) return out;
  const tails = new Map(segs.map((seg) => [seg, tailAnswers(node.children.get(seg)!, ev)]));
  const unlike = new Set<string>();
  for (let i = 0; i < segs.length; i++)
    for (let j = i + 1; j < segs.length; j++) {
      const a = tails.get(segs[i]!)!;
      const b = tails.get(segs[j]!)!;
      let alike = 0;
      let differ = 0;
      for (const [key, bodiesA] of a) {
        const bodiesB = b.get(key);
        if (!bodiesB || bodiesA.length === 0 || bodiesB.length === 0) continue;
        if (!bodiesA.every((x) => bodiesB.every((y) => sameShape(x, y)))) differ++;
        else if (!key.endsWith(` ${SELF}`) && [...bodiesA, ...bodiesB].some(informative)) alike++;
      }
      if (differ > 0) {
        unlike.add(segs[i]!);
        unlike.add(segs[j]!);
      } else if (alike > 0) {
        out.add(segs[i]!);
        out.add(segs[j]!);
      }
    }
  for (const seg of unlike) out.delete(seg);
  return out;
}

/** Where a recorded multi-segment id sits in a path: the leftmost start after the first segment, the longest run. */
function confirmedRun(segs: string[], ids: ReadonlySet<string> | undefined): [number, number] | null {
  if (!ids || ids.size === 0) return null;
  for (let i = 1; i < segs.length - 1; i++)
    for (let j = segs.length; j >= i + 2; j--) if (ids.has(segs.slice(i, j).join("/"))) return [i, j];
  return null;
}

/** The segments with `[from, to)` joined into one. */
const joinRun = (segs: string[], [from, to]: [number, number]) => [
  ...segs.slice(0, from),
  segs.slice(from, to).join("/"),
  ...segs.slice(to),
];

function collapse(node: Node, ev: IdEvidence, path: string[]): void {
  const listed = ev.keysByList.get(path.join("/"));
  const some = (seg: string, set: ReadonlySet<string> | undefined) =>
    set !== undefined && [...node.children.get(seg)!.raws].some((raw) => set.has(raw));
  // Word siblings compared by what answered below them only where a word may be an id: under a named collection
  // below the API root, not under `api`, a version or an id (`/api/contents` and `/api/sessions` are two routes).
  const parent = path[path.length - 1];
  const mayCompare =
    path.length >= 1 &&
    parent !== undefined &&
    parent !== "{}" &&
    !isNeverParam(parent) &&
    !isIdShaped(parent);
  /** Stems of suffixed siblings made parameters (`Deployment` of `Deployment.json`). */
  const movedStems = new Set<string>();
  const groups = new Map<string, string[]>();
  for (const seg of node.children.keys()) {
    const { suffix } = isJoined(seg) ? { suffix: "" } : splitSuffix(seg);
    for (const s of suffix === "" ? [""] : ["", suffix]) appendTo(groups, s, seg);
  }
  // Beside multi-segment ids, a segment whose answer names itself is one more id of the same kind.
  const hostsPaths = [...node.children.keys()].some(isJoined);
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
    const byPath =
      suffix === "" && hostsPaths ? stems.filter(({ seg }) => isJoined(seg) || some(seg, ev.selfNamed)) : [];
    const words = stems.filter(({ stem }) => !isIdShaped(stem));
    const alike = mayCompare
      ? alikeBelow(
          node,
          words.map(({ seg }) => seg),
          ev,
        )
      : new Set<string>();
    const byAnswers = words.filter(({ seg }) => alike.has(seg));
    const byName = words.filter(({ seg }) => some(seg, ev.stemNamed));
    // A bare segment that is the stem of a suffixed sibling made a parameter is that id with a path below it.
    const byStem = suffix === "" ? words.filter(({ seg }) => movedStems.has(seg)) : [];
    const params = [
      ...byShape,
      ...(byValue.length >= 2 || (byValue.length >= 1 && byShape.length >= 1) ? byValue : []),
      ...byRole,
      ...byPath,
      ...byAnswers,
      ...byStem,
    ];
    if (byName.length >= 2 || params.length > 0) params.push(...byName);
    // A last segment only ever answered "not found" beside ids is an unknown id (`/api/contents/nope.md`).
    const byMiss = stems.filter(({ seg }) => {
      const child = node.children.get(seg)!;
      return some(seg, ev.missed) && child.children.size === 0 && child.params.size === 0;
    });
    if (params.length > 0) params.push(...byMiss);
    // Beside ids, a segment whose own answer names it (`{"path": "todo.txt"}` at `/files/todo.txt`) is one more.
    if (params.length > 0 && !hostsPaths)
      params.push(...stems.filter(({ seg }) => suffix === "" && some(seg, ev.selfNamed)));
    for (const { seg } of [...new Map(params.map((p) => [p.seg, p])).values()].sort((a, b) =>
      a.seg < b.seg ? -1 : 1,
    )) {
      const child = node.children.get(seg)!;
      node.children.delete(seg);
      moved.add(seg);
      if (suffix !== "") movedStems.add(seg.slice(0, -suffix.length));
      if (isJoined(seg)) child.multi = true;
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
  multi: boolean[] = [],
): string {
  let p = 0;
  const parts = literals.map((lit) => {
    if (lit !== null) return encodeURIComponent(lit);
    const out = `{${params[p]}${multi[p] ? "+" : ""}}${encodeURIComponent(suffixes[p] ?? "")}`;
    p++;
    return out;
  });
  return `/${parts.join("/")}`;
}

interface Walked {
  segments: string[];
  literals: (string | null)[];
  suffixes: string[];
  multi: boolean[];
}

/**
 * Walks segments down a collapsed tree: a literal child first, then a parameter with the segment's suffix, then a
 * whole-segment one. A multi-segment parameter takes every segment up to the last one that is a literal after it
 * (`checkpoints`), or to the end: greedy, as the twin's route table binds it. Off the tree, an id-shaped segment is
 * a parameter and any other a literal.
 */
function walk(root: Node, raw: string[]): Walked {
  const out: Walked = { segments: [], literals: [], suffixes: [], multi: [] };
  let node: Node | null = root;
  for (let i = 0; i < raw.length; i++) {
    const seg = raw[i]!;
    const lit: Node | undefined = node?.children.get(seg);
    const { suffix } = splitSuffix(seg);
    const whole: Node | undefined = node?.params.get("");
    if (lit) {
      out.segments.push(seg);
      out.literals.push(seg);
      node = lit;
    } else if (node && suffix !== "" && !isJoined(seg) && node.params.has(suffix)) {
      out.segments.push(seg);
      out.literals.push(null);
      out.suffixes.push(suffix);
      out.multi.push(false);
      node = node.params.get(suffix)!;
    } else if (whole) {
      let end = i + 1;
      if (whole.multi) {
        end = raw.length;
        for (let k = raw.length - 1; k > i; k--)
          if (whole.children.has(raw[k]!)) {
            end = k;
            break;
          }
      }
      out.segments.push(raw.slice(i, end).join("/"));
      out.literals.push(null);
      out.suffixes.push("");
      out.multi.push(whole.multi === true);
      node = whole;
      i = end - 1;
    } else {
      const param = isIdShaped(seg);
      out.segments.push(seg);
      out.literals.push(param ? null : seg);
      if (param) {
        out.suffixes.push("");
        out.multi.push(false);
      }
      node = null;
    }
  }
  return out;
}

/** The collapsed tree of a set of paths. */
function tree(paths: Iterable<string[]>, ev: IdEvidence): Node {
  const root = newNode();
  for (const segments of paths) insert(root, segments, 0);
  collapse(root, ev, []);
  return root;
}

/**
 * Literal segments that follow a multi-segment parameter in the first tree and are a part of the route, not the
 * rest of an id: those after an id the recording confirmed, or after two different ids. Every other segment after
 * it is taken to continue the id (`projects/never-listed.md`).
 */
function pruneTails(root: Node, paths: string[][]): void {
  const heads = new Map<Node, Map<string, Set<string>>>();
  for (const raw of paths) {
    let node: Node | null = root;
    for (let i = 0; i < raw.length && node; i++) {
      const seg = raw[i]!;
      const lit: Node | undefined = node.children.get(seg);
      const whole: Node | undefined = node.params.get("");
      if (lit) node = lit;
      else if (whole) {
        const next = raw[i + 1];
        if (whole.multi && next !== undefined) {
          const seen = heads.get(whole) ?? new Map<string, Set<string>>();
          heads.set(whole, seen);
          const ids = seen.get(next) ?? new Set<string>();
          seen.set(next, ids);
          ids.add(isJoined(seg) ? "/" : seg);
        }
        node = whole;
      } else node = node.params.get(splitSuffix(seg).suffix) ?? null;
    }
  }
  for (const [node, seen] of heads)
    for (const [head, ids] of seen)
      if (!(ids.has("/") || ids.size >= 2) && node.children.get(head)) node.children.delete(head);
}

/** Builds the templater for a set of paths (as segment lists) and what the bodies show of ids. */
export function buildTemplater(
  paths: Iterable<string[]>,
  evidence: ReadonlySet<string> | IdEvidence,
): (segments: string[]) => PathTemplate {
  const ev: IdEvidence =
    evidence instanceof Set ? { idValues: evidence, keysByList: new Map() } : (evidence as IdEvidence);
  const all = [...paths];
  // Multi-segment ids the recording confirms are joined first; the first tree then shows where such ids live,
  // and every path is read again through it, so an id never listed (a file the training only wrote) joins too.
  const joined = all.map((segs) => {
    const run = confirmedRun(segs, ev.pathIds);
    return run ? joinRun(segs, run) : segs;
  });
  let root = tree(joined, ev);
  if (joined.some((segs, i) => segs !== all[i])) {
    pruneTails(root, joined);
    const first = root;
    root = tree(
      all.map((segs) => walk(first, segs).segments),
      ev,
    );
  }
  const cache = new Map<string, PathTemplate>();
  return (segments) => {
    const key = segments.join("/");
    const hit = cache.get(key);
    if (hit) return hit;
    const w = walk(root, segments);
    const params = nameParams(w.literals);
    const out: PathTemplate = {
      template: renderTemplate(w.literals, params, w.suffixes, w.multi),
      literals: w.literals,
      params,
      suffixes: w.suffixes,
      multi: w.multi,
      segments: w.segments,
    };
    cache.set(key, out);
    return out;
  };
}
