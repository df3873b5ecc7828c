/**
 * The `Link` header of a paged list answer (`collections[].link_header`, learned in src/learn/total-headers.ts),
 * rendered for one request: the app's own entries in its order, each paging rel the request's URL with the page
 * parameter set to the page it points at, present only where that page exists.
 */
import type { Collection } from "./model-schema.js";
import { pageCount } from "./page-count.js";

type LinkHeader = NonNullable<Collection["link_header"]>;
type LinkRel = "next" | "prev" | "first" | "last";

/** The URL of page `value`: the request's own URL with the page parameter set in place, or appended. */
export function pageUrl(
  origin: string,
  path: string,
  query: [string, string][],
  param: string,
  value: number,
): string {
  const params = new URLSearchParams(query);
  params.set(param, String(value));
  return `${origin}${path}?${params.toString()}`;
}

/** The page (1-based) a rel points at, or null when the header leaves it out at this page of `pages`. */
function relPage(rel: LinkRel, at: number, pages: number): number | null {
  if (rel === "next") return at < pages ? at + 1 : null;
  if (rel === "prev") return at > 1 ? at - 1 : null;
  if (rel === "first") return 1;
  return pages >= 1 ? pages : null;
}

/** The `Link` header of a page, from the slots (`<url>; rel="next"` in the app's own wording). */
export function renderLink(
  link: LinkHeader,
  path: string,
  query: [string, string][],
  total: number,
  limit: number | null,
): string {
  const sent = query.find(([k]) => k === link.page_param)?.[1];
  const at = (sent !== undefined && /^\d+$/.test(sent) ? Number(sent) : link.base) - link.base + 1;
  const pages = pageCount(total, limit);
  const parts: string[] = [];
  for (const slot of link.slots) {
    if ("text" in slot) {
      parts.push(slot.text);
      continue;
    }
    const page = relPage(slot.rel, at, pages);
    if (page === null) continue;
    const url = pageUrl(link.origin, path, query, link.page_param, page + link.base - 1);
    parts.push(slot.format.replace("{url}", url));
  }
  return parts.join(", ");
}
