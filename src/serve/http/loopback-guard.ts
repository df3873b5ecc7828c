/**
 * Binding to loopback keeps other machines out, but not the user's own
 * browser: any web page can send requests to 127.0.0.1 (cross-site), and a
 * page whose domain is re-pointed at 127.0.0.1 can read the answers (DNS
 * rebinding). The twin has no authentication, so a twin bound to loopback
 * answers only requests addressed to a loopback name and, when they carry an
 * Origin, sent by a loopback page (such as the app's frontend it serves).
 */
import type { IncomingHttpHeaders } from "node:http";

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "::1"]);

/** The host name of a Host header value (`[::1]:80` → `::1`, `LOCALHOST:1` → `localhost`). */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(1, h.indexOf("]") < 0 ? undefined : h.indexOf("]"));
  const colon = h.lastIndexOf(":");
  return colon < 0 ? h : h.slice(0, colon);
}

function loopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && LOOPBACK_NAMES.has(hostName(url.host));
  } catch {
    return false; // "null" (sandboxed or file pages) and anything unparsable
  }
}

/** Why a request must be refused by a loopback-only twin, or null when it may be answered. */
export function loopbackRefusal(headers: IncomingHttpHeaders): { error: string; message: string } | null {
  const host = headers.host;
  if (host !== undefined && !LOOPBACK_NAMES.has(hostName(host))) {
    return {
      error: "forbidden_host",
      message: `The Host ${JSON.stringify(host)} is not a loopback name. A twin bound to loopback answers only requests addressed to 127.0.0.1, localhost or [::1] (a guard against DNS rebinding); serve with --allow-remote to accept other hosts.`,
    };
  }
  const origin = headers.origin;
  if (origin !== undefined && !loopbackOrigin(origin)) {
    return {
      error: "forbidden_origin",
      message: `A request from the web origin ${JSON.stringify(origin)} was refused. A twin bound to loopback answers only pages of loopback origins, such as the app's own frontend it serves (a guard against cross-site requests); serve with --allow-remote to accept other origins.`,
    };
  }
  return null;
}
