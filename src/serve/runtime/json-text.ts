/**
 * Small value helpers the runtime shares: RFC 6901 pointers, and how a
 * query-string value compares with a JSON field value.
 */
// Pointers and query forms live in util (task generation reads them too); the runtime's modules import them from here.
export { readPointer } from "../../util/json-pointer.js";
export { queryForm } from "../../util/query-form.js";

/** A non-negative integer from a query value, or undefined when it is not one. */
export function nonNegativeInt(text: string | undefined): number | undefined {
  return text !== undefined && /^(0|[1-9]\d{0,15})$/.test(text) ? Number(text) : undefined;
}
