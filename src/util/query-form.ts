/**
 * How a query-string value compares with a JSON field value: the twin's
 * filters match a field when its query form equals the query text, and task
 * generation counts entities the same way.
 */

/** A field value as a query string would spell it: strings as they are, anything else as JSON. */
export function queryForm(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}
