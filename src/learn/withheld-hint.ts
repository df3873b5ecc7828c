/**
 * The hint of each withheld reason: exactly what to record to close the gap,
 * or, when no recording can (the twin lacks the rule), that plainly, so an
 * agent never loops on it (CONTRACTS.md §9). Messages are an API; tests
 * assert them word for word.
 */
import type { Withheld, WithheldReason } from "../model/model-schema.js";
import type { UnclosableGap } from "./infer-field-rule.js";

/** What a hint needs to know about the write. */
export interface HintContext {
  method: string;
  template: string;
  /** The read that would confirm the write, e.g. `GET /api/boards/{board_id}`: a recorded route, or null when none is. */
  readBack: string | null;
  field?: string;
  /** What the twin lacks, when no recording can close the gap. */
  gap?: UnclosableGap;
  statuses?: number[];
  mime?: string | null;
  /** Two rules fit the only observation: what a second one would tell apart. */
  ambiguous?: "counter_or_constant" | "scoped_constant_id";
  /** The path parameter naming the scope of a nested collection's entities (`content_id`). */
  scopeParam?: string;
  /** A write on no collection: the read (`GET /api/settings`) that answered otherwise across it, an effect the twin cannot apply. */
  changed?: string;
  /** The collection that read serves, when it is one (a write to many of its entities at once, a batch). */
  changedCollection?: string;
  /** Every unconfirmed write was a create whose answer named no entity (no body naming it, no Location). */
  anonymous?: boolean;
  /** For `read_back_disagrees`: the record of the read that contradicted a field no later write set. */
  readAt?: number;
  /** A write of a singleton document (a fixed path): no read of it just before and just after the write, nothing between. */
  around?: boolean;
  /** Every unconfirmed write was a create a full list after it did not show: the first one's id and that list's record. */
  unseen?: { id: string; at: number };
  /**
   * Every write named its entities by a query the walk could not resolve (the first one's record): no full list of
   * its scope before it (`unlisted`), a query the reads' rules do not select by (`unlearned`), one holding more than
   * filters (`not_a_filter`) or one the rules read two ways (`ambiguous`), with why.
   */
  byQuery?: { why: "unlisted" | "unlearned" | "not_a_filter" | "ambiguous"; detail?: string; at: number };
  /**
   * Every unconfirmed write was an update a later read showed with none of what it sent changed there: the first
   * one's read and the fields it sent.
   */
  shown?: { at: number; fields: string[] };
  /** For `read_back_disagrees` of a write by query: an entity it did not select that the list after it showed changed. */
  bystander?: string;
  /** For `read_back_disagrees` of a delete: the read after it (`readAt`) still showed the entity it deleted. */
  kept?: boolean;
  /**
   * For `unexplained_field` of a delete learned as an update (the read after it, `readAt`, still showed the entity):
   * `field` changed from a value to one holding it other than as an affix every delete shared (`"n1"` → `"[n1]"`),
   * built from its own earlier value.
   */
  rebuilt?: { from: unknown; to: unknown };
  /**
   * For `unexplained_field`: `field` was one value in every confirmed write (`to`), built from a text each request
   * sent (`from`, at `pointer`) without being it: a constant would give every request this one's value. `affix`:
   * learned as the old value with a text added, which would give every request that text (`to` is the first write's).
   */
  built?: { pointer: string; from: string; to: string; affix?: true };
}

/** The withheld verdict (reason + hint) for a write endpoint. */
export function withheld(reason: WithheldReason, c: HintContext): Withheld {
  const w = `${c.method} ${c.template}`;
  const read = c.readBack ?? "read of what it changes";
  const q = c.byQuery;
  const hints: Record<WithheldReason, () => string> = {
    not_read_back: () =>
      q
        ? q.why === "unlisted"
          ? `${w} (records[${q.at}]) names the entities it writes by its query, and no full ${read} before it showed the entities that query selects among; record a full ${read}, then ${w}, then ${read} again`
          : q.why === "unlearned"
            ? `${w} (records[${q.at}]) names the entities it writes by a query the reads do not select by (${q.detail}); record a ${read} with the same filter, so its answer shows what the filter selects, and rebuild`
            : `${w} (records[${q.at}]) names the entities it writes by a query the twin cannot apply to a write (${q.detail}); the twin writes only the entities a query's filters select, so no recording can close this gap: the write stays withheld`
        : c.unseen
          ? `The full ${read} after ${w} (records[${c.unseen.at}]) does not show the entity it created (id ${c.unseen.id}): the recording shows the app not keeping it, and a twin that kept it would answer otherwise, so no recording can close this gap: the write stays withheld`
          : c.around
            ? `No ${w} in the recording has a ${read} just before it and just after it with no other write in between, so what it changed is not shown; record ${read}, then ${w}, then ${read} again`
            : c.anonymous
              ? `${w} answered no id of the entity it created (no entity in its body, no Location naming one), and no full ${read} after it showed exactly one new entity for it alone; record one ${w} between two full reads of ${read}, with no other create between them`
              : c.shown
                ? `The ${read} after ${w} (records[${c.shown.at}]) shows its entity, but no field there changed to what it sent (${c.shown.fields.map((f) => `"${f}"`).join(", ")}), under that name or as the ids of the entities a field lists: the recording holds the read-back and it does not confirm the write; record a ${w} that changes a field the ${read} shows, followed by that read`
                : `Record a ${read} after ${w} to confirm its effect`,
    read_back_disagrees: () =>
      c.bystander !== undefined && c.readAt !== undefined
        ? `The full ${read} after ${w} (records[${c.readAt}]) shows the entity ${c.bystander}, which its query does not select by the reads' rules, changed or gone: the app wrote other entities than those the query selects, which no rule of the twin reproduces, so no recording can close this gap: the write stays withheld`
        : c.kept && c.readAt !== undefined
          ? `The read after ${w} (records[${c.readAt}]) still shows the entity it deleted: the app kept it (a delete that moves it to a trash or changes its status leaves it readable), which the twin's delete (the entity gone, its item read answering not-found) does not reproduce, so no recording can close this gap: the write stays withheld`
          : c.readAt !== undefined
            ? `The read after ${w} (records[${c.readAt}]) shows a different "${c.field}" than the write implied, and no other write set it in between: the app stored another value than the one it was sent or answered, which no rule of the twin reproduces, so no recording can close this gap: the write stays withheld`
            : `The read after ${w} shows a different "${c.field}" than the write implied; record the write and its read-back again with nothing in between`,
    failed_status: () =>
      `Every ${w} answered ${(c.statuses ?? []).join(", ")}; record one that succeeds (2xx) and read its effect back`,
    no_collection: () =>
      c.changed !== undefined && c.changedCollection !== undefined
        ? `${w} changed what ${c.changed} answers (collection "${c.changedCollection}"), but it names no one entity of it by its path, lists no ids beside the fields to set (a batch) and creates none: the twin has no rule for a write to the whole collection or to several entities sent otherwise, so no recording can close this gap: the write stays withheld`
        : c.changed !== undefined
          ? `${w} changed what ${c.changed} answers, which is no collection the twin holds; the twin has no rule that applies a write to it, so no recording can close this gap: the write stays withheld`
          : `${w} changes no collection the recording read: if it writes entities, record a GET of their list${c.readBack === null ? "" : ` (such as ${c.readBack})`} before and after it, so its effect can be read back; if it changes nothing, the same reads answering alike before and after it make it acknowledged (answered as recorded, changing nothing)`,
    unexplained_field: () => {
      const g = c.gap;
      if (c.built)
        return `Field "${c.field}" in ${w} was ${JSON.stringify(c.built.to)} ${c.built.affix ? "in the first recorded one" : "in every recorded one"}, a value built from what the request sent at ${c.built.pointer} (${JSON.stringify(c.built.from)}): the twin has no rule that builds a value from part of a sent one (${c.built.affix ? "its old value with the same text added" : "a constant"} would give every request this one's value), so no recording can close this gap: the write stays withheld`;
      if (c.rebuilt && c.readAt !== undefined)
        return `The read after ${w} (records[${c.readAt}]) still shows the entity it deleted, so the delete is learned as an update of what changed there, but "${c.field}" changed from ${JSON.stringify(c.rebuilt.from)} to ${JSON.stringify(c.rebuilt.to)}, a value built from what it held before: the twin has no rule that builds a field from its own earlier value (a constant would give every entity this one's value), so no recording can close this gap: the write stays withheld`;
      if (c.ambiguous === "counter_or_constant")
        return `Field "${c.field}" in ${w} was the highest value seen in its scope + 1 in the only ${w} recorded, which a counter and a constant both fit; record another ${w}, followed by a ${read}, so its value shows which`;
      if (c.ambiguous === "scoped_constant_id")
        return `Field "${c.field}" in ${w} was one value in every recorded create, all under one {${c.scopeParam ?? "parent"}}, which an id fixed per parent and an id the app assigns both fit; record another ${w} under another {${c.scopeParam ?? "parent"}}, followed by a ${read}, so its id shows which`;
      if (g?.kind === "reference_list")
        return `Field "${c.field}" in ${w} lists the entities the request's ${g.pointer} names (by their ${g.key}), but the recording shows one of them two ways, so no one table of them explains every answer; the twin does not build a list it could not build for every request, so no recording can close this gap: the write stays withheld`;
      if (g?.kind === "counter")
        return `Field "${c.field}" in ${w} counts up within its scope (each new value is the highest seen + 1); the twin has no per-scope counter rule, so no recording can close this gap: the write stays withheld rather than answer a constant`;
      if (g?.kind === "string_id")
        return `Field "${c.field}" in ${w} is a string id the app assigns; the twin has rules only for integer sequences and UUIDs, so no recording can close this gap: the write stays withheld`;
      if (g?.kind === "token") {
        const shape = `${g.token.length} ${g.token.alphabet === "hex" ? "hex characters" : "letters and digits"}`;
        return g.answerOnly
          ? `Field "${c.field}" in the answer of ${w} is a random token the app generates (${shape}) that only the answer carries: no request sent it and no read shows it, so no recording can explain it and the write stays withheld`
          : `Field "${c.field}" in ${w} is a random token the app generates (${shape}) that no request sent; the twin has no rule that reproduces it, so no recording can close this gap: the write stays withheld`;
      }
      return `Field "${c.field}" in ${w} fits no rule (request, id sequence, clock, constant, copy); record 2 or more ${w} with different inputs, each followed by a ${read}`;
    },
    untimed_capture: () =>
      `Field "${c.field}" in ${w} is a time the app stamps, but the records have no times; record with apptwin capture (or a HAR with timings)`,
    unsupported_body: () =>
      `${w} sent a ${c.mime ?? "truncated or unreadable"} body; record it with a JSON or url-encoded form body (within the body limit)`,
    conflicting_observations: () =>
      `Observations of ${w} disagree on ${c.field ? `"${c.field}"` : "the answer status"}; record the write again, each followed by a ${read}`,
  };
  // Only the gaps of a rule the twin lacks (a field's, or a write to what no collection holds) are beyond any
  // recording; every other hint names what to record.
  return {
    reason,
    hint: hints[reason](),
    closable:
      c.gap === undefined &&
      c.built === undefined &&
      c.changed === undefined &&
      c.unseen === undefined &&
      c.readAt === undefined &&
      (q === undefined || q.why === "unlisted" || q.why === "unlearned"),
  };
}
