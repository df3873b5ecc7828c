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
  | { kind: "text"; text: string }
  | null;

/** One request to the twin: method, path (decoded segments kept as sent), query pairs in order. */
export interface TwinRequest {
  method: string;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body: TwinRequestBody;
}

/** An answer body: JSON, text with its content type, or base64 bytes with their content type. */
export type TwinResponseBody =
  | { kind: "json"; value: unknown }
  | { kind: "text"; text: string; content_type: string }
  | { kind: "base64"; text: string; content_type: string }
  | null;

/**
 * The twin's answer, with how it was produced and the rule (tool name) that produced it. `validation`: the
 * app's recorded answer to an invalid body (model `validations`), given before any write.
 */
export interface TwinResponse {
  status: number;
  headers: Record<string, string>;
  body: TwinResponseBody;
  served_by: "state" | "replay" | "withheld" | "miss" | "validation";
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
