/**
 * The Location of a redirect answer (post-redirect-get: a form write answered
 * 302/303), as recorded and as a template a served write can fill in: the
 * app's own origin dropped (the twin answers on its own), and the written
 * entity's id as `{<id field>}`.
 */
import type { Entity } from "../model/model-schema.js";
import { safeDecode } from "../util/safe-decode.js";
import type { Observation } from "./endpoint-index.js";

/** True for a redirect status (3xx). */
export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** The recorded Location of an answer (the header, else the recorder's `redirect_to`), or null. */
export function redirectTarget(o: Observation): string | null {
  const res = o.record.response;
  const h = res?.headers.find((x) => x.name.toLowerCase() === "location");
  return h?.value ?? res?.redirect_to ?? null;
}

/** The path (and query) a Location points to on the app's own origin, or null when it leaves it. */
export function localPath(location: string, o: Observation): string | null {
  try {
    const base = new URL(o.record.request.url);
    const url = new URL(location, base);
    return url.origin === base.origin ? url.pathname + url.search : null;
  } catch {
    return null;
  }
}

/** The id a create's redirect names: the one segment its Location adds to the create's own path, or null. */
export function redirectedId(o: Observation): string | null {
  const location = redirectTarget(o);
  const path = location === null ? null : localPath(location, o);
  if (path === null || path.includes("?")) return null;
  const own = `/${o.segments.map(encodeURIComponent).join("/")}/`;
  const rest = path.startsWith(own) ? path.slice(own.length) : "";
  return rest !== "" && !rest.includes("/") ? safeDecode(rest) : null;
}

/** The Location template of a redirected write: the local path with the entity's id as `{<idField>}`, else the Location as recorded. */
export function locationTemplate(o: Observation, entity: Entity | null, idField: string): string | null {
  const location = redirectTarget(o);
  if (location === null) return null;
  const path = localPath(location, o);
  if (path === null) return location;
  const id = entity?.[idField];
  if (typeof id !== "string" && typeof id !== "number") return path;
  const [p, q] = path.split("?") as [string, string | undefined];
  const segments = p.split("/").map((s) => (s !== "" && safeDecode(s) === String(id) ? `{${idField}}` : s));
  return segments.join("/") + (q === undefined ? "" : `?${q}`);
}
