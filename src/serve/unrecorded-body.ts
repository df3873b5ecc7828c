/**
 * A replayed answer the recording kept without its body is not passed off
 * as an empty one: the twin says so in `x-apptwin-body: not-recorded`, with
 * a warning naming what to re-record.
 */
import type { Model, UnrecordedBody } from "../model/model-schema.js";
import { replayKey } from "./runtime/replay-index.js";
import type { TwinRequest, TwinResponse } from "./runtime/twin-types.js";

const indexes = new WeakMap<Model, Map<string, UnrecordedBody>>();

function keyOf(method: string, pathAndQuery: string, status: number): string {
  const at = pathAndQuery.indexOf("?");
  const path = at < 0 ? pathAndQuery : pathAndQuery.slice(0, at);
  const query = at < 0 ? [] : [...new URLSearchParams(pathAndQuery.slice(at + 1)).entries()];
  return `${replayKey(method, path, query)} ${status}`;
}

/** The headers that flag a replayed answer whose body was not recorded (none for any other answer). */
export function unrecordedBodyHeaders(
  model: Model,
  req: TwinRequest,
  answer: Pick<TwinResponse, "status" | "body"> & { served_by: string },
): Record<string, string> {
  if (answer.served_by !== "replay" || answer.body !== null || !model.unrecorded_bodies?.length) return {};
  let index = indexes.get(model);
  if (!index) {
    index = new Map(model.unrecorded_bodies.map((u) => [keyOf(u.method, u.path_and_query, u.status), u]));
    indexes.set(model, index);
  }
  const q = new URLSearchParams(req.query).toString();
  const hit = index.get(keyOf(req.method, `${req.path}${q === "" ? "" : `?${q}`}`, answer.status));
  if (!hit) return {};
  return {
    "x-apptwin-body": "not-recorded",
    "x-apptwin-warning": `the recording kept no body for ${hit.method} ${hit.path_and_query} (${hit.status}); this answer has none. Re-record it with bodies kept (in DevTools, export the HAR "with content").`,
  };
}
