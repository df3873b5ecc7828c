/**
 * The one connection a replica keeps to Redis (node-redis): connected once at
 * start (a store out of reach is a UserError, exit 2), then reconnecting on
 * its own when the connection drops. While it is down no command is queued:
 * each fails at once as a StoreUnavailableError, which the twin answers 503.
 * Scripts run by their SHA1, sent whole the first time Redis does not know them.
 */
import { createHash } from "node:crypto";
import { createClient, ErrorReply } from "@redis/client";
import debug from "debug";
import { UserError } from "../../errors/user-error.js";
import { StoreUnavailableError } from "../episode-store.js";

const log = debug("apptwin:store");

/** How long one command may take before it counts as the store being unavailable. */
export const COMMAND_TIMEOUT_MS = 5000;

/** A Lua script with its SHA1. */
export interface Script {
  lua: string;
  sha: string;
}

/** A script ready to run by its SHA1. */
export function script(lua: string): Script {
  return { lua, sha: createHash("sha1").update(lua).digest("hex") };
}

/** The store's URL without credentials (what messages and health may show). */
export function publicUrl(url: URL): string {
  const shown = new URL(url.href);
  shown.username = "";
  shown.password = "";
  return shown.href;
}

/** Parses `--store`: a redis:// or rediss:// URL, else a UserError saying what would be valid. */
export function parseStoreUrl(text: string): URL {
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== "redis:" && url.protocol !== "rediss:") || url.hostname === "") {
    throw new UserError(
      "bad_store",
      `--store must be a Redis URL such as redis://127.0.0.1:6379/0 (redis://[[user]:password@]host[:port][/db], or rediss:// for TLS); got ${JSON.stringify(text.replace(/\/\/[^@/]*@/, "//…@"))}.`,
    );
  }
  return url;
}

/** What the store uses of a node-redis client. */
interface Client {
  sendCommand(args: string[]): Promise<unknown>;
  close(): Promise<unknown>;
  destroy(): void;
}

/** A live connection to Redis. */
export class RedisConnection {
  private constructor(
    private readonly client: Client,
    /** The URL without credentials. */
    readonly where: string,
  ) {}

  /**
   * Connects, or throws a UserError naming the store and the reason. Once connected, a dropped connection is
   * retried every 50 ms to 2 s while commands fail (503); `onState` hears when it is lost and back.
   */
  static async open(
    url: URL,
    hooks: { onState?: (line: string) => void; onBack?: () => void } = {},
  ): Promise<RedisConnection> {
    const onState = hooks.onState ?? (() => {});
    const where = publicUrl(url);
    let connected = false;
    const client = createClient({
      url: url.href,
      disableOfflineQueue: true,
      commandOptions: { timeout: COMMAND_TIMEOUT_MS },
      socket: {
        connectTimeout: 3000,
        reconnectStrategy: (retries) => (connected ? Math.min(50 * 2 ** retries, 2000) : false),
      },
    });
    let down = false;
    client.on("error", (err: Error) => {
      log("redis %s: %s", where, err.message);
      if (connected && !down) {
        down = true;
        onState(`lost the episode store ${where} (${err.message}); answering 503 until it is back`);
      }
    });
    client.on("ready", () => {
      if (!down) return;
      down = false;
      onState(`the episode store ${where} is back`);
      hooks.onBack?.();
    });
    try {
      await client.connect();
      await client.sendCommand(["PING"]);
    } catch (err) {
      client.destroy();
      throw new UserError(
        "store_unreachable",
        `Cannot reach the episode store ${where}: ${(err as Error).message || String(err)}. Start Redis there (redis-server --port ${url.port || 6379}), fix --store, or serve without --store to keep the episodes in this process.`,
      );
    }
    connected = true;
    return new RedisConnection(client as unknown as Client, where);
  }

  /** Runs a script with these arguments (no KEYS); any failure but a script's own error is StoreUnavailableError. */
  async run(s: Script, args: readonly (string | number)[]): Promise<unknown[]> {
    const argv = args.map(String);
    try {
      try {
        return (await this.client.sendCommand(["EVALSHA", s.sha, "0", ...argv])) as unknown[];
      } catch (err) {
        if (!(err instanceof ErrorReply && err.message.startsWith("NOSCRIPT"))) throw err;
        return (await this.client.sendCommand(["EVAL", s.lua, "0", ...argv])) as unknown[];
      }
    } catch (err) {
      throw new StoreUnavailableError(this.where, (err as Error).message || String(err));
    }
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    try {
      await this.client.close();
    } catch {
      this.client.destroy();
    }
  }
}
