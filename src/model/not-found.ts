/**
 * A not-found answer that names the id it was asked for (`Entity not found: Todo with id 99`,
 * `file or directory does not exist: 'nope.md'`): learn confirms that the recorded answers name their
 * own request's id, serve writes the requested id in its place. The id counts only as a whole token
 * (not `99` inside `199` or `v99a`).
 */

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const token = (id: string) => new RegExp(`(?<![A-Za-z0-9])${escapeRegex(id)}(?![A-Za-z0-9])`, "g");

/** Whether some string of the value (a JSON body, or a text) names the id as a whole token. */
export function namesId(value: unknown, id: string): boolean {
  if (id === "") return false;
  if (typeof value === "string") return token(id).test(value);
  if (Array.isArray(value)) return value.some((v) => namesId(v, id));
  if (value !== null && typeof value === "object") return Object.values(value).some((v) => namesId(v, id));
  return false;
}

/** The value with every whole-token occurrence of `from` in its strings replaced by `to` (a fresh copy). */
export function renameId(value: unknown, from: string, to: string): unknown {
  if (typeof value === "string") return value.replace(token(from), () => to);
  if (Array.isArray(value)) return value.map((v) => renameId(v, from, to));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameId(v, from, to)]));
  return value;
}

const INT_ID = /^-?\d+$/;
const UUID_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path's id could name an entity of a collection whose ids are of this kind (any text for `string`). */
export function fitsIdKind(value: string, kind: "int" | "uuid" | "string"): boolean {
  if (kind === "int") return INT_ID.test(value);
  if (kind === "uuid") return UUID_ID.test(value);
  return true;
}
