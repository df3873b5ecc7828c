/**
 * Not-found answers inferred, never recorded (issue 17 item 6 style; the brief's WordPress review item 5): a
 * collection whose item route the recording read but never missed has no answer of the app's for an unknown id,
 * and the twin answers its own `not_found`. Where every sibling collection of the same API (item routes under the
 * same prefix, in the same shape: `/{id}` + the same suffix) that recorded a miss answered it alike (same status,
 * content type and body), and at least two did, that answer is inferred for it, labelled `not_found_inferred` (the
 * collection's explain says so). Refused when the siblings' answers differ (WordPress's comments, tags and media
 * each name their own kind: `rest_comment_invalid_id`, `rest_term_invalid`, `rest_post_invalid_id`), when one names
 * its collection (a sibling's would name its own), or when only one sibling recorded a miss. Off with `infer: false`.
 */
import type { Collection, Endpoint } from "../model/model-schema.js";
import { canonicalJsonCompact } from "../util/canonical-json.js";
import { splitSuffix } from "./path-template.js";
import { singular } from "./value-kinds.js";

/** The prefix and the item shape of an item template (`/api` and `/{}.json` for `/api/issues/{id}.json`), or null. */
function itemShape(template: string): { prefix: string; stem: string; shape: string } | null {
  const segs = template.split("/");
  if (segs.length < 3) return null;
  const last = segs.at(-1)!;
  const m = /^\{[^}]+\}(.*)$/.exec(last);
  if (!m) return null;
  const { stem } = splitSuffix(segs.at(-2)!);
  if (stem === "" || stem.startsWith("{")) return null;
  return { prefix: segs.slice(0, -2).join("/"), stem, shape: `{}${m[1]}` };
}

/** True when a recorded answer's text names the collection (`Invalid comment ID.`): a sibling's would name its own. */
function namesItself(body: unknown, stem: string): boolean {
  const text = JSON.stringify(body ?? "").toLowerCase();
  return [stem, singular(stem)].some((w) => w.length > 2 && text.includes(w.toLowerCase()));
}

/** The collections with each inferable not-found answer added (see the file comment), in the input order. */
export function inferNotFound(collections: Collection[], endpoints: Endpoint[]): Collection[] {
  const byTool = new Map(endpoints.map((e) => [e.tool_name, e]));
  const shapeOf = (c: Collection) => {
    const item = c.item_endpoint === null ? undefined : byTool.get(c.item_endpoint);
    return item && !item.inferred && !c.singleton ? itemShape(item.template) : null;
  };
  return collections.map((c) => {
    const own = shapeOf(c);
    if (c.not_found !== null || !own) return c;
    const siblings = collections.flatMap((d) => {
      const s = d === c || d.not_found === null ? null : shapeOf(d);
      return s && s.prefix === own.prefix && s.shape === own.shape ? [{ d, s }] : [];
    });
    if (siblings.length < 2 || siblings.some(({ d, s }) => namesItself(d.not_found!.body, s.stem))) return c;
    const answers = new Set(siblings.map(({ d }) => canonicalJsonCompact(d.not_found)));
    if (answers.size !== 1) return c;
    const names = siblings.map(({ d }) => d.name).sort();
    const nf = siblings[0]!.d.not_found!;
    return {
      ...c,
      not_found: nf,
      not_found_inferred: { from: names.join(", ") },
      explain: `${c.explain} Its not-found answer (${nf.status}) is inferred, not recorded: ${names.join(" and ")} answer an unknown id alike (apptwin build --no-infer leaves it out).`,
    };
  });
}
