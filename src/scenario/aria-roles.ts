/**
 * The WAI-ARIA roles a `role=` target may name: every non-abstract role that
 * aria-query knows (ARIA 1.2 with DPUB and Graphics roles).
 */
import { roles } from "aria-query";

/** The non-abstract WAI-ARIA role names. */
export const ARIA_ROLES: ReadonlySet<string> = new Set(
  [...roles.keys()].filter((name) => roles.get(name)?.abstract !== true).map(String),
);

/** True when `name` is a non-abstract WAI-ARIA role. */
export function isAriaRole(name: string): boolean {
  return ARIA_ROLES.has(name);
}
