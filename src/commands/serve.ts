/** Why: agents and the app's own frontend run against the twin instead of the real app. */
import { Args, Flags } from "@oclif/core";
import { readBundle } from "../bundle/bundle-reader.js";
import { BaseCommand } from "../cli/base-command.js";
import { UserError } from "../errors/user-error.js";
import { readFaultPlan } from "../serve/faults-file-io.js";
import {
  checkHost,
  openStore,
  serveStdio,
  startHttpTwin,
  type TwinEndpoints,
  untilSignal,
} from "../serve/start-twin.js";

/** Serves a bundle: the HTTP twin, its MCP tools and the control plane, until SIGINT/SIGTERM. */
export default class Serve extends BaseCommand {
  static override summary = "Serve a bundle as an HTTP twin with MCP tools and a control plane.";
  static override description =
    "The app's own paths answer from the learned state and the recording, MCP (Streamable HTTP) is at /mcp with one episode per session, and /__apptwin/ holds the control plane (episodes, reset, state, diff, health, routes). With --stdio, MCP runs over stdin/stdout instead and logs go to stderr. With --json the endpoints are printed as one JSON line once the twin listens.";
  static override examples = [
    "<%= config.bin %> serve ./items-bundle",
    "<%= config.bin %> serve ./items-bundle --port 0 --json",
    "<%= config.bin %> serve ./items-bundle --stdio",
    "<%= config.bin %> serve ./items-bundle --log --latency 100-300 --faults faults.json",
    "<%= config.bin %> serve ./items-bundle --store redis://127.0.0.1:6379/0 --port 8080",
  ];
  static override args = {
    dir: Args.string({ description: "bundle directory (from apptwin build)", required: true }),
  };
  static override flags = {
    port: Flags.integer({
      description: "port to listen on (0: any free port)",
      default: 4310,
      min: 0,
      max: 65535,
    }),
    host: Flags.string({ description: "address to bind", default: "127.0.0.1" }),
    stdio: Flags.boolean({ description: "serve MCP over stdin/stdout instead of HTTP", default: false }),
    "max-episodes": Flags.integer({
      description:
        "most episodes held at once, default included; past it the least recently used one without a live MCP session is evicted",
      default: 64,
      min: 1,
    }),
    "session-idle-ms": Flags.integer({
      description: "close an MCP session after this many ms without a request",
      default: 30 * 60 * 1000,
      min: 1000,
    }),
    latency: Flags.string({
      description:
        "delay every request: ms (200), a range (100-300) or lognormal:<median ms>:<sigma>; a faults file's route rules may set their own",
    }),
    faults: Flags.string({
      description:
        "a faults file: latency and faults per route (status, drop, truncate); see docs/specs/serve",
    }),
    log: Flags.boolean({
      description: "print one line per request on stderr (method, path, status, served by, ms)",
      default: false,
    }),
    "journal-size": Flags.integer({
      description: "requests each episode's journal keeps (GET /__apptwin/episodes/:id/requests)",
      default: 1000,
      min: 0,
    }),
    store: Flags.string({
      description:
        "keep the episodes and MCP sessions in Redis (redis://host:port/db), shared by every replica of this bundle behind a load balancer; default: in this process",
    }),
    "episode-ttl-ms": Flags.integer({
      description:
        "with --store: drop an episode unused for this many ms (0: never; default is never dropped)",
      default: 0,
      min: 0,
    }),
    "allow-remote": Flags.boolean({
      description: "allow a non-loopback --host (the twin has no auth)",
      default: false,
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Serve);
    checkHost(flags.host, flags["allow-remote"]);
    const bundle = await readBundle(args.dir);
    const faults = await readFaultPlan({ file: flags.faults, latency: flags.latency });
    const log = flags.log ? (line: string) => process.stderr.write(`${line}\n`) : undefined;
    if (flags.stdio) {
      if (flags.store !== undefined) {
        throw new UserError(
          "stdio_with_store",
          "--stdio serves one client from this process; --store shares episodes between replicas over HTTP. Leave out one of them.",
        );
      }
      const stdio = await serveStdio(bundle, undefined, { faults, log });
      process.stderr.write(
        `apptwin: serving ${bundle.manifest.name} (${bundle.tools.length} tools) as MCP over stdio\n`,
      );
      await Promise.race([stdio.closed, untilSignal()]);
      await stdio.close();
      return;
    }
    const store = await openStore(bundle, {
      store: flags.store,
      maxEpisodes: flags["max-episodes"],
      episodeTtlMs: flags["episode-ttl-ms"],
      sessionIdleMs: flags["session-idle-ms"],
      onState: (line) => process.stderr.write(`apptwin serve: ${line}\n`),
    });
    const { twin, endpoints } = await startHttpTwin(bundle, {
      store,
      port: flags.port,
      host: flags.host,
      maxEpisodes: flags["max-episodes"],
      sessionIdleMs: flags["session-idle-ms"],
      faults,
      journalCapacity: flags["journal-size"],
      log,
    });
    this.announce(endpoints);
    const signal = await untilSignal();
    await twin.close();
    await store?.close();
    if (!this.jsonEnabled()) this.log(`Stopped (${signal}).`);
  }

  private announce(e: TwinEndpoints): void {
    if (this.jsonEnabled()) {
      process.stdout.write(`${JSON.stringify(e)}\n`);
      return;
    }
    this.log(`Serving ${e.name} (${e.tools} tools) at ${e.url}`);
    this.log(`  MCP (Streamable HTTP): ${e.mcp}`);
    this.log(`  Control plane:         ${e.control}`);
    this.log(`  Episodes:              ${e.store}`);
    this.log("Press Ctrl+C to stop.");
  }
}
