/**
 * Which statuses of an item route mean "no such entity" (issue 17 item 4): 404 and 410 always; 403 when the
 * recording confirms the app answers it for ids it does not hold — apps that will not say whether something
 * exists (a data platform answering `403 FORBIDDEN` for an unknown or deleted id). Such a 403 then teaches the
 * route's not-found answer and shows a deleted entity gone, as a 404 does.
 */
import type { EndpointGroup, Observation } from "./endpoint-index.js";

const ALWAYS = [404, 410];
/** `a` came before `b`: by start time, and by record order within one millisecond or untimed. */
const before = (a: Observation, b: Observation) =>
  a.time !== null && b.time !== null && a.time !== b.time ? a.time < b.time : a.index < b.index;
const ok = (o: Observation) => o.status >= 200 && o.status < 300;

/** Every value of `idField` in a JSON value, to depth 4 (entities in lists, envelopes and write answers). */
function shownIds(value: unknown, idField: string, out: Set<string>, depth = 0): void {
  if (depth > 4 || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const v of value) shownIds(v, idField, out, depth + 1);
    return;
  }
  const id = (value as Record<string, unknown>)[idField];
  if (typeof id === "string" || typeof id === "number") out.add(String(id));
  for (const v of Object.values(value)) shownIds(v, idField, out, depth + 1);
}

/**
 * The statuses of `item`'s reads that mean the entity is not there. A 403 is one when every 403 read of the route
 * named an id no 2xx answer of the recording ever showed (in `groups`, under `idField`) or one a successful DELETE
 * of that very path had removed before, and all of them answered the same body once the id is taken out.
 * Rejected: a 403 for an entity the recording showed and never deleted (a refusal, not a miss), or 403s that
 * answer differently.
 */
export function missStatuses(item: EndpointGroup, groups: EndpointGroup[], idField: string): number[] {
  const param = item.params.at(-1);
  const refused = item.observations.filter((o) => o.status === 403);
  if (param === undefined || refused.length === 0) return ALWAYS;
  const shown = new Set<string>();
  for (const g of groups)
    for (const o of g.observations)
      if (ok(o) && o.response.kind === "json") shownIds(o.response.value, idField, shown);
  const deletes = groups
    .filter((g) => g.method === "DELETE" && g.template === item.template)
    .flatMap((g) => g.observations.filter(ok));
  const gone = (o: Observation) => {
    const id = o.pathParams[param] ?? "";
    return !shown.has(id) || deletes.some((d) => d.pathParams[param] === id && before(d, o));
  };
  const bodyWithout = (o: Observation) =>
    `${o.record.response?.body?.text ?? ""}`.split(o.pathParams[param] ?? "\u0000").join("\u0000");
  const first = bodyWithout(refused[0]!);
  return refused.every((o) => gone(o) && bodyWithout(o) === first) ? [...ALWAYS, 403] : ALWAYS;
}
