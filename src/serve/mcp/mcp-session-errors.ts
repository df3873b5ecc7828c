/** The JSON-RPC error answers of `/mcp` for a request outside any session, the same whoever keeps the sessions. */

/** 404: the session id names no live session (ended, idled out, or never issued). */
export function unknownSession(sid: string): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    error: { code: -32001, message: `Unknown MCP session "${sid}"; start a new session with initialize.` },
    id: null,
  };
}

/** 400: a request without a session id that is not an initialize. */
export function noSessionHeader(): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    error: {
      code: -32000,
      message: "No mcp-session-id header: the first request of a session must be initialize.",
    },
    id: null,
  };
}
