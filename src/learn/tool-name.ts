/**
 * The MCP tool name of each endpoint, chosen here at learning because the
 * Model keys its rules, replays and validations by it; bundle's
 * tool-definitions.ts only describes the tools under these names.
 */
import { isNeverParam, snake } from "./value-kinds.js";

/** The tool name of a method + template: `get_boards_cards_by_board_id`; `api` and versions are dropped. */
export function toolName(method: string, literals: (string | null)[], params: string[]): string {
  const words = literals.filter((l): l is string => l !== null && !isNeverParam(l)).map(snake);
  const base = [method.toLowerCase(), ...(words.length > 0 ? words : ["root"])].join("_");
  return params.length > 0 ? `${base}_by_${params.join("_and_")}` : base;
}

/** Breaks tool-name collisions deterministically: in sorted (template, method) order, later ones get `_2`, `_3`. */
export function uniqueToolNames(entries: { key: string; name: string }[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const e of [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
    let name = e.name;
    for (let n = 2; taken.has(name); n++) name = `${e.name}_${n}`;
    taken.add(name);
    out.set(e.key, name);
  }
  return out;
}
