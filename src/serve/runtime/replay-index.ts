/**
 * Replayed answers: an exact method + path + query served with the recorded
 * answers in order per episode, the last one repeating once exhausted. Keys
 * are normalised the same way on both sides (path as sent, query pairs
 * sorted by name, values of one name kept in order, re-encoded by
 * URLSearchParams), so `?a=1&b=x%20y`, `?a=1&b=x+y` and `?b=x+y&a=1` are one key.
 * A request whose only difference is a cache-buster (a parameter that held
 * the page's clock when it was recorded) gets the latest recorded answer. A sign-in's answers keyed by who signed in
 * (`match`) answer only the requests whose body holds the same values; answers keyed by a request header
 * (`headers_match`: `Accept`, an API version) only requests sending the same value (one sending none takes the
 * JSON answers), another value an explained `unrecorded_variant` miss.
 */
import type { Model, Replay, ReplayResponse } from "../../model/model-schema.js";
import { clockValue } from "../../util/clock-value.js";
import { bodyObject } from "./apply-field-rules.js";
import { explainedAnswer } from "./explain-miss.js";
import { readPointer } from "./json-text.js";
import type { Episode, TwinRequest, TwinResponse, TwinResponseBody } from "./twin-types.js";

const indexes = new WeakMap<Model, ReplayIndex>();

/** The normalised replay key of a method, path and query pairs. */
export function replayKey(method: string, path: string, query: [string, string][]): string {
  const m = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  // Sorted by name (stable): an MCP tool sends its query in its binding's order, which need not be the recorded one.
  const params = new URLSearchParams(query);
  params.sort();
  const q = params.toString();
  return `${m} ${path}${q === "" ? "" : `?${q}`}`;
}

function recordedKey(r: Replay): string {
  const at = r.path_and_query.indexOf("?");
  const path = at < 0 ? r.path_and_query : r.path_and_query.slice(0, at);
  const query = at < 0 ? [] : [...new URLSearchParams(r.path_and_query.slice(at + 1)).entries()];
  return replayKey(r.method, path, query);
}

/** How near the recording's own clock a recorded value must be to count as that client's clock. */
const RECORDED_CLOCK_WINDOW_MS = 24 * 3600 * 1000;

/**
 * A request's key with its clock-valued parameters set aside (jQuery's `_=<now>`, `?t=<now>`): their names
 * (sorted) stand in the key, their values do not; and the largest clock among them. Null without one.
 * `near`: only values within a day of this time count (a recorded request: the client's clock as recorded).
 */
function clocklessKey(
  method: string,
  path: string,
  query: [string, string][],
  near?: number,
): { key: string; clock: number } | null {
  const kept: [string, string][] = [];
  const clocks: string[] = [];
  let clock = -1;
  for (const [k, v] of query) {
    const t = clockValue(v);
    if (t === null || (near !== undefined && Math.abs(t - near) > RECORDED_CLOCK_WINDOW_MS))
      kept.push([k, v]);
    else {
      clocks.push(k);
      clock = Math.max(clock, t);
    }
  }
  if (clocks.length === 0) return null;
  return { key: `${replayKey(method, path, kept)} clock:${clocks.sort().join(",")}`, clock };
}

interface ReplayIndex {
  exact: Map<string, Replay>;
  /** By clockless key: the replay whose recorded clock is the latest (the app's newest answer). */
  clockless: Map<string, { replay: Replay; key: string; clock: number }>;
}

function indexOf(model: Model): ReplayIndex {
  let index = indexes.get(model);
  if (index) return index;
  index = { exact: new Map(), clockless: new Map() };
  for (const r of model.replays) {
    const key = recordedKey(r);
    if (!index.exact.has(key)) index.exact.set(key, r);
    const at = r.path_and_query.indexOf("?");
    const recordedAt = model.clock.last_time_ms;
    if (at < 0 || recordedAt === null) continue;
    const query = [...new URLSearchParams(r.path_and_query.slice(at + 1)).entries()];
    const loose = clocklessKey(r.method, r.path_and_query.slice(0, at), query, recordedAt);
    const seen = loose ? index.clockless.get(loose.key) : undefined;
    if (loose && (!seen || loose.clock > seen.clock))
      index.clockless.set(loose.key, { replay: index.exact.get(key)!, key, clock: loose.clock });
  }
  indexes.set(model, index);
  return index;
}

/**
 * The replay recorded for exactly this request, else, when the request differs from recorded ones only in
 * parameters that hold a client's clock (a cache-buster: recorded within a day of the recording's own clock,
 * asked with any time), the latest of those; or undefined. The recording shows such a value was the page's
 * clock, never something the app answered by.
 */
export function findReplay(model: Model, req: TwinRequest): { key: string; replay: Replay } | undefined {
  const index = indexOf(model);
  const key = replayKey(req.method, req.path, req.query);
  const replay = index.exact.get(key);
  if (replay) return { key, replay };
  const loose = clocklessKey(req.method, req.path, req.query);
  const hit = loose ? index.clockless.get(loose.key) : undefined;
  return hit ? { key: hit.key, replay: hit.replay } : undefined;
}

const staleIndexes = new WeakMap<Model, Map<string, NonNullable<Model["stale_replays"]>[number]>>();

/**
 * The explained 501 for a request the recording holds only with an out-of-date answer (`model.stale_replays`): the
 * entity its answer showed, and the later recorded write that changed it. Undefined for any other request.
 */
export function staleMiss(model: Model, req: TwinRequest): TwinResponse | undefined {
  if (!model.stale_replays?.length) return undefined;
  let index = staleIndexes.get(model);
  if (!index) {
    index = new Map();
    for (const st of model.stale_replays) {
      const at = st.path_and_query.indexOf("?");
      const path = at < 0 ? st.path_and_query : st.path_and_query.slice(0, at);
      const query = at < 0 ? [] : [...new URLSearchParams(st.path_and_query.slice(at + 1)).entries()];
      index.set(replayKey(st.method, path, query), st);
    }
    staleIndexes.set(model, index);
  }
  const st = index.get(replayKey(req.method, req.path, req.query));
  if (!st) return undefined;
  const asked = `${st.method} ${st.path_and_query}`;
  const changed =
    st.write === null ? "which the recording then saw gone" : `which the later recorded ${st.write} changed`;
  return explainedAnswer(
    501,
    {
      error: "stale_replay",
      message: `${asked} was recorded, but its answer shows ${st.collection} ${JSON.stringify(st.id)}, ${changed}; a fresh episode starts from the end of the recording, so that answer was out of date from the start and the twin does not replay it`,
      request: asked,
      collection: st.collection,
      id: st.id,
      write: st.write,
      hint: `Record ${asked} again after the last write to ${st.collection} (or record reads that confirm a rule for it), then rebuild the bundle.`,
    },
    "miss",
    st.tool_name,
  );
}

/** The recorded requests (method + path and query) of one tool, sorted: the variants a miss can suggest. */
export function replayVariants(model: Model, toolName: string): string[] {
  return model.replays
    .filter((r) => r.tool_name === toolName)
    .map((r) => `${r.method} ${r.path_and_query}`)
    .sort();
}

/**
 * The recorded answers this request may get (their indexes) and its cursor key. Without any `match`, all of them
 * under the replay key. Otherwise those whose match fits the body; for a user no match fits, the answers without
 * a match (the app's recorded refusal), else the first answer; the cursor is kept per set of answers.
 */
function candidates(key: string, replay: Replay, req: TwinRequest): { at: number[]; cursor: string } {
  const all = replay.responses.map((_, i) => i);
  if (replay.responses.some((r) => r.headers_match)) {
    const sent = new Map(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const fits = (i: number, absent: (i: number) => boolean) =>
      Object.entries(replay.responses[i]!.headers_match ?? {}).every(([h, v]) =>
        sent.has(h) ? sent.get(h) === v : v === "" || absent(i),
      );
    let at = all.filter((i) => fits(i, () => false));
    // A request without the header (an MCP call, a bare client) takes the JSON answers (else the first recorded).
    if (at.length === 0 && Object.keys(replay.responses[0]!.headers_match ?? {}).some((h) => !sent.has(h))) {
      const json = all.find((i) => replay.responses[i]!.body?.encoding === "json") ?? 0;
      const group = JSON.stringify(replay.responses[json]!.headers_match);
      at = all.filter((i) => fits(i, (j) => JSON.stringify(replay.responses[j]!.headers_match) === group));
    }
    return { at, cursor: `${key}#${at.join(",")}` };
  }
  if (!replay.responses.some((r) => r.match)) return { at: all, cursor: key };
  const body = bodyObject(req.body);
  const fits = (r: ReplayResponse) =>
    Object.entries(r.match!).every(([pointer, value]) => readPointer(body, pointer) === value);
  let at = all.filter((i) => replay.responses[i]!.match && fits(replay.responses[i]!));
  if (at.length === 0) at = all.filter((i) => !replay.responses[i]!.match);
  if (at.length === 0) at = [0];
  return { at, cursor: `${key}#${at.join(",")}` };
}

/**
 * The 501 for a request whose header (`Accept`, an API version) changes the app's answer, sent with a value no
 * recorded request sent: naming the header and the recorded values, never another value's answer.
 */
function unrecordedVariant(replay: Replay): TwinResponse {
  const names = [...new Set(replay.responses.flatMap((r) => Object.keys(r.headers_match ?? {})))].sort();
  const recorded = names.map((name) => ({
    header: name,
    recorded: [...new Set(replay.responses.map((r) => r.headers_match?.[name] ?? ""))].sort(),
  }));
  const asked = `${replay.method} ${replay.path_and_query}`;
  const said = recorded
    .map((r) => `${r.header} (${r.recorded.map((v) => JSON.stringify(v)).join(", ")})`)
    .join("; ");
  return explainedAnswer(
    501,
    {
      error: "unrecorded_variant",
      message: `${asked} answers in another shape for each value of ${said} it was recorded with; this request sent another value, and apptwin does not guess that answer.`,
      request: asked,
      headers: recorded,
      hint: `Send one of the recorded values, or record ${asked} with this one, then rebuild the bundle.`,
    },
    "miss",
    replay.tool_name,
  );
}

/** Answers from a replay, advancing the episode's cursor (the last answer repeats). */
export function answerReplay(episode: Episode, key: string, replay: Replay, req: TwinRequest): TwinResponse {
  const { at, cursor } = candidates(key, replay, req);
  if (at.length === 0) return unrecordedVariant(replay);
  const n = episode.replay_cursors[cursor] ?? 0;
  const recorded = replay.responses[at[Math.min(n, at.length - 1)]!];
  episode.replay_cursors[cursor] = n + 1;
  if (!recorded) {
    return { status: 204, headers: {}, body: null, served_by: "replay", rule: replay.tool_name };
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(recorded.headers)) headers[k.toLowerCase()] = v;
  const contentType = headers["content-type"] ?? "application/octet-stream";
  let body: TwinResponseBody = null;
  const b = recorded.body;
  if (b?.encoding === "json") body = { kind: "json", value: structuredClone(b.value) };
  else if (b?.encoding === "utf8") body = { kind: "text", text: b.text, content_type: contentType };
  else if (b?.encoding === "base64") body = { kind: "base64", text: b.text, content_type: contentType };
  return { status: recorded.status, headers, body, served_by: "replay", rule: replay.tool_name };
}
