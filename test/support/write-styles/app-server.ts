/**
 * The tiny in-process apps of the write-conventions harness (test/write-styles.test.ts):
 * each app is a pure handler over its own in-memory state, served on a real loopback
 * socket (port 0) so the recorder's evidence comes from real HTTP exchanges.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the app sees it: the JSON body parsed (undefined when none). */
export interface AppRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** One answer: a JSON body (none when undefined) and extra headers. */
export interface AppAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type AppHandler = (req: AppRequest) => AppAnswer;

/** The path parameters of `pattern` (`PUT /flow/:id`) when the request matches it, else null. */
export function route(req: AppRequest, pattern: string): Record<string, string> | null {
  const [method, path] = pattern.split(" ") as [string, string];
  if (req.method !== method) return null;
  const want = path.split("/").filter(Boolean);
  const got = req.path.split("/").filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w.startsWith(":")) params[w.slice(1)] = decodeURIComponent(got[i]!);
    else if (w !== got[i]) return null;
  }
  return params;
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): AppAnswer => ({
  status,
  body,
  ...(headers ? { headers } : {}),
});
export const notFound = (): AppAnswer => json(404, { error: "not found" });

/** A running app and how to stop it. */
export interface RunningApp {
  url: string;
  close(): Promise<void>;
}

/** Serves `handler` on 127.0.0.1 (port 0) until closed. */
export async function serveApp(handler: AppHandler): Promise<RunningApp> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      let body: unknown;
      if (text !== "") {
        try {
          body = JSON.parse(text);
        } catch {
          res.writeHead(400, { "content-type": "application/json; charset=utf-8" });
          res.end(JSON.stringify({ error: "invalid json" }));
          return;
        }
      }
      const answer = handler({
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      });
      const headers: Record<string, string> = { ...(answer.headers ?? {}) };
      if (answer.body === undefined) {
        res.writeHead(answer.status, headers);
        res.end();
        return;
      }
      headers["content-type"] = "application/json; charset=utf-8";
      res.writeHead(answer.status, headers);
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
