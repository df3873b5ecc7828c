/**
 * `apptwin mcp --http PORT`: Streamable HTTP at `/mcp` on loopback, one
 * session (and one server) per client, all on one shared context. Answers
 * stream as SSE, so a capture's progress notifications arrive while it
 * runs, and list-changed notifications reach each session's GET stream.
 * This server can drive a browser with the user's secrets and write files,
 * so it only ever binds to loopback and refuses requests addressed to other
 * hosts or sent by pages of other origins (DNS rebinding, cross-site).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { UserError } from "../errors/user-error.js";
import { loopbackRefusal } from "../serve/http/loopback-guard.js";
import { readBoundedBody } from "../serve/http/read-body.js";
import { MAX_WRAPPED_DEPTH, parseJsonWithin } from "../util/json-depth.js";
import { createApptwinMcpServer } from "./apptwin-mcp-server.js";
import type { McpContext } from "./mcp-context.js";

/** A scenario may be up to 4 MiB; its JSON-RPC envelope a little more. */
const MAX_BODY = 5 * 1024 * 1024;

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** A running `apptwin mcp --http`. */
export interface McpHttpServer {
  url: string;
  close(): Promise<void>;
}

/** Starts the HTTP transport on 127.0.0.1:port. */
export async function startMcpHttp(ctx: McpContext, port: number): Promise<McpHttpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refusal = loopbackRefusal(req.headers);
    if (refusal !== null)
      return rpcError(
        res,
        403,
        -32000,
        `${refusal.error}: apptwin mcp answers only requests addressed to 127.0.0.1, localhost or [::1] and sent by no page or a loopback page.`,
      );
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (path !== "/mcp") return rpcError(res, 404, -32000, `Not found: apptwin mcp answers at /mcp only.`);
    let body: unknown;
    if (req.method === "POST") {
      const read = await readBoundedBody(req, MAX_BODY);
      if (read.tooLarge) {
        res.writeHead(413, { connection: "close" }).end();
        req.destroy();
        return;
      }
      const parsed = parseJsonWithin(read.bytes.toString("utf8"), MAX_WRAPPED_DEPTH);
      if (!parsed.ok)
        return rpcError(
          res,
          400,
          -32700,
          parsed.why === "too_deep"
            ? `Parse error: the request body nests objects and arrays more than ${MAX_WRAPPED_DEPTH} levels deep.`
            : "Parse error: the request body is not JSON.",
        );
      body = parsed.value;
    }
    const sid = req.headers["mcp-session-id"];
    if (typeof sid === "string") {
      const transport = sessions.get(sid);
      if (transport === undefined)
        return rpcError(res, 404, -32001, `Unknown MCP session "${sid}"; start a new one with initialize.`);
      return transport.handleRequest(req, res, body);
    }
    if (req.method !== "POST" || !isInitializeRequest(body))
      return rpcError(
        res,
        400,
        -32000,
        "No mcp-session-id header: the first request of a session must be initialize.",
      );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    const server = createApptwinMcpServer(ctx);
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error) => {
      process.stderr.write(
        `apptwin mcp: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`,
      );
      if (!res.headersSent) rpcError(res, 500, -32603, "Internal error (see the server's stderr).");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", (err: NodeJS.ErrnoException) =>
      reject(
        err.code === "EADDRINUSE"
          ? new UserError(
              "port_in_use",
              `Port ${port} on 127.0.0.1 is in use; choose another with --http N (0 picks a free one).`,
            )
          : err,
      ),
    );
    http.listen(port, "127.0.0.1", () => resolve());
  });
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  return {
    url,
    close: async () => {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(all.map((t) => t.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
