#!/usr/bin/env node
// A fixed amount of work for a whole-process timer run from outside (such as /usr/bin/time -v) to check a ratio
// bench/episodes.mjs reports: starts one server of bench/episodes.mjs (`twin` or `bare`, over N items) in its own process, sends it COUNT requests
// of one kind (10 connections), stops it and exits. Run with COUNT and with 0: the difference of the two timings
// is the requests alone (start-up, the seed and learning cancel out). Kinds: `item` (GET an item by id), `list`
// (a list of 20), `writes` (POST -> PATCH -> DELETE). E.g. time `node bench/lib/fixed-load.mjs twin item 20000` and
// `... bare item 20000`, each also with 0, in turn. A fifth argument, STATE_MIBS (twin only), reads the state of
// another episode at that many MiB/s in a process of its own while the requests run (0: as fast as it can; none: no
// state read); either way the twin's seed text is built first (one state read), so a run with it and one without
// differ by the concurrent state alone: `... twin item 20000 100000 20` against `... twin item 20000 100000 none`.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { firstLine, writeMixRequests } from "./bench-servers.mjs";

const [kind = "twin", load = "item", count = "20000", n = "100000", stateMibs = "none"] =
  process.argv.slice(2);
const episodes = join(dirname(fileURLToPath(import.meta.url)), "../episodes.mjs");
const child = spawn(process.execPath, [episodes, `--${kind}-child`, n, "64"], {
  stdio: ["ignore", "pipe", "inherit", "ipc"],
});
const url = await firstLine(child, /^(http:\/\/\S+)$/);
const requests = {
  item: [{ method: "GET", path: `/api/items/${Number(n) / 2}` }],
  list: [{ method: "GET", path: "/api/items?limit=20" }],
  writes: writeMixRequests("/api/items"),
}[load];
if (!requests) throw new Error(`unknown load ${load} (item, list, writes)`);
let reader = null;
if (kind === "twin") {
  const created = await fetch(`${url}/__apptwin/episodes`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: "big" }),
  });
  if (created.status !== 201) throw new Error(`episode create answered ${created.status}`);
  await (await fetch(`${url}/__apptwin/episodes/big/state`)).arrayBuffer();
  if (stateMibs !== "none") {
    reader = spawn(process.execPath, [episodes, "--state-reader"], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    await new Promise((resolve) => reader.once("message", resolve));
    reader.send({
      url: `${url}/__apptwin/episodes/big/state`,
      ms: 3_600_000,
      rate: Number(stateMibs) * 1024 * 1024,
    });
  }
}
if (Number(count) > 0) {
  const r = await autocannon({ url, connections: 10, amount: Number(count), requests });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${r.non2xx} non-2xx answers, ${r.errors} errors`);
}
if (reader) {
  await new Promise((resolve) => {
    reader.once("exit", resolve);
    reader.kill("SIGTERM");
  });
}
await new Promise((resolve) => {
  child.once("exit", resolve);
  child.kill("SIGTERM");
});
