/**
 * Times as apps write them: an ISO 8601 text's exact layout (`YYYY-MM-DDTHH:mm:ss.SSSSSSZ`,
 * `YYYY-MM-DD HH:mm:ss`, `…+02:00`, no zone at all) read into an instant, and an instant written back in the
 * same layout, so a twin stamps `2026-12-01T08:09:08` where the app did, not `…08.000Z`. Dates
 * (`YYYY-MM-DD`) apart. Shared by learn (which recognises the layout), serve (which writes it) and fidelity
 * (which compares times by layout).
 */

/** The layout `Date.prototype.toISOString` writes: what a clock rule without a layout means. */
export const DEFAULT_LAYOUT = "YYYY-MM-DDTHH:mm:ss.SSSZ";

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})([T ])(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LAYOUT = /^YYYY-MM-DD([T ])HH:mm(:ss(\.S{1,9})?)?(Z|\+HH:MM|\+HHMM)?$/;

/** An ISO time read from text. */
export interface IsoTime {
  /** The instant, in ms since the epoch; for a time without a zone, its wall clock read as UTC. */
  ms: number;
  /** The layout it was written in (`YYYY-MM-DDTHH:mm:ss.SSSZ`). */
  layout: string;
  /** The offset (minutes east of UTC) the text states, 0 for `Z`, null when it states none (a local time). */
  offsetMin: number | null;
}

/** Reads an ISO 8601 date-time in any common layout, or null. */
export function parseIsoTime(text: string): IsoTime | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const [, y, mo, d, sep, h, mi, s, frac, zone] = m;
  const ms0 = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  if (!isDay(ms0, Number(mo), Number(d)) || Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59)
    return null;
  const ms = ms0 + (frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0);
  let offsetMin: number | null = null;
  let zoneLayout = "";
  if (zone === "Z") {
    offsetMin = 0;
    zoneLayout = "Z";
  } else if (zone) {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    offsetMin = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
    zoneLayout = zone.includes(":") ? "+HH:MM" : "+HHMM";
  }
  const layout = `YYYY-MM-DD${sep}HH:mm${s === undefined ? "" : ":ss"}${frac ? `.${"S".repeat(frac.length)}` : ""}${zoneLayout}`;
  return { ms: offsetMin === null ? ms : ms - offsetMin * 60_000, layout, offsetMin };
}

/** True for a layout `formatIsoTime` can write. */
export function isLayout(layout: string): boolean {
  return LAYOUT.test(layout);
}

/** True when `ms` falls on month `month` (1-12), day `day`: Date.UTC rolls 2026-02-30 over to March. */
function isDay(ms: number, month: number, day: number): boolean {
  const d = new Date(ms);
  return !Number.isNaN(ms) && d.getUTCMonth() + 1 === month && d.getUTCDate() === day;
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, "0");

/**
 * Writes instant `ms` in `layout`, at `offsetMin` minutes east of UTC (the zone the layout writes, or the wall
 * clock of a layout without a zone).
 */
export function formatIsoTime(ms: number, layout: string, offsetMin = 0): string {
  const m = LAYOUT.exec(layout);
  if (!m) return new Date(ms).toISOString();
  const [, sep, sec, frac, zone] = m;
  const wall = new Date(ms + offsetMin * 60_000);
  let out = `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}${sep}${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`;
  if (sec) out += `:${pad(wall.getUTCSeconds())}`;
  if (frac)
    out += `.${pad(wall.getUTCMilliseconds(), 3)
      .padEnd(frac.length - 1, "0")
      .slice(0, frac.length - 1)}`;
  if (zone === "Z") out += offsetMin === 0 ? "Z" : formatOffset(offsetMin, true);
  else if (zone) out += formatOffset(offsetMin, zone === "+HH:MM");
  return out;
}

function formatOffset(offsetMin: number, colon: boolean): string {
  const sign = offsetMin < 0 ? "-" : "+";
  const h = pad(Math.floor(Math.abs(offsetMin) / 60));
  const mi = pad(Math.abs(offsetMin) % 60);
  return `${sign}${h}${colon ? ":" : ""}${mi}`;
}

/** Reads a calendar date (`2026-12-01`) as the ms of its midnight UTC, or null. */
export function parseDate(text: string): number | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return isDay(ms, Number(m[2]), Number(m[3])) ? ms : null;
}

/** The calendar date (`YYYY-MM-DD`) of instant `ms` at `offsetMin` minutes east of UTC. */
export function formatDate(ms: number, offsetMin = 0): string {
  return formatIsoTime(ms, "YYYY-MM-DDTHH:mm", offsetMin).slice(0, 10);
}
