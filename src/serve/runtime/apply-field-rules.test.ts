/** The clock written as the rule asks: the app's layout, offset and dates. */
import { describe, expect, it } from "vitest";
import { formatClock } from "./apply-field-rules.js";

describe("formatClock", () => {
  const ms = Date.UTC(2026, 11, 1, 8, 9, 8, 441);
  it("writes every clock format the model knows", () => {
    expect(formatClock(ms, { format: "iso" })).toBe("2026-12-01T08:09:08.441Z");
    expect(formatClock(ms, { format: "iso", layout: "YYYY-MM-DDTHH:mm:ss" })).toBe("2026-12-01T08:09:08");
    expect(formatClock(ms, { format: "iso", layout: "YYYY-MM-DD HH:mm:ss", offset_min: 120 })).toBe(
      "2026-12-01 10:09:08",
    );
    expect(formatClock(ms, { format: "iso", layout: "YYYY-MM-DDTHH:mm:ss.SSSSSSZ" })).toBe(
      "2026-12-01T08:09:08.441000Z",
    );
    expect(formatClock(ms, { format: "date" })).toBe("2026-12-01");
    expect(formatClock(ms, { format: "epoch_ms" })).toBe(ms);
    expect(formatClock(ms, { format: "epoch_s" })).toBe(Math.floor(ms / 1000));
  });
});
