/**
 * The auth the recording shows, per endpoint: which credential carriers its
 * recorded requests sent (an Authorization header, a custom credential
 * header such as X-Api-Key or X-CSRF-Token, a cookie, a query parameter
 * holding a redacted value), never their values. An Authorization header's
 * scheme is named only when the recording shows it: in the header itself
 * (`Bearer [REDACTED…]`) or in the app's `WWW-Authenticate` challenge; a
 * header redacted whole is an opaque `authorization` scheme, not a guess.
 */

import type { Auth, AuthScheme } from "../model/model-schema.js";
import { isCredentialHeader } from "../util/credential-name.js";
import type { EndpointGroup } from "./endpoint-index.js";

const AUTH_HEADERS = new Set(["authorization", "proxy-authorization"]);
const REDACTED = "[REDACTED:";

/** An OpenAPI component key for a carrier: `[A-Za-z0-9._-]`. */
function keyOf(prefix: string, name: string): string {
  return `${prefix}_${name.replace(/[^A-Za-z0-9._-]+/g, "_")}`;
}

/** The HTTP scheme the recording names for the Authorization header: the header's own word, else a challenge's. */
function httpScheme(values: string[], challenges: string[]): "bearer" | "basic" | null {
  const named = new Set<string>();
  for (const v of values) {
    const word = /^\s*([A-Za-z]+)\s+\S/.exec(v)?.[1]?.toLowerCase();
    if (word && !v.trimStart().startsWith(REDACTED)) named.add(word);
  }
  if (named.size === 0) for (const c of challenges) named.add(c.trim().split(/\s+/)[0]!.toLowerCase());
  if (named.size !== 1) return null;
  const only = [...named][0];
  return only === "bearer" || only === "basic" ? only : null;
}

/** Learns the auth schemes of the recording and the sets each endpoint's requests sent. */
export function learnAuth(groups: readonly EndpointGroup[]): Auth {
  const authValues: string[] = [];
  const challenges: string[] = [];
  for (const g of groups)
    for (const o of g.observations) {
      for (const h of o.record.request.headers)
        if (h.name.toLowerCase() === "authorization") authValues.push(h.value);
      for (const h of o.record.response?.headers ?? [])
        if (h.name.toLowerCase() === "www-authenticate") challenges.push(h.value);
    }
  const authKind = httpScheme(authValues, challenges) ?? "authorization";
  const schemes = new Map<string, AuthScheme>();
  const carriersOf = (o: EndpointGroup["observations"][number]): string[] => {
    const ids = new Set<string>();
    const add = (s: AuthScheme) => {
      if (!schemes.has(s.id)) schemes.set(s.id, s);
      ids.add(s.id);
    };
    for (const h of o.record.request.headers) {
      const lower = h.name.toLowerCase();
      if (lower === "authorization") {
        add({
          id: authKind,
          kind: authKind,
          name: "Authorization",
          explain:
            authKind === "authorization"
              ? "An Authorization header; its scheme was redacted with the credential"
              : `HTTP ${authKind === "bearer" ? "Bearer" : "Basic"} authentication (the Authorization header)`,
        });
      } else if (lower === "cookie") {
        for (const seg of h.value.split(";")) {
          const name = seg.split("=")[0]!.trim();
          if (name !== "")
            add({ id: keyOf("cookie", name), kind: "cookie", name, explain: `The ${name} cookie` });
        }
      } else if (!AUTH_HEADERS.has(lower) && isCredentialHeader(lower, h.value)) {
        add({ id: keyOf("header", lower), kind: "header", name: h.name, explain: `The ${h.name} header` });
      }
    }
    for (const [name, value] of o.query)
      if (value.includes(REDACTED))
        add({ id: keyOf("query", name), kind: "query", name, explain: `The ${name} query parameter` });
    return [...ids].sort();
  };
  const endpoints: Record<string, string[][]> = {};
  for (const g of [...groups].sort((a, b) => (a.toolName < b.toolName ? -1 : 1))) {
    const sets = new Map<string, string[]>();
    for (const o of g.observations) {
      const ids = carriersOf(o);
      sets.set(ids.join(" "), ids);
    }
    endpoints[g.toolName] = [...sets.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, v]) => v);
  }
  return { schemes: [...schemes.values()].sort((a, b) => (a.id < b.id ? -1 : 1)), endpoints };
}
