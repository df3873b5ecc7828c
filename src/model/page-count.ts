/** How many pages a list of `total` entities has at `limit` a page: one page of everything when no limit is set. */
export function pageCount(total: number, limit: number | null): number {
  if (limit === null || limit <= 0) return total > 0 ? 1 : 0;
  return Math.ceil(total / limit);
}
