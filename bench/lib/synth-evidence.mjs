// Synthetic items-app evidence for the benchmarks (bench/learn.mjs, bench/build-memory.mjs): a
// recording of `n` records that creates, reads back, patches and deletes items, with a full list every few
// records, shaped as capture writes it.
const ORIGIN = "http://127.0.0.1:4010";
const T0 = Date.UTC(2026, 2, 1, 10, 0, 0);
const body = (v) => {
  const text = JSON.stringify(v);
  return { encoding: "utf8", text, size: text.length, truncated: false, mime_type: "application/json" };
};
const json = [{ name: "content-type", value: "application/json" }];

function rec(seq, method, path, status, req, res) {
  return {
    seq,
    step_id: null,
    started_at: T0 + seq * 10,
    duration_ms: 3,
    resource_type: "fetch",
    initiator: "page",
    request: {
      method,
      url: ORIGIN + path,
      headers: req === undefined ? [] : json,
      body: req === undefined ? null : body(req),
    },
    response: {
      status,
      status_text: "",
      headers: res === undefined ? [] : json,
      body: res === undefined ? null : body(res),
      redirect_to: null,
    },
    failure: null,
    origin: null,
  };
}

/** A recording that creates, reads back, patches and deletes items, with a full list every 50 records. */
export function synth(n) {
  const records = [];
  const items = new Map();
  let next = 1;
  const iso = (seq) => new Date(T0 + seq * 10 + 1).toISOString();
  while (records.length < n) {
    const seq = records.length;
    const k = seq % 10;
    const ids = () => [...items.keys()];
    if (k < 2 || items.size < 3) {
      const item = {
        id: next++,
        title: `Item ${seq}`,
        done: false,
        created_at: iso(seq),
        updated_at: iso(seq),
      };
      items.set(item.id, item);
      records.push(rec(seq, "POST", "/api/items", 201, { title: item.title }, item));
    } else if ((k === 3 || k === 7) && items.size > 40) {
      const id = ids()[(seq * 5) % items.size];
      items.delete(id);
      records.push(rec(seq, "DELETE", `/api/items/${id}`, 204));
    } else if (k === 5) {
      const id = ids()[(seq * 3) % items.size];
      const item = { ...items.get(id), done: true, updated_at: iso(seq) };
      items.set(id, item);
      records.push(rec(seq, "PATCH", `/api/items/${id}`, 200, { done: true }, item));
    } else if (k === 6) {
      records.push(rec(seq, "GET", `/api/items/${next + 1000}`, 404, undefined, { error: "not_found" }));
    } else if (k >= 8) {
      records.push(
        rec(seq, "GET", "/api/items", 200, undefined, { data: [...items.values()], total: items.size }),
      );
    } else {
      const id = ids()[(seq * 7) % items.size];
      records.push(rec(seq, "GET", `/api/items/${id}`, 200, undefined, items.get(id)));
    }
  }
  return {
    schema_version: 1,
    evidence_id: "ev_bench",
    source: { kind: "capture", scenario: null, har: null, merged: null },
    app_origin: ORIGIN,
    allowed_origins: [],
    browser: null,
    started_at: T0,
    finished_at: T0 + n * 10,
    verdict: "passed",
    steps: [],
    records,
    redactions: [],
    warnings: [],
    limitations: [],
  };
}
