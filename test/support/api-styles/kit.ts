/**
 * The kit the API-style apps share (test/api-styles.test.ts): a tiny in-memory store of articles, a real loopback
 * HTTP server on port 0 around one style's handler, and a recorder that sends a scenario's requests over real HTTP
 * and writes every exchange (the URL, headers and body as sent, the status, headers and body as answered, the
 * times) into an Evidence, as a capture's request steps would.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Evidence,
  type EvidenceRecord,
  EvidenceSchema,
  type Header,
} from "../../../src/evidence/evidence-schema.js";

/** One entity of the apps: plain fields an app shows under its own names. */
export type Row = Record<string, unknown> & { id: number };

/** The articles every app starts with (each style shows them its own way). */
export function seedArticles(): Row[] {
  const rows: [string, string, number, string][] = [
    ["Alpha launch", "published", 120, "ann"],
    ["Beta notes", "draft", 45, "bob"],
    ["Gamma rays", "published", 300, "cy"],
    ["Delta plan", "archived", 12, "ann"],
    ["Epsilon guide", "published", 87, "bob"],
    ["Zeta review", "draft", 210, "cy"],
    ["Eta update", "published", 64, "ann"],
    ["Theta deep dive", "published", 150, "bob"],
  ];
  return rows.map(([title, status, views, author], i) => ({ id: i + 1, title, status, views, author }));
}

/** An in-memory table with integer ids given in turn (never reused). */
export class Table {
  rows: Row[];
  next: number;
  constructor(rows: Row[]) {
    this.rows = rows;
    this.next = Math.max(0, ...rows.map((r) => r.id)) + 1;
  }
  get(id: number): Row | undefined {
    return this.rows.find((r) => r.id === id);
  }
  create(fields: Record<string, unknown>, extra: (id: number) => Record<string, unknown> = () => ({})): Row {
    const id = this.next++;
    const row = { id, ...extra(id), ...fields } as Row;
    this.rows.push(row);
    return row;
  }
  patch(id: number, fields: Record<string, unknown>): Row | undefined {
    const row = this.get(id);
    if (row) Object.assign(row, fields, { id });
    return row;
  }
  remove(id: number): boolean {
    const before = this.rows.length;
    this.rows = this.rows.filter((r) => r.id !== id);
    return this.rows.length < before;
  }
}

/** Compares a field to a query value as the apps do: numbers as numbers, everything else as text. */
export function test(value: unknown, op: string, arg: string | string[]): boolean {
  const args = Array.isArray(arg) ? arg : [arg];
  const a = args[0] ?? "";
  const num = typeof value === "number" && a !== "" && !Number.isNaN(Number(a));
  const cmp = num ? (value as number) - Number(a) : String(value) < a ? -1 : String(value) > a ? 1 : 0;
  const text = String(value);
  switch (op) {
    case "eq":
      return cmp === 0;
    case "ne":
      return cmp !== 0;
    case "gt":
      return cmp > 0;
    case "gte":
      return cmp >= 0;
    case "lt":
      return cmp < 0;
    case "lte":
      return cmp <= 0;
    case "in":
      return args.some((x) => String(value) === x);
    case "contains":
      return text.includes(a);
    case "icontains":
      return text.toLowerCase().includes(a.toLowerCase());
    case "startswith":
      return text.startsWith(a);
    default:
      throw new Error(`unknown op ${op}`);
  }
}

/** Sorts rows by keys in turn, each ascending or descending (a stable sort on a copy). */
export function sortRows(rows: Row[], keys: [string, "asc" | "desc"][]): Row[] {
  return [...rows].sort((x, y) => {
    for (const [k, dir] of keys) {
      const a = x[k] as string | number;
      const b = y[k] as string | number;
      if (a === b) continue;
      return (a < b ? -1 : 1) * (dir === "asc" ? 1 : -1);
    }
    return 0;
  });
}

/** Picks the named fields of a row, in the order named. */
export function pick(row: Row, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((f) => f in row).map((f) => [f, row[f]]));
}

/** A request as a style's handler sees it. */
export interface AppRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: unknown;
}
/** A style's answer: a status, extra headers, and a JSON body (undefined: none). */
export interface AppAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}
export type Handler = (req: AppRequest, origin: string) => AppAnswer;

/** A JSON answer. */
export const json = (status: number, body: unknown, headers: Record<string, string> = {}): AppAnswer => ({
  status,
  body,
  headers,
});

/** The app on a real loopback socket (port 0). */
export async function serveApp(handler: Handler): Promise<{ origin: string; close(): Promise<void> }> {
  let origin = "";
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let answer: AppAnswer;
      try {
        const body = text === "" ? undefined : JSON.parse(text);
        answer = handler(
          { method: req.method ?? "GET", url: new URL(req.url ?? "/", origin), headers: req.headers, body },
          origin,
        );
      } catch (e) {
        answer = json(500, { error: String(e) });
      }
      const headers: Record<string, string> = { ...answer.headers };
      const bytes = answer.body === undefined ? "" : JSON.stringify(answer.body);
      if (answer.body !== undefined) headers["content-type"] ??= "application/json; charset=utf-8";
      res.writeHead(answer.status, headers);
      res.end(bytes);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

/** One request of a scenario: a path and query, optionally a method, headers and a JSON body. */
export interface Step {
  method?: string;
  path: string | ((seen: unknown[]) => string);
  headers?: Record<string, string>;
  body?: unknown;
}

const utf8 = (text: string, mime: string | null) => ({
  encoding: "utf8" as const,
  text,
  size: Buffer.byteLength(text),
  truncated: false,
  mime_type: mime,
});

/**
 * Sends every step over real HTTP, one after another (each its own request step, as a capture's `request` steps
 * are), and returns the Evidence of the exchanges. A step's path may be computed from the answers so far (a
 * cursor the last page carried, an id a create assigned).
 */
export async function recordScenario(origin: string, name: string, steps: Step[]): Promise<Evidence> {
  const records: EvidenceRecord[] = [];
  const answers: unknown[] = [];
  const startedAt = Date.now();
  for (const [seq, step] of steps.entries()) {
    const method = step.method ?? "GET";
    const path = typeof step.path === "function" ? step.path(answers) : step.path;
    const reqHeaders: Header[] = [{ name: "accept", value: "application/json" }];
    for (const [k, v] of Object.entries(step.headers ?? {})) {
      const at = reqHeaders.findIndex((h) => h.name === k.toLowerCase());
      if (at >= 0) reqHeaders.splice(at, 1);
      reqHeaders.push({ name: k.toLowerCase(), value: v });
    }
    const text = step.body === undefined ? null : JSON.stringify(step.body);
    if (text !== null) reqHeaders.push({ name: "content-type", value: "application/json" });
    // Each request starts in a millisecond of its own, as a browser's requests in turn do: order by time is strict.
    let t0 = Date.now();
    while (records.length > 0 && t0 <= records[records.length - 1]!.started_at!) t0 = Date.now();
    const res = await fetch(origin + path, {
      method,
      headers: reqHeaders.map((h) => [h.name, h.value]),
      ...(text === null ? {} : { body: text }),
    });
    const resText = await res.text();
    const duration = Date.now() - t0;
    const resHeaders: Header[] = [];
    res.headers.forEach((value, name) => {
      resHeaders.push({ name, value });
    });
    const mime = res.headers.get("content-type");
    answers.push(resText === "" ? null : JSON.parse(resText));
    records.push({
      seq,
      step_id: `s${seq + 1}`,
      started_at: t0,
      duration_ms: duration,
      resource_type: "fetch",
      initiator: "request-step",
      request: {
        method,
        url: origin + path,
        headers: reqHeaders,
        body: text === null ? null : utf8(text, "application/json"),
      },
      response: {
        status: res.status,
        status_text: res.statusText,
        headers: resHeaders,
        body: resText === "" ? null : utf8(resText, mime),
        redirect_to: null,
      },
      failure: null,
      origin: null,
    });
  }
  const digest = createHash("sha256").update(JSON.stringify(records)).digest("hex");
  return EvidenceSchema.parse({
    schema_version: 1,
    evidence_id: `ev_${digest.slice(0, 16)}`,
    source: { kind: "capture", scenario: { name, digest: "0".repeat(64) }, har: null, merged: null },
    app_origin: origin,
    allowed_origins: [],
    browser: null,
    started_at: startedAt,
    finished_at: Date.now(),
    verdict: "passed",
    steps: [],
    records,
    redactions: [],
    warnings: [],
    limitations: [],
  });
}
