/**
 * Turns a recorded API transaction into the request the twin is asked,
 * with every real id the held-out run created replaced by the twin's own
 * (path segments, query values, id-like body fields).
 */
import type { ApiRecord } from "../learn/api-records.js";
import type { TwinRequest, TwinRequestBody } from "../serve/runtime/twin-types.js";
import { safeDecode } from "../util/safe-decode.js";
import type { IdMap } from "./id-map.js";
import { isIdKey } from "./id-map.js";

function body(rec: ApiRecord, ids: IdMap): TwinRequestBody {
  const raw = rec.record.request.body;
  switch (rec.request.kind) {
    case "none":
      return null;
    case "json":
      return { kind: "json", value: ids.translateJson(rec.request.value) };
    case "form":
      return {
        kind: "form",
        fields: [...new URLSearchParams(raw?.text ?? "")].map(([k, v]): [string, string] => [
          k,
          isIdKey(k) ? ids.translateText(v) : v,
        ]),
      };
    default:
      return raw === null ? null : { kind: "text", text: raw.text };
  }
}

/** The twin request for a recorded transaction, ids translated through `ids`. */
export function twinRequestFor(rec: ApiRecord, ids: IdMap): TwinRequest {
  const url = new URL(rec.record.request.url);
  const path = url.pathname
    .split("/")
    .map((seg) => {
      if (seg === "") return seg;
      const decoded = safeDecode(seg);
      const twin = ids.translateText(decoded);
      if (twin !== decoded) return encodeURIComponent(twin);
      // An id with a file-type suffix after it (`5.json`), as learn's templates keep it: the id part is translated.
      const suffixed = /^(.+?)(\.[A-Za-z][A-Za-z0-9]*)$/.exec(decoded);
      const stem = suffixed ? ids.translateText(suffixed[1]!) : null;
      return suffixed && stem !== suffixed[1] ? encodeURIComponent(`${stem}${suffixed[2]}`) : seg;
    })
    .join("/");
  const headers: Record<string, string> = {};
  for (const h of rec.record.request.headers) headers[h.name.toLowerCase()] = h.value;
  return {
    method: rec.method,
    path,
    query: rec.query.map(([k, v]): [string, string] => [k, ids.translateText(v)]),
    headers,
    body: body(rec, ids),
  };
}

/** `GET /api/items?done=true`: the request as the real app was asked it. */
export function requestLabel(rec: ApiRecord): string {
  return `${rec.method} ${rec.pathAndQuery}`;
}
