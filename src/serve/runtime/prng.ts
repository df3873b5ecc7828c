/**
 * A small seeded PRNG (sfc32, seeded by a cyrb128 hash of a string) and the
 * RFC 4122 version-4 UUID it draws. Pure: the state lives in the episode, so
 * the same episode id and seed always give the same UUIDs.
 */

/** Hashes a string into four 32-bit words (cyrb128), the seed of sfc32. */
export function hashSeed(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

/** Advances the sfc32 state in place and returns the next unsigned 32-bit word. */
export function nextWord(s: [number, number, number, number]): number {
  const [a, b, c, d] = s;
  const t = (((a + b) | 0) + d) | 0;
  s[3] = (d + 1) | 0;
  s[0] = b ^ (b >>> 9);
  s[1] = (c + (c << 3)) | 0;
  s[2] = ((c << 21) | (c >>> 11)) + t;
  s[2] |= 0;
  return t >>> 0;
}

/** Draws an RFC 4122 version-4 UUID (lower-case hex) from the PRNG state. */
export function nextUuid(s: [number, number, number, number]): string {
  const bytes: number[] = [];
  for (let i = 0; i < 4; i++) {
    const w = nextWord(s);
    bytes.push(w >>> 24, (w >>> 16) & 255, (w >>> 8) & 255, w & 255);
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
