/**
 * Replayed answers: an exact method + path + query served with the recorded
 * answers in order per episode, the last one repeating once exhausted. Keys
 * are normalised the same way on both sides (path as sent, query pairs
 * sorted by name, values of one name kept in order, re-encoded by
 * URLSearchParams), so `?a=1&b=x%20y`, `?a=1&b=x+y` and `?b=x+y&a=1` are one key. A sign-in's answers keyed by who signed in
 * (`match`) answer only the requests whose body holds the same values.
 */
import type { Model, Replay, ReplayResponse } from "../../model/model-schema.js";
import { bodyObject } from "./apply-field-rules.js";
import { readPointer } from "./json-text.js";
import type { Episode, TwinRequest, TwinResponse, TwinResponseBody } from "./twin-types.js";

const indexes = new WeakMap<Model, Map<string, Replay>>();

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

/** The replay recorded for exactly this request, or undefined. */
export function findReplay(model: Model, req: TwinRequest): { key: string; replay: Replay } | undefined {
  let index = indexes.get(model);
  if (!index) {
    index = new Map();
    for (const r of model.replays) {
      const key = recordedKey(r);
      if (!index.has(key)) index.set(key, r);
    }
    indexes.set(model, index);
  }
  const key = replayKey(req.method, req.path, req.query);
  const replay = index.get(key);
  return replay ? { key, replay } : undefined;
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
  if (!replay.responses.some((r) => r.match)) return { at: all, cursor: key };
  const body = bodyObject(req.body);
  const fits = (r: ReplayResponse) =>
    Object.entries(r.match!).every(([pointer, value]) => readPointer(body, pointer) === value);
  let at = all.filter((i) => replay.responses[i]!.match && fits(replay.responses[i]!));
  if (at.length === 0) at = all.filter((i) => !replay.responses[i]!.match);
  if (at.length === 0) at = [0];
  return { at, cursor: `${key}#${at.join(",")}` };
}

/** Answers from a replay, advancing the episode's cursor (the last answer repeats). */
export function answerReplay(episode: Episode, key: string, replay: Replay, req: TwinRequest): TwinResponse {
  const { at, cursor } = candidates(key, replay, req);
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
