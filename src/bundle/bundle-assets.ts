/**
 * The recorded static assets a browsable twin serves: app-origin documents,
 * scripts, styles, images and fonts (and the images and fonts the browser
 * loaded by itself, a favicon) that answered 2xx with a complete body.
 * The latest observation of each URL (path and query: `load-scripts.php?load=a`
 * and `?load=b` are two scripts) wins; files are content-addressed
 * (`assets/<sha256-16>.<ext>`) so identical bytes are stored once.
 */
import { createHash } from "node:crypto";
import type { Evidence } from "../evidence/evidence-schema.js";
import { ASSET_TYPES } from "../learn/api-records.js";
import type { ManifestAsset } from "./bundle-schema.js";

const EXT_BY_MIME: Record<string, string> = {
  "text/html": "html",
  "text/javascript": "js",
  "application/javascript": "js",
  "application/x-javascript": "js",
  "text/css": "css",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/svg+xml": "svg",
  "image/webp": "webp",
  "image/x-icon": "ico",
  "image/vnd.microsoft.icon": "ico",
  "font/woff": "woff",
  "font/woff2": "woff2",
  "font/ttf": "ttf",
  "font/otf": "otf",
  "application/json": "json",
  "text/plain": "txt",
  "application/manifest+json": "webmanifest",
  "audio/mpeg": "mp3",
  "video/mp4": "mp4",
};

/** Content types of what a browser loads by itself (resource type "other") that a page shows: images and fonts. */
const BROWSER_LOADED = /^\s*(image|font)\//i;

function header(headers: { name: string; value: string }[], name: string): string | null {
  let found: string | null = null;
  for (const h of headers) if (h.name.toLowerCase() === name) found = h.value;
  return found;
}

/** The file extension for a content type, else the URL path's own (lowercase alphanumerics), else `bin`. */
export function assetExtension(contentType: string, urlPath: string): string {
  const mime = contentType.split(";")[0]!.trim().toLowerCase();
  const known = EXT_BY_MIME[mime];
  if (known) return known;
  const m = /\.([a-z0-9]{1,8})$/i.exec(urlPath);
  return m ? m[1]!.toLowerCase() : "bin";
}

/** The sha256 of bytes, as lowercase hex. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Picks the assets of an evidence: manifest entries sorted by URL path, and the files by bundle path. */
export function collectAssets(evidence: Evidence): {
  assets: ManifestAsset[];
  files: Map<string, Uint8Array>;
} {
  const latest = new Map<string, ManifestAsset & { bytes: Uint8Array }>();
  for (const r of evidence.records) {
    if (r.initiator !== "page") continue;
    if (r.request.method.toUpperCase() !== "GET" || r.failure !== null || r.response === null) continue;
    const { status, body } = r.response;
    if (status < 200 || status > 299 || body === null || body.truncated) continue;
    let url: URL;
    try {
      url = new URL(r.request.url);
    } catch {
      continue;
    }
    if (url.origin !== evidence.app_origin) continue;
    const contentType =
      header(r.response.headers, "content-type") ?? body.mime_type ?? "application/octet-stream";
    // The browser's own loads (a favicon) are "other": kept when they are an image or a font.
    if (
      !ASSET_TYPES.has(r.resource_type) &&
      !(r.resource_type === "other" && BROWSER_LOADED.test(contentType))
    )
      continue;
    const bytes =
      body.encoding === "base64"
        ? new Uint8Array(Buffer.from(body.text, "base64"))
        : new TextEncoder().encode(body.text);
    const file = `assets/${sha256Hex(bytes).slice(0, 16)}.${assetExtension(contentType, url.pathname)}`;
    const path = url.pathname + url.search;
    latest.set(path, { path, file, content_type: contentType, status, bytes });
  }
  const assets: ManifestAsset[] = [];
  const files = new Map<string, Uint8Array>();
  for (const path of [...latest.keys()].sort()) {
    const { bytes, ...entry } = latest.get(path)!;
    assets.push(entry);
    files.set(entry.file, bytes);
  }
  return { assets, files };
}
