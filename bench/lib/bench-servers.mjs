// What the serving benchmarks (bench/serve.mjs, bench/episodes.mjs) share: the items every server under test
// holds, and waiting for a child server's first line that says where it listens.
import { join } from "node:path";
import { createInterface } from "node:readline";

/** `n` items shaped like the items app's: id, title, done, created_at, updated_at. */
export function items(n) {
  const out = [];
  for (let i = 1; i <= n; i++) {
    const t = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
    out.push({ id: i, title: `Item number ${i}`, done: i % 3 === 0, created_at: t, updated_at: t });
  }
  return out;
}

/**
 * The bundle the serving benchmarks' twin serves: the items app's model as learned (through `root`'s dist/) from its
 * checked-in recording, its seed replaced by `n` items.
 */
export async function itemsTwinBundle(root, n) {
  const { learnModel } = await import(join(root, "dist/bundle/learn-model.js"));
  const { readEvidence } = await import(join(root, "dist/evidence/evidence-io.js"));
  const { model } = learnModel(await readEvidence(join(root, "test/fixtures/evidence/items.capture.json")));
  model.id_sequences.items = n + 1;
  return {
    manifest: { name: "bench", assets: [] },
    model,
    seed: { collections: { items: items(n) } },
    tools: [],
    assetsDir: null,
  };
}

/** Resolves with the first capture of `match` in a child's stdout lines; rejects when it exits first. */
export function firstLine(child, match) {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.on("line", (line) => {
      const m = match.exec(line);
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`server exited (${code}) before it listened`)));
  });
}

/**
 * A credential for the twin's writes: the items recording's every accepted write carried one (cookies, a bearer
 * token), and a write carrying none is answered 501 `unauthenticated_unrecorded`; any value of one is served. The
 * bare and json-server anchors ignore it.
 */
export const CREDENTIAL = { authorization: "Bearer bench" };

/** The write mix's requests on one connection (autocannon): create at `base`, patch what was created, delete it. */
export function writeMixRequests(base) {
  const headers = { "content-type": "application/json", ...CREDENTIAL };
  const idPath = (req, ctx) => ({ ...req, path: `${base}/${ctx.id}` });
  return [
    {
      method: "POST",
      path: base,
      headers,
      body: JSON.stringify({ title: "Bench item", done: false }),
      onResponse: (_status, body, ctx) => {
        ctx.id = JSON.parse(body).id;
      },
    },
    { method: "PATCH", headers, body: JSON.stringify({ done: true }), setupRequest: idPath },
    { method: "DELETE", headers: CREDENTIAL, setupRequest: idPath },
  ];
}
