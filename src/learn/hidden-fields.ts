/**
 * What writes answer but reads never show: the pointers a confirmed write's
 * answer held that its read-back lacked (`/title/raw`, `/password` on
 * WordPress), for every collection, unless some read-back showed them. The
 * twin keeps them in its state (a later answer shows them again) and its
 * reads leave them out, as the app's do.
 */
import { missingPointers } from "../util/entity-view.js";
import type { WriteObservation } from "./state-walk.js";

/** The hidden pointers of each collection that has any, sorted. */
export function hiddenPointers(writes: WriteObservation[]): Map<string, string[]> {
  const hidden = new Map<string, Set<string>>();
  const shown = new Map<string, Set<string>>();
  for (const w of writes) {
    if (w.result !== "confirmed" || !w.answered || !w.readBack || w.target.kind === "delete") continue;
    const col = w.target.collection.name;
    const missing = missingPointers(w.answered, w.readBack);
    const set = hidden.get(col) ?? new Set();
    for (const p of missing) set.add(p);
    hidden.set(col, set);
    const seen = shown.get(col) ?? new Set();
    for (const p of missingPointers(w.readBack, {})) seen.add(p);
    shown.set(col, seen);
  }
  const out = new Map<string, string[]>();
  for (const [col, set] of hidden) {
    const seen = shown.get(col) ?? new Set();
    const list = [...set].filter((p) => !seen.has(p)).sort();
    if (list.length > 0) out.set(col, list);
  }
  return out;
}
