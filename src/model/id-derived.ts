/**
 * Values derived from an entity's id, as learning confirms them and serve computes them (`from_id` field rules):
 * the id's last segment (a file's `name` in a path id `projects/a.ipynb`) and the standard media type of that
 * segment's extension (`text/markdown` for `.md`). One definition for both sides, so what serve writes is exactly
 * what learning checked against every recorded entity.
 */

/** The separator of path ids (`projects/a.ipynb`). */
export const ID_PATH_SEPARATOR = "/";

/** The id after its last `/` (the whole id when it holds none). */
export function lastSegment(id: string): string {
  return id.slice(id.lastIndexOf(ID_PATH_SEPARATOR) + 1);
}

/**
 * The extension of the id's last segment, lower case with its dot (`.md`), or "" when it has none (a folder
 * `projects`, a dotfile `.env`, a name ending in a dot).
 */
export function extensionOf(id: string): string {
  const name = lastSegment(id);
  const at = name.lastIndexOf(".");
  return at <= 0 || at === name.length - 1 ? "" : name.slice(at).toLowerCase();
}

/**
 * The standard media types of common extensions: only those the usual tables (IANA registrations, Python's
 * `mimetypes`, mime-db, Apache's and nginx's `mime.types`) agree on, so an app's own table is expected to give the
 * same. Extensions the tables disagree on (`.js`, `.xml`, `.ico`, `.wav`) or that no standard registers (`.ipynb`)
 * are left out: an app's value for them is learned only from what the recording showed.
 */
export const STANDARD_MEDIA_TYPES: Readonly<Record<string, string>> = {
  ".bmp": "image/bmp",
  ".css": "text/css",
  ".csv": "text/csv",
  ".gif": "image/gif",
  ".htm": "text/html",
  ".html": "text/html",
  ".jpeg": "image/jpeg",
  ".jpg": "image/jpeg",
  ".json": "application/json",
  ".md": "text/markdown",
  ".mp3": "audio/mpeg",
  ".mp4": "video/mp4",
  ".pdf": "application/pdf",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".tar": "application/x-tar",
  ".tif": "image/tiff",
  ".tiff": "image/tiff",
  ".tsv": "text/tab-separated-values",
  ".txt": "text/plain",
  ".wasm": "application/wasm",
  ".webm": "video/webm",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".zip": "application/zip",
};

/** How a `from_id` rule derives its value. */
export interface IdDerivation {
  derive: "last_segment" | "media_type";
  /** For `media_type`: the values the recording showed for extensions the standard table lacks ("" for none). */
  known?: Readonly<Record<string, string | null>>;
}

/**
 * The value derived from `id`, or `unknown` when the rule cannot tell it: a media type for an extension neither
 * the recording nor the standard table holds.
 */
export function deriveFromId(rule: IdDerivation, id: string): { value: string | null } | { unknown: string } {
  if (rule.derive === "last_segment") return { value: lastSegment(id) };
  const ext = extensionOf(id);
  if (rule.known && Object.hasOwn(rule.known, ext)) return { value: rule.known[ext]! };
  const standard = STANDARD_MEDIA_TYPES[ext];
  return standard === undefined ? { unknown: ext } : { value: standard };
}
