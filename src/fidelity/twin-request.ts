/**
 * Turns a recorded API transaction into the request the twin is asked,
 * with every real id the held-out run created replaced by the twin's own
 * (path segments, query values, id-like body fields).
 */
import type { ApiRecord } from "../learn/api-records.js";
import type { Model } from "../model/model-schema.js";
import { matchRoute } from "../serve/runtime/route-table.js";
import type { TwinRequest, TwinRequestBody } from "../serve/runtime/twin-types.js";
import { safeDecode } from "../util/safe-decode.js";
import type { IdMap, IdScopes } from "./id-map.js";

/** What translating a request needs: the pairs so far, the model (its routes) and the collections ids belong to. */
export interface IdContext {
  ids: IdMap;
  scopes: IdScopes;
  model: Model | null;
}

function body(rec: ApiRecord, ctx: IdContext, collection: string | null): TwinRequestBody {
  const { ids, scopes } = ctx;
  const raw = rec.record.request.body;
  switch (rec.request.kind) {
    case "none":
      return null;
    case "json":
      return { kind: "json", value: ids.translateJson(rec.request.value, collection, scopes) };
    case "form":
      return {
        kind: "form",
        fields: [...new URLSearchParams(raw?.text ?? "")].map(([k, v]): [string, string] => {
          const scope = scopes.ofRequestKey(k, collection);
          return [k, scope === null ? v : ids.translateText(scope, v)];
        }),
      };
    default:
      return raw === null ? null : { kind: "text", text: raw.text };
  }
}

/** The path and query of a request to the app, its real ids replaced by the twin's, each in its collection. */
export function translateTarget(
  method: string,
  pathname: string,
  query: readonly [string, string][],
  ctx: IdContext,
): { path: string; query: [string, string][]; collection: string | null } {
  const { ids, scopes } = ctx;
  const match = ctx.model === null ? null : matchRoute(ctx.model, method, pathname);
  const template = match?.route.endpoint.template.split("/") ?? null;
  const collection = match?.route.endpoint.collection ?? null;
  const path = pathname
    .split("/")
    .map((seg, i) => {
      if (seg === "") return seg;
      // A literal segment of the route is never an id; a parameter's is one of the collection its prefix is.
      if (template !== null && template[i] !== undefined && !template[i]!.startsWith("{")) return seg;
      const scope = template === null ? null : scopes.ofSegment(template.slice(1), i - 1);
      const decoded = safeDecode(seg);
      const twin = ids.translateText(scope, decoded);
      if (twin !== decoded) return encodeURIComponent(twin);
      // An id with a file-type suffix after it (`5.json`), as learn's templates keep it: the id part is translated.
      const suffixed = /^(.+?)(\.[A-Za-z][A-Za-z0-9]*)$/.exec(decoded);
      const stem = suffixed ? ids.translateText(scope, suffixed[1]!) : null;
      return suffixed && stem !== suffixed[1] ? encodeURIComponent(`${stem}${suffixed[2]}`) : seg;
    })
    .join("/");
  return {
    path,
    query: query.map(([k, v]): [string, string] => [
      k,
      ids.translateText(scopes.ofRequestKey(k, collection), v),
    ]),
    collection,
  };
}

/** The twin request for a recorded transaction, ids translated through `ctx.ids`, each in its collection. */
export function twinRequestFor(rec: ApiRecord, ctx: IdContext): TwinRequest {
  const url = new URL(rec.record.request.url);
  const { path, query, collection } = translateTarget(rec.method, url.pathname, rec.query, ctx);
  const headers: Record<string, string> = {};
  for (const h of rec.record.request.headers) headers[h.name.toLowerCase()] = h.value;
  return { method: rec.method, path, query, headers, body: body(rec, ctx, collection) };
}

/** `GET /api/items?done=true`: the request as the real app was asked it. */
export function requestLabel(rec: ApiRecord): string {
  return `${rec.method} ${rec.pathAndQuery}`;
}
