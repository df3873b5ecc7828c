/**
 * Cursors that name the last entity of a page (learned in src/learn/query-cursor.ts): the app's opaque token is a
 * text holding that entity's id (`{"id":3}`, `article:3`, or the id itself), as is or in base64/base64url. Shared
 * by learn and serve, so a confirmed cursor reads and renders the same on both sides.
 */
import type { Entity } from "./model-schema.js";

/** How a cursor is made from an id: `template` with `{id}` for the id, then encoded. */
export interface CursorCodec {
  codec: "plain" | "base64" | "base64url";
  template: string;
}

/** Tried in turn: a token both base64 forms read alike (no padding needed, no `-`/`_`) is taken as base64. */
const CODECS: CursorCodec["codec"][] = ["plain", "base64", "base64url"];

function decode(codec: CursorCodec["codec"], value: string): string | null {
  if (codec === "plain") return value;
  const re = codec === "base64" ? /^[A-Za-z0-9+/]+={0,2}$/ : /^[A-Za-z0-9_-]+$/;
  if (!re.test(value)) return null;
  const text = Buffer.from(value, codec).toString("utf8");
  // Round trip, exactly (base64 pads, base64url does not): a token of another encoding reads otherwise.
  const again = Buffer.from(text, "utf8").toString(codec);
  return again === value && /^[\x20-\x7e]+$/.test(text) ? text : null;
}

/** The cursor of an entity id. */
export function encodeCursor(c: CursorCodec, id: string): string {
  const text = c.template.replace("{id}", id);
  return c.codec === "plain" ? text : Buffer.from(text, "utf8").toString(c.codec);
}

/** The id a cursor names, or null when it is not one of this codec. */
export function decodeCursor(c: CursorCodec, value: string): string | null {
  const text = decode(c.codec, value);
  if (text === null) return null;
  const at = c.template.indexOf("{id}");
  const head = c.template.slice(0, at);
  const tail = c.template.slice(at + 4);
  if (!text.startsWith(head) || !text.endsWith(tail) || text.length <= head.length + tail.length) return null;
  return text.slice(head.length, text.length - tail.length);
}

/** The codecs under which `value` is a text holding `id` as a whole token (its last occurrence). */
export function codecsFor(value: string, id: string): CursorCodec[] {
  const out: CursorCodec[] = [];
  for (const codec of CODECS) {
    const text = decode(codec, value);
    if (text === null) continue;
    const at = text.lastIndexOf(id);
    if (at < 0) continue;
    const before = text[at - 1];
    const after = text[at + id.length];
    const word = /[A-Za-z0-9]/;
    if ((before !== undefined && word.test(before)) || (after !== undefined && word.test(after))) continue;
    out.push({ codec, template: `${text.slice(0, at)}{id}${text.slice(at + id.length)}` });
  }
  return out;
}

/** The entity's id as a cursor names it. */
export const idText = (e: Entity, idField: string): string | null => {
  const v = e[idField];
  return typeof v === "string" || typeof v === "number" ? String(v) : null;
};
