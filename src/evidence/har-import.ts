/**
 * HAR 1.2 → Evidence. A HAR has no steps, so the result is always
 * `incomplete`; entries keep the file's order; apptwin's own HAR exports carry
 * `_apptwin` on each entry, which restores the record exactly. The same
 * redaction as a capture runs before anything is returned.
 */
import type { Issue } from "../errors/user-error.js";
import { DocumentError } from "../errors/user-error.js";
import { zodIssues } from "../errors/zod-issues.js";
import { parseDocumentJson } from "./document-json.js";
import type { Body, EvidenceRecord, ResourceType } from "./evidence-schema.js";
import { EVIDENCE_SCHEMA_VERSION, type Evidence } from "./evidence-schema.js";
import { type Har, HarApptwinSchema, type HarEntry, HarSchema } from "./har-schema.js";
import { createRedactor, redactEvidence } from "./redaction.js";

/** The limitation every HAR import carries. */
export const HAR_LIMITATION = "imported from HAR: no step results";

const CHROME_TYPES: Record<string, ResourceType> = {
  document: "document",
  xhr: "xhr",
  fetch: "fetch",
  script: "script",
  stylesheet: "stylesheet",
  image: "image",
  font: "font",
  media: "media",
  websocket: "websocket",
  manifest: "manifest",
};

/** The resource type of an entry: DevTools' `_resourceType` when present, else guessed from the media type. */
export function resourceTypeOf(entry: HarEntry): ResourceType {
  const declared = entry._resourceType?.toLowerCase();
  if (declared !== undefined) return CHROME_TYPES[declared] ?? "other";
  const mime = (entry.response.content?.mimeType ?? "").toLowerCase();
  if (mime.includes("text/html")) return "document";
  if (mime.includes("javascript") || mime.includes("ecmascript")) return "script";
  if (mime.includes("text/css")) return "stylesheet";
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("font/") || mime.includes("woff")) return "font";
  if (mime.startsWith("audio/") || mime.startsWith("video/")) return "media";
  return "fetch";
}

/**
 * The app's origin: the origin of the first `document` entry (the page the
 * recording started on); without one, the most common origin, ties going to
 * the one seen first.
 */
export function appOriginOf(entries: HarEntry[]): string {
  const firstDoc = entries.find((e) => resourceTypeOf(e) === "document");
  if (firstDoc) return new URL(firstDoc.request.url).origin;
  const counts = new Map<string, number>();
  for (const e of entries) {
    const o = new URL(e.request.url).origin;
    counts.set(o, (counts.get(o) ?? 0) + 1);
  }
  let best = "";
  let bestCount = 0;
  for (const [o, n] of counts) {
    if (n > bestCount) [best, bestCount] = [o, n];
  }
  return best;
}

function headerValue(headers: { name: string; value: string }[], name: string): string | null {
  return headers.find((h) => h.name.toLowerCase() === name)?.value ?? null;
}

function requestBody(entry: HarEntry): Body | null {
  const pd = entry.request.postData;
  if (!pd) return null;
  if (pd.text === undefined && pd.params !== undefined) {
    // Only the parsed fields were kept: the body is rebuilt url-encoded, and says so, so its credential fields are redacted.
    const text = pd.params
      .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value ?? "")}`)
      .join("&");
    const mime = "application/x-www-form-urlencoded";
    return { encoding: "utf8", text, size: Buffer.byteLength(text), truncated: false, mime_type: mime };
  }
  const text = pd.text ?? "";
  const encoding = pd.encoding === "base64" ? "base64" : "utf8";
  const size = Buffer.byteLength(text, encoding === "base64" ? "base64" : "utf8");
  const mime = pd.mimeType || headerValue(entry.request.headers, "content-type");
  return { encoding, text, size, truncated: false, mime_type: mime || null };
}

function responseBody(entry: HarEntry): Body | null {
  const c = entry.response.content;
  if (!c || c.text === undefined) return null;
  const encoding = c.encoding === "base64" ? "base64" : "utf8";
  const decoded = Buffer.byteLength(c.text, encoding === "base64" ? "base64" : "utf8");
  const size = c.size !== undefined && c.size >= 0 ? c.size : decoded;
  return { encoding, text: c.text, size, truncated: false, mime_type: c.mimeType || null };
}

function toRecord(entry: HarEntry, index: number): EvidenceRecord {
  const started = Date.parse(entry.startedDateTime);
  const noResponse = entry.response.status === 0;
  const record: EvidenceRecord = {
    seq: index,
    step_id: null,
    started_at: started,
    duration_ms: entry.time !== undefined && entry.time >= 0 ? entry.time : null,
    resource_type: resourceTypeOf(entry),
    initiator: "page",
    request: {
      method: entry.request.method,
      url: entry.request.url,
      headers: entry.request.headers.map((h) => ({ name: h.name, value: h.value })),
      body: requestBody(entry),
    },
    response: noResponse
      ? null
      : {
          status: entry.response.status,
          status_text: entry.response.statusText ?? "",
          headers: entry.response.headers.map((h) => ({ name: h.name, value: h.value })),
          body: responseBody(entry),
          redirect_to: entry.response.redirectURL || null,
        },
    failure: noResponse
      ? { kind: "network", message: entry.response._error || "no response recorded" }
      : null,
    origin: null,
  };
  return restoreApptwin(entry, record);
}

/** Applies the `_apptwin` block of an apptwin-exported entry (when valid) so the record is restored exactly. */
function restoreApptwin(entry: HarEntry, r: EvidenceRecord): EvidenceRecord {
  const parsed = HarApptwinSchema.safeParse(entry._apptwin);
  if (!parsed.success) return r;
  const a = parsed.data;
  const body = (b: Body | null, meta: typeof a.request_body): Body | null =>
    meta === null ? null : { ...meta, text: b?.text ?? "" };
  return {
    ...r,
    seq: a.seq,
    step_id: a.step_id,
    initiator: a.initiator,
    resource_type: a.resource_type,
    started_at: a.started_at,
    duration_ms: a.duration_ms,
    failure: a.failure,
    origin: a.origin,
    request: { ...r.request, body: body(r.request.body, a.request_body) },
    response:
      a.has_response && r.response ? { ...r.response, body: body(r.response.body, a.response_body) } : null,
  };
}

function parseHar(har: unknown, file: string, found: readonly Issue[]): Har {
  const issues: Issue[] = [...found];
  const parsed = HarSchema.safeParse(har);
  if (!parsed.success) throw new DocumentError(file, [...issues, ...zodIssues(file, parsed.error.issues)]);
  if (!["1.1", "1.2"].includes(parsed.data.log.version)) {
    issues.push({
      code: "unsupported_version",
      path: "log.version",
      // a version number is quoted; any other text is not (it may be anything, a secret too)
      message: `${file}: log.version is ${
        /^\d{1,3}(?:\.\d{1,3}){0,2}$/.test(parsed.data.log.version)
          ? JSON.stringify(parsed.data.log.version)
          : `a text that is no version number (${parsed.data.log.version.length} characters)`
      }; apptwin reads HAR 1.2 (and 1.1)`,
    });
  }
  if (parsed.data.log.entries.length === 0) {
    issues.push({
      code: "empty",
      path: "log.entries",
      message: `${file}: log.entries is empty; record some traffic first`,
    });
  }
  if (issues.length > 0) throw new DocumentError(file, issues);
  return parsed.data;
}

/** What an import is told besides the document: the file's path and base name, and the declared secrets. */
export interface HarImportOptions {
  file: string;
  fileName: string;
  secrets: { id: string; value: string }[];
}

/** Converts HAR 1.2 text to redacted Evidence: its JSON read as evidence's is (depth, keys written twice), then as {@link harToEvidence}. */
export function harTextToEvidence(text: string, opts: HarImportOptions): Evidence {
  const { raw, issues } = parseDocumentJson(text, opts.file);
  return harToEvidence(raw, opts, issues);
}

/** Converts a parsed HAR 1.2 document to redacted Evidence; HAR problems (and `issues` found in its text) → DocumentError naming `file` and the field. */
export function harToEvidence(har: unknown, opts: HarImportOptions, issues: readonly Issue[] = []): Evidence {
  const { log } = parseHar(har, opts.file, issues);
  const records = log.entries.map(toRecord);
  const starts = records.flatMap((r) => (r.started_at === null ? [] : [r.started_at]));
  const ends = records.flatMap((r) => (r.started_at === null ? [] : [r.started_at + (r.duration_ms ?? 0)]));
  return redactEvidence(
    {
      schema_version: EVIDENCE_SCHEMA_VERSION,
      source: {
        kind: "har",
        scenario: null,
        har: { file_name: opts.fileName, creator: `${log.creator.name} ${log.creator.version}`.trim() },
        merged: null,
      },
      app_origin: log._apptwin?.app_origin ?? appOriginOf(log.entries),
      allowed_origins: [],
      browser: log.browser ? { product: log.browser.name, version: log.browser.version } : null,
      started_at: starts.length > 0 ? starts.reduce((a, b) => Math.min(a, b)) : null,
      finished_at: ends.length > 0 ? ends.reduce((a, b) => Math.max(a, b)) : null,
      verdict: "incomplete",
      steps: [],
      records,
      warnings: [],
      limitations: [HAR_LIMITATION],
    },
    createRedactor({ secrets: opts.secrets }),
  );
}
