/**
 * The data the twin runtime works on: a request and an answer as plain
 * values (no sockets), and an episode (one agent's private copy of the
 * state, its clock, id sequences, PRNG and replay cursors). The HTTP and MCP
 * adapters translate to and from these; the fidelity command calls them directly.
 */
import type { Entity } from "../../model/model-schema.js";
import type { EpisodeState } from "./episode-state.js";

/** A request body as the adapters parsed it. */
export type TwinRequestBody =
  | { kind: "json"; value: unknown }
  | { kind: "form"; fields: [string, string][] }
  /** `invalid`: why a body sent as JSON is not JSON (`is not valid UTF-8`, …); absent for other text. */
  | { kind: "text"; text: string; invalid?: string }
  | null;

/** One request to the twin: method, path (decoded segments kept as sent), query pairs in order. */
export interface TwinRequest {
  method: string;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body: TwinRequestBody;
  /**
   * True for an MCP tool call: the session acts as the recording's signed-in user, so it carries no credentials
   * and none are asked for. Absent for HTTP requests, which must carry what the app's accepted requests did.
   */
  signed_in?: true;
}

/** An answer body: JSON, text with its content type, or base64 bytes with their content type. */
export type TwinResponseBody =
  | { kind: "json"; value: unknown }
  | { kind: "text"; text: string; content_type: string }
  | { kind: "base64"; text: string; content_type: string }
  | null;

/**
 * The twin's answer, with how it was produced and the rule (tool name) that produced it. `validation`: the
 * app's recorded answer to an invalid request (model `validations`, `body_refusals`, `credential_refusals`), given
 * before any write. `refused`: the twin's own explained 400 for a body the recording never shows the app
 * answering (one it cannot read, or one that breaks the learned request schema).
 */
export interface TwinResponse {
  status: number;
  headers: Record<string, string>;
  body: TwinResponseBody;
  served_by: "state" | "replay" | "withheld" | "miss" | "validation" | "refused" | "acknowledged";
  rule: string | null;
}

/** One agent's private world: state (the shared seed under its own changes), clock, id sequences, PRNG and replay cursors. */
export interface Episode {
  id: string;
  /** The number the PRNG was seeded with besides the episode id. */
  seed: number;
  /** Collection name → its entities in list order: the shared seed under this episode's changes. */
  state: EpisodeState;
  /** Milliseconds since the epoch; null for an untimed recording (the clock then starts at 0). */
  clock_ms: number;
  /** Collection name → next integer id. */
  id_sequences: Record<string, number>;
  /** sfc32 state: four unsigned 32-bit words. */
  prng: [number, number, number, number];
  /** Replay key (`#` and the answers' indexes for a sign-in keyed by who signs in) → how many answers of it were given. */
  replay_cursors: Record<string, number>;
}

/** One difference between the seed and an episode's state. */
export interface StateChange {
  collection: string;
  id: string;
  kind: "created" | "updated" | "deleted";
  before?: Entity;
  after?: Entity;
  /** For updates: the fields whose values differ, sorted. */
  fields?: string[];
}
