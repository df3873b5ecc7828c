/**
 * The hint of each withheld reason: exactly what to record to close the gap.
 * Messages are an API; tests assert them word for word.
 */
import type { Withheld, WithheldReason } from "./model-schema.js";

/** What a hint needs to know about the write. */
export interface HintContext {
  method: string;
  template: string;
  /** The read that would confirm the write, e.g. `GET /api/boards/{board_id}`. */
  readBack: string;
  field?: string;
  /** The unexplained field counts up within its scope (highest + 1). */
  counter?: boolean;
  statuses?: number[];
  mime?: string | null;
}

/** The withheld verdict (reason + hint) for a write endpoint. */
export function withheld(reason: WithheldReason, c: HintContext): Withheld {
  const w = `${c.method} ${c.template}`;
  const hints: Record<WithheldReason, () => string> = {
    not_read_back: () => `Record a ${c.readBack} after ${w} to confirm its effect`,
    read_back_disagrees: () =>
      `The read after ${w} shows a different "${c.field}" than the write implied; record the write and its read-back again with nothing in between`,
    failed_status: () =>
      `Every ${w} answered ${(c.statuses ?? []).join(", ")}; record one that succeeds (2xx) and read its effect back`,
    no_collection: () =>
      `${w} changes no collection the recording read: if it writes entities, record a GET of their list (such as ${c.readBack}) before and after it, so its effect can be read back; an action no read can show stays withheld`,
    unexplained_field: () =>
      c.counter
        ? `Field "${c.field}" in ${w} counts up within its scope (each new value is the highest seen + 1), which no learned rule reproduces; the twin withholds it rather than answer a constant`
        : `Field "${c.field}" in ${w} fits no rule (request, id sequence, clock, constant, copy); record 2 or more ${w} with different inputs, each followed by a ${c.readBack}`,
    untimed_capture: () =>
      `Field "${c.field}" in ${w} is a time the app stamps, but the records have no times; record with apptwin capture (or a HAR with timings)`,
    unsupported_body: () =>
      `${w} sent a ${c.mime ?? "truncated or unreadable"} body; record it with a JSON or url-encoded form body (within the body limit)`,
    conflicting_observations: () =>
      `Observations of ${w} disagree on ${c.field ? `"${c.field}"` : "the answer status"}; record the write again, each followed by a ${c.readBack}`,
  };
  return { reason, hint: hints[reason]() };
}
