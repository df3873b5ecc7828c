/** One key for a query's parameters, sorted: the order a request sends them in does not change what it asks. */
export function queryKey(query: readonly (readonly [string, string])[]): string {
  return JSON.stringify([...query].map(([k, v]) => [k, v]).sort());
}
