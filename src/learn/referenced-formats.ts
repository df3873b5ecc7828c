/**
 * Formats whose literal text may be a referenced entity's value (issue 10 items 5, 8): every recorded create of a
 * comment named post 5 and answered `link: "http://host/getting-started-with-the-api/#comment-" + id`, so the link
 * was learned as that text + the id, and a comment on post 4 was answered with post 5's link (WordPress gives the
 * post's link + `#comment-` + id). Where the referenced entity's collection is held, the format learns a `lookup`
 * part instead (format-rule.ts); where it is not, the literal cannot be told from the reference's value. A format
 * is kept only under the condition it was recorded in (`given`, as reference-constants.ts does for constants) when
 * (1) its literal text holds a word nothing the API names explains (no route segment, its singular, nor the app's
 * origin: `/wp-json/wp/v2/comments/` + id is explained, `getting-started-with-the-api` is not), and (2) exactly one
 * request field names another collection of the API (`post` for `/posts`, `project_id` for `/projects`) and every
 * recorded write sent it with one same value. The twin then answers it only for that value, an explained miss for
 * another (serve's apply-field-rules.ts): the recording does not show what the app gives for another reference.
 */
import type { FieldEntry, FieldRule } from "../model/model-schema.js";
import { canonicalJsonCompact } from "../util/canonical-json.js";
import { isCredentialName } from "../util/credential-name.js";
import { pointerOf } from "../util/json-pointer.js";
import { isObject, singular } from "./value-kinds.js";

type Format = Extract<FieldRule, { kind: "format" }>;

/** The lowercase words of a text (letters and digits), of three characters or more and holding a letter. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3 && /[a-z]/.test(w));
}

/** The words the API itself names: its routes' literal segments (and their singulars) and its origin. */
export function apiWords(templates: readonly string[], origin: string): Set<string> {
  const out = new Set<string>(["http", "https", "www"]);
  for (const w of words(origin)) out.add(w);
  for (const t of templates)
    for (const seg of t.split("/"))
      if (!seg.startsWith("{"))
        for (const w of words(seg)) {
          out.add(w);
          out.add(singular(w));
        }
  return out;
}

/** True when a request field's name names a collection the API routes to (`post` → `posts`, `project_id`). */
function namesCollection(key: string, known: ReadonlySet<string>): boolean {
  const base = key.replace(/(_ids?|Ids?)$/, "").toLowerCase();
  if (base.length < 3 || isCredentialName(key)) return false;
  const plural = base.endsWith("y") ? `${base.slice(0, -1)}ies` : `${base}s`;
  return known.has(plural) && singular(plural) === base;
}

/** The one request pointer (top level) naming another collection, sent with one same scalar every time, or null. */
function referencePointer(
  bodies: unknown[],
  known: ReadonlySet<string>,
): { pointer: string; values: string[]; absent: boolean } | null {
  if (bodies.length === 0 || !bodies.every(isObject)) return null;
  const keys = [...new Set(bodies.flatMap((b) => Object.keys(b as object)))].filter((k) =>
    namesCollection(k, known),
  );
  const single = keys.filter((k) => {
    const vals = new Set(
      bodies.map((b) => {
        const v = (b as Record<string, unknown>)[k];
        return typeof v === "string" || typeof v === "number" ? canonicalJsonCompact(v) : null;
      }),
    );
    return vals.size === 1 && !vals.has(null);
  });
  if (keys.length !== 1 || single.length !== 1) return null;
  const key = single[0]!;
  const value = canonicalJsonCompact((bodies[0] as Record<string, unknown>)[key]);
  if (value.includes("[REDACTED:")) return null;
  return { pointer: pointerOf(key), values: [value], absent: false };
}

/** True when the format's literal text holds a word the API's own names do not explain. */
function unexplained(rule: Format, known: ReadonlySet<string>): boolean {
  return rule.parts.some((p) => "text" in p && words(p.text).some((w) => !known.has(w)));
}

function conditioned(
  rule: FieldRule,
  given: NonNullable<Format["given"]>,
  known: ReadonlySet<string>,
): FieldRule {
  if (rule.kind === "format")
    return rule.given === undefined && unexplained(rule, known) ? { ...rule, given } : rule;
  if (rule.kind === "object")
    return {
      ...rule,
      fields: rule.fields.map((f) => ({ field: f.field, rule: conditioned(f.rule, given, known) })),
    };
  if (rule.kind === "array")
    return { kind: "array", items: rule.items.map((r) => conditioned(r, given, known)) };
  return rule;
}

/**
 * The fields of a create with each format whose literal the one recorded reference may decide put under that
 * condition. `bodies`: the request bodies of the write's successful observations; `known`: `apiWords` of the model.
 */
export function withReferencedFormats(
  fields: FieldEntry[],
  bodies: unknown[],
  known: ReadonlySet<string>,
): FieldEntry[] {
  const given = referencePointer(bodies, known);
  if (given === null) return fields;
  return fields.map(({ field, rule }) => ({ field, rule: conditioned(rule, given, known) }));
}
