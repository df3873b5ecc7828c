/** Milliseconds (13 digits) or seconds (10 digits) since 1970, between 2001 and 2100, as ms: a client's clock; else null. */
export function clockValue(value: string): number | null {
  if (/^\d{13}$/.test(value)) {
    const ms = Number(value);
    return ms >= 978_307_200_000 && ms < 4_102_444_800_000 ? ms : null;
  }
  if (/^\d{10}$/.test(value)) {
    const s = Number(value);
    return s >= 978_307_200 && s < 4_102_444_800 ? s * 1000 : null;
  }
  return null;
}
