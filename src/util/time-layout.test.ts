/** ISO layouts read and written back exactly, dates apart. */
import { describe, expect, it } from "vitest";
import { formatDate, formatIsoTime, parseDate, parseIsoTime } from "./time-layout.js";

describe("ISO time layouts", () => {
  const at = Date.UTC(2026, 11, 1, 8, 9, 8, 441);
  it.each([
    ["2026-12-01T08:09:08.441Z", "YYYY-MM-DDTHH:mm:ss.SSSZ", 0],
    ["2026-12-01T08:09:08Z", "YYYY-MM-DDTHH:mm:ssZ", 0],
    ["2026-12-01T08:09:08.441000Z", "YYYY-MM-DDTHH:mm:ss.SSSSSSZ", 0],
    ["2026-12-01T08:09:08", "YYYY-MM-DDTHH:mm:ss", null],
    ["2026-12-01 08:09:08", "YYYY-MM-DD HH:mm:ss", null],
    ["2026-12-01T10:09:08.441+02:00", "YYYY-MM-DDTHH:mm:ss.SSS+HH:MM", 120],
    ["2026-12-01T03:09:08-0500", "YYYY-MM-DDTHH:mm:ss+HHMM", -300],
  ])("reads %s as layout %s and writes it back", (text, layout, offset) => {
    const t = parseIsoTime(text)!;
    expect(t.layout).toBe(layout);
    expect(t.offsetMin).toBe(offset);
    expect(formatIsoTime(t.ms, layout, offset ?? 0)).toBe(text);
  });

  it("writes a local time at the app's offset and keeps the instant of a zoned one", () => {
    expect(formatIsoTime(at, "YYYY-MM-DDTHH:mm:ss", 60)).toBe("2026-12-01T09:09:08");
    expect(parseIsoTime("2026-12-01T10:09:08.441+02:00")!.ms).toBe(at);
  });

  it("refuses what is no time: a bad day, a date alone, prose", () => {
    expect(parseIsoTime("2026-02-30T08:00:00Z")).toBeNull();
    expect(parseIsoTime("2026-12-01")).toBeNull();
    expect(parseIsoTime("at 08:09")).toBeNull();
  });

  it("reads and writes calendar dates", () => {
    expect(parseDate("2026-12-01")).toBe(Date.UTC(2026, 11, 1));
    expect(parseDate("2026-13-01")).toBeNull();
    expect(formatDate(at)).toBe("2026-12-01");
    expect(formatDate(Date.UTC(2026, 11, 1, 23, 30), 60)).toBe("2026-12-02");
  });
});
