/**
 * The name an evidence goes by, which a bundle built from it takes by
 * default: a capture's scenario name, an imported HAR's file name without
 * its extension, and for a merge the part its sources' names share
 * (`items-full` + `items-heldout` → `items`), else the first source's name.
 */
import type { Evidence } from "./evidence-schema.js";

/** Separators a shared prefix is cut back to, so `jupyter.train` + `jupyter.heldout` is `jupyter`, not `jupyter.`. */
const SEPARATOR = /[-_. ]+$/;

/** What names in `names` share, cut back to a whole word; "" when they share none. */
function sharedName(names: readonly string[]): string {
  if (names.length === 0) return "";
  let prefix = names[0]!;
  for (const n of names.slice(1)) {
    let i = 0;
    while (i < prefix.length && i < n.length && prefix[i] === n[i]) i++;
    prefix = prefix.slice(0, i);
  }
  if (names.every((n) => n === prefix)) return prefix;
  // Cut a half word: only a prefix ending at a separator of every name is a shared name.
  const whole = names.every((n) => n.length === prefix.length || /[-_. ]/.test(n[prefix.length]!));
  const cut = whole ? prefix : prefix.replace(/[^-_. ]*$/, "");
  return cut.replace(SEPARATOR, "");
}

/** The names of the sources of an evidence: its own for a capture or an import, its sources' for a merge. */
export function sourceNames(e: Evidence): string[] {
  if (e.source.scenario) return [e.source.scenario.name];
  if (e.source.har) return [e.source.har.file_name.replace(/(\.evidence)?\.(har|json)$/i, "")];
  return e.source.names ?? [];
}

/** The evidence's name (see the file header), or null when it has none. */
export function evidenceName(e: Evidence): string | null {
  const names = sourceNames(e).filter((n) => n !== "");
  if (names.length <= 1) return names[0] ?? null;
  const shared = sharedName(names);
  return shared.length >= 2 ? shared : names[0]!;
}
