/**
 * The model's endpoints compiled into a route table: match a method and path
 * to one endpoint (literal segments win over parameters, earlier segments
 * first), and find the nearest route for a miss. Compiled once per Model.
 *
 * A greedy parameter (`{id+}`: an id holding `/`) takes one or more segments,
 * those between the literals before it and the segments after it. Precedence is
 * fixed: a route without a greedy parameter wins over one with (it names every
 * segment); between greedy routes, the first differing segment before the
 * parameter decides as above, then the route with more segments after it
 * (`/files/{id+}/checkpoints` over `/files/{id+}`), then the label order.
 */
import type { Endpoint, Model } from "../../model/model-schema.js";
import { safeDecode } from "../../util/safe-decode.js";

/** One compiled endpoint: its segments (null for a parameter) and parameter names. */
export interface Route {
  endpoint: Endpoint;
  segments: (string | null)[];
  params: string[];
  /** Per parameter: the literal text after its value in the segment (`/issues/{id}.json` → `.json`), or "". */
  suffixes: string[];
  /** The index in `segments` of the greedy parameter (`{id+}`), or -1. */
  greedy: number;
  /**
   * True when the greedy parameter, last in the route, may also take no segment, binding "": a create into a
   * folder of a path tree whose root folder the list answers are (`tree.root`), so `POST /files` creates in the root.
   */
  root?: boolean;
  /** `GET /api/items/{id}` */
  label: string;
}

/** A matched route with its path parameter values (decoded). */
export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

const PARAM = /^\{([^}]+)\}(.*)$/;
const tables = new WeakMap<Model, Route[]>();

/** Splits a path into segments, ignoring a trailing slash (`/api/items/` is `/api/items`). */
export function pathSegments(path: string): string[] {
  const parts = path.split("/").slice(1);
  if (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/**
 * True when the endpoint is a create into a folder of a path tree with a root folder (`tree.root`): served, or
 * withheld (its root path then answers the explained 501, never a 404 saying the app has no such route).
 */
function createsInTreeRoot(model: Model, endpoint: Endpoint): boolean {
  const rule = model.write_rules.find((r) => r.tool_name === endpoint.tool_name);
  const c = model.collections.find((x) => x.name === endpoint.collection);
  const creates = rule
    ? rule.kind === "create"
    : endpoint.kind === "create" && endpoint.serving === "withheld";
  return creates && c?.tree?.root !== undefined;
}

/** The model's routes, sorted by label (cached per model object). */
export function routeTable(model: Model): Route[] {
  let table = tables.get(model);
  if (!table) {
    table = model.endpoints
      .map((endpoint) => {
        const raw = pathSegments(endpoint.template);
        const params: string[] = [];
        const suffixes: string[] = [];
        let greedy = -1;
        const segments = raw.map((seg, i) => {
          const m = PARAM.exec(seg);
          // A template holds its literals percent-encoded (`api%3A%3Aarticle.article`); requests are compared decoded.
          if (!m) return safeDecode(seg);
          const name = m[1]!;
          // One greedy parameter per route: a second `+` is read as a plain parameter.
          if (name.endsWith("+") && greedy < 0 && m[2] === "") greedy = i;
          params.push(name.endsWith("+") ? name.slice(0, -1) : name);
          suffixes.push(safeDecode(m[2]!));
          return null;
        });
        const root = greedy === segments.length - 1 && createsInTreeRoot(model, endpoint);
        return {
          endpoint,
          segments,
          params,
          suffixes,
          greedy,
          ...(root ? { root } : {}),
          label: `${endpoint.method} ${endpoint.template}`,
        };
      })
      .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
    tables.set(model, table);
  }
  return table;
}

/** The suffix of the parameter at segment `i` of a route ("" for a literal or a bare parameter). */
function suffixAt(r: Route, i: number): string {
  let p = 0;
  for (let k = 0; k < i; k++) if (r.segments[k] === null) p++;
  return r.segments[i] === null ? (r.suffixes[p] ?? "") : "";
}

/**
 * Compares two candidate routes: a route without a greedy parameter wins; else at the first differing place before
 * any greedy parameter, a literal wins, then a parameter with a suffix; between greedy routes, more segments after.
 */
function moreSpecific(a: Route, b: Route): boolean {
  if (a.greedy < 0 !== b.greedy < 0) return a.greedy < 0;
  const upTo = a.greedy < 0 ? a.segments.length : Math.min(a.greedy, b.greedy);
  for (let i = 0; i < upTo; i++) {
    const la = a.segments[i] !== null;
    const lb = b.segments[i] !== null;
    if (la !== lb) return la;
    if (!la) {
      const sa = suffixAt(a, i).length;
      const sb = suffixAt(b, i).length;
      if (sa !== sb) return sa > sb;
    }
  }
  if (a.greedy >= 0 && a.greedy !== b.greedy) return a.greedy > b.greedy;
  return a.greedy >= 0 && a.segments.length - a.greedy > b.segments.length - b.greedy;
}

/**
 * The segments aligned to a route's: with a greedy parameter, the ones it takes are joined by `/` into one (at least
 * one segment); null when the count cannot fit.
 */
function align(route: Route, segs: string[]): string[] | null {
  if (route.greedy < 0) return route.segments.length === segs.length ? segs : null;
  const after = route.segments.length - route.greedy - 1;
  const end = segs.length - after;
  // No segment left for it: only a route into a tree's root folder binds "" (`POST /files`).
  if (end === route.greedy && route.root) return [...segs, ""];
  if (end <= route.greedy) return null;
  return [...segs.slice(0, route.greedy), segs.slice(route.greedy, end).join("/"), ...segs.slice(end)];
}

/** The parameter values of a route for the segments, or null when a segment does not fit it. */
function bind(route: Route, request: string[]): Record<string, string> | null {
  const segs = align(route, request);
  if (segs === null) return null;
  const params: Record<string, string> = {};
  let p = 0;
  for (const [i, lit] of route.segments.entries()) {
    const seg = segs[i]!;
    if (lit !== null) {
      if (lit !== seg) return null;
      continue;
    }
    const suffix = route.suffixes[p] ?? "";
    if (suffix !== "" && !(seg.endsWith(suffix) && seg.length > suffix.length)) return null;
    params[route.params[p++]!] = suffix === "" ? seg : seg.slice(0, -suffix.length);
  }
  return params;
}

/** A path segment decoded (one without an escape is its own decoding). */
const decoded = (seg: string) => (seg.includes("%") ? safeDecode(seg) : seg);

/** Finds the endpoint serving `method path`, or null. HEAD matches GET routes. */
export function matchRoute(model: Model, method: string, path: string): RouteMatch | null {
  const upper = method.toUpperCase();
  const want = upper === "HEAD" ? "GET" : upper;
  const segs = pathSegments(path).map(decoded);
  let best: RouteMatch | null = null;
  for (const route of routeTable(model)) {
    if (route.endpoint.method !== want) continue;
    const params = bind(route, segs);
    if (params && (best === null || moreSpecific(route, best.route))) best = { route, params };
  }
  return best;
}

/** Edit distance over segments; a parameter segment matches any value at no cost. */
function segmentDistance(req: string[], tpl: (string | null)[]): number {
  let prev = Array.from({ length: tpl.length + 1 }, (_, j) => j);
  for (let i = 1; i <= req.length; i++) {
    const cur = [i];
    for (let j = 1; j <= tpl.length; j++) {
      const t = tpl[j - 1];
      const sub = t === null || t === req[i - 1] ? 0 : 1;
      cur.push(Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + sub));
    }
    prev = cur;
  }
  return prev[tpl.length]!;
}

/** The nearest route to a missed request: same method first, then fewest segment edits, then label order. */
export function nearestRoute(model: Model, method: string, path: string): Route | null {
  const want = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  const segs = pathSegments(path).map(safeDecode);
  let best: { route: Route; key: [number, number] } | null = null;
  for (const route of routeTable(model)) {
    const key: [number, number] = [
      route.endpoint.method === want ? 0 : 1,
      segmentDistance(align(route, segs) ?? segs, route.segments),
    ];
    if (!best || key[0] < best.key[0] || (key[0] === best.key[0] && key[1] < best.key[1])) {
      best = { route, key };
    }
  }
  return best?.route ?? null;
}
