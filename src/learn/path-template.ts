/**
 * Path templates from a tree of segments over every distinct path the app
 * answered, whatever the method: a segment is a parameter when it is an id by
 * shape, or when it is one of several varying siblings whose values appear
 * as ids in bodies. `api`, `v1`-like and date segments never are. The result
 * depends on the set of paths, not on their order.
 */
import { isIdShaped, isNeverParam, singular, snake } from "./value-kinds.js";

/** A path template: its segments (`null` for a parameter) and the parameter names. */
export interface PathTemplate {
  /** `/api/boards/{board_id}/cards/{id}` */
  template: string;
  /** Per segment: the literal, or null for a parameter. */
  literals: (string | null)[];
  /** Parameter names in path order. */
  params: string[];
}

interface Node {
  children: Map<string, Node>;
  param: Node | null;
}

const newNode = (): Node => ({ children: new Map(), param: null });

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
  if (source.param) {
    if (target.param) mergeInto(target.param, source.param);
    else target.param = source.param;
  }
}

function collapse(node: Node, idValues: ReadonlySet<string>): void {
  const segs = [...node.children.keys()];
  const byShape = segs.filter((s) => isIdShaped(s));
  const byValue = segs.filter((s) => !isIdShaped(s) && !isNeverParam(s) && idValues.has(s));
  const params =
    byValue.length >= 2 || (byValue.length >= 1 && byShape.length >= 1) ? [...byShape, ...byValue] : byShape;
  for (const seg of params.sort()) {
    const child = node.children.get(seg)!;
    node.children.delete(seg);
    if (node.param) mergeInto(node.param, child);
    else node.param = child;
  }
  for (const child of node.children.values()) collapse(child, idValues);
  if (node.param) collapse(node.param, idValues);
}

/** Names each parameter: `id` when it ends the path, else `<singular previous literal>_id`. */
export function nameParams(literals: (string | null)[]): string[] {
  const names: string[] = [];
  literals.forEach((lit, i) => {
    if (lit !== null) return;
    const prev = i > 0 ? literals[i - 1] : null;
    let name = i === literals.length - 1 ? "id" : prev ? `${snake(singular(prev))}_id` : `param${i + 1}`;
    if (name === "_id") name = `param${i + 1}`;
    let unique = name;
    for (let n = 2; names.includes(unique); n++) unique = `${name}_${n}`;
    names.push(unique);
  });
  return names;
}

/** Renders literals and parameter names as `/api/items/{id}`. */
export function renderTemplate(literals: (string | null)[], params: string[]): string {
  let p = 0;
  const parts = literals.map((lit) => (lit === null ? `{${params[p++]}}` : encodeURIComponent(lit)));
  return `/${parts.join("/")}`;
}

/** Builds the templater for a set of paths (as segment lists) and the id values seen in bodies. */
export function buildTemplater(
  paths: Iterable<string[]>,
  idValues: ReadonlySet<string>,
): (segments: string[]) => PathTemplate {
  const root = newNode();
  for (const segments of paths) insert(root, segments, 0);
  collapse(root, idValues);
  const cache = new Map<string, PathTemplate>();
  return (segments) => {
    const key = segments.join("/");
    const hit = cache.get(key);
    if (hit) return hit;
    const literals: (string | null)[] = [];
    let node: Node | null = root;
    for (const seg of segments) {
      const lit: Node | undefined = node?.children.get(seg);
      if (lit) {
        literals.push(seg);
        node = lit;
      } else if (node?.param) {
        literals.push(null);
        node = node.param;
      } else {
        literals.push(isIdShaped(seg) ? null : seg);
        node = null;
      }
    }
    const params = nameParams(literals);
    const out = { template: renderTemplate(literals, params), literals, params };
    cache.set(key, out);
    return out;
  };
}
