import { describe, expect, it } from "vitest";
import { EpisodeContendedError, StoreUnavailableError } from "./episode-store.js";

describe("the store's 503 answers", () => {
  it("says a store out of reach is out of reach, with the reason", () => {
    expect(new StoreUnavailableError("redis://127.0.0.1:6379/0", "connect ECONNREFUSED").body()).toEqual({
      error: "store_unavailable",
      message:
        "The episode store (redis://127.0.0.1:6379/0) cannot be reached: connect ECONNREFUSED. The twin does not answer without the episode's state; retry once the store is back.",
      store: "redis://127.0.0.1:6379/0",
      reason: "connect ECONNREFUSED",
    });
  });

  it("names an episode other replicas kept writing for what it is, not as a store out of reach", () => {
    const err = new EpisodeContendedError("redis://127.0.0.1:6379/0", "run-1", 64);
    expect(err).toBeInstanceOf(StoreUnavailableError); // answered 503: retrying is right
    expect(err.body()).toEqual({
      error: "episode_contended",
      message:
        'Episode "run-1" was written by other replicas on each of 64 tries, so this request was not applied; retry it (many writers on one episode at once wait on each other).',
      store: "redis://127.0.0.1:6379/0",
      reason: 'episode "run-1" was written by other replicas on each of 64 tries',
    });
  });
});
