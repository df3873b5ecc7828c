/**
 * The JSON an evidence file holds, and back: an asset's body that the page
 * loaded more than once (the same script on every page, a font, a logo) is
 * stored once, in `bodies` under the sha256 of its bytes, and each record's
 * body names it (`"sha256": …`, `"text": ""`), so evidence does not grow with
 * repeated loads. In memory every body holds its text again.
 */
import { createHash } from "node:crypto";
import { ASSET_TYPES } from "./asset-types.js";
import type { Body, Evidence } from "./evidence-schema.js";

/** The bytes of a body as recorded: UTF-8 of a text body, the decoded base64 otherwise. */
function bodyBytes(body: Body): Buffer {
  return body.encoding === "base64" ? Buffer.from(body.text, "base64") : Buffer.from(body.text, "utf8");
}

/** The sha256 (hex) of a body's bytes. */
export function bodySha256(body: Body): string {
  return createHash("sha256").update(bodyBytes(body)).digest("hex");
}

/** An evidence as its file stores it: every asset body loaded twice or more kept once, in `bodies`. */
export function packEvidence(e: Evidence): Evidence {
  const seen = new Map<string, { body: Body; count: number }>();
  const keyOf = new Map<Body, string>();
  for (const r of e.records) {
    const body = r.response?.body;
    if (!body || !ASSET_TYPES.has(r.resource_type) || body.text === "") continue;
    const sha = bodySha256(body);
    const entry = seen.get(sha);
    if (entry && entry.body.encoding !== body.encoding) continue;
    keyOf.set(body, sha);
    if (entry) entry.count++;
    else seen.set(sha, { body, count: 1 });
  }
  const shared = new Map([...seen].filter(([, v]) => v.count > 1));
  if (shared.size === 0) return e;
  const bodies: NonNullable<Evidence["bodies"]> = {};
  for (const [sha, { body }] of [...shared].sort(([a], [b]) => (a < b ? -1 : 1)))
    bodies[sha] = { encoding: body.encoding, text: body.text };
  const records = e.records.map((r) => {
    const body = r.response?.body;
    const sha = body ? keyOf.get(body) : undefined;
    if (!r.response || !body || sha === undefined || !shared.has(sha)) return r;
    return { ...r, response: { ...r.response, body: { ...body, text: "", sha256: sha } } };
  });
  return { ...e, records, bodies };
}

/** The evidence a file holds, every shared body put back in place; a missing one is named. */
export function unpackEvidence(e: Evidence): { evidence: Evidence; missing: string[] } {
  const bodies = e.bodies ?? {};
  const missing: string[] = [];
  const records = e.records.map((r, i) => {
    const body = r.response?.body;
    if (!r.response || !body || body.sha256 === undefined) return r;
    const { sha256, ...rest } = body;
    const stored = Object.hasOwn(bodies, sha256) ? bodies[sha256] : undefined;
    if (stored === undefined || stored.encoding !== body.encoding) {
      missing.push(`records[${i}].response.body.sha256`);
      return r;
    }
    return { ...r, response: { ...r.response, body: { ...rest, text: stored.text } } };
  });
  const { bodies: _, ...rest } = e;
  return { evidence: { ...rest, records }, missing };
}
