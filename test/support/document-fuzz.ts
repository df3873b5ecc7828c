/**
 * Hostile documents for the fuzz test: a valid scenario, HAR or evidence
 * mutated at the value level (any JSON value at any place, a key removed or
 * added, strings with line breaks, NUL, lone surrogates, huge numbers) and at
 * the text level (truncated, a byte inserted, a key written twice, a byte
 * order mark, nesting 100 000 deep). The same generators serve `npm test`
 * (fixed seed, a few hundred runs) and `npm run fuzz` (many more).
 */
import fc from "fast-check";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Path = (string | number)[];

/** Every path into a JSON value (the root included), depth-first. */
function pathsOf(v: Json, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(v))
    v.forEach((x, i) => {
      pathsOf(x, [...at, i], out);
    });
  else if (v !== null && typeof v === "object")
    for (const [k, x] of Object.entries(v)) pathsOf(x, [...at, k], out);
  return out;
}

function setAt(root: Json, path: Path, value: Json | undefined): Json {
  if (path.length === 0) return value ?? null;
  const copy = structuredClone(root) as Record<string | number, Json>;
  let cur: Record<string | number, Json> = copy;
  for (const seg of path.slice(0, -1)) cur = cur[seg] as unknown as Record<string | number, Json>;
  const last = path[path.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(cur)) cur.splice(Number(last), 1);
    else delete cur[last];
  } else cur[last] = value;
  return copy as unknown as Json;
}

/** Strings that break naive readers: line breaks, NUL, a lone surrogate, RTL marks, credential shapes, huge. */
const nastyString = fc.oneof(
  fc.string(),
  fc.constantFrom(
    "",
    "GET\r\nX: y",
    "a\nb",
    "\u0000",
    "\ud800",
    "\u202e",
    "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln",
    "../../etc/passwd",
    "%00%0d%0a",
    'role=buton[name="x"]',
    "x".repeat(70_000),
    "http://",
    "javascript:alert(1)",
    "__proto__",
    "constructor",
  ),
);

const nastyNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 1e308, -1e308, 2 ** 53 + 1, 0.5, 1e21),
);

/** A JSON value to put anywhere. */
const anyValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> },
  { weight: 3, arbitrary: nastyString },
  { weight: 2, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.constantFrom<Json>(null, true, false, [], {}, [[[]]], { a: { b: { c: {} } } }) },
);

/** One value-level change: replace, remove, or add a key at a random place. */
const valueMutation = fc.record({
  pick: fc.nat(),
  op: fc.constantFrom("replace", "remove", "add"),
  key: fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom("__proto__", "schema_version", "method", "name"),
  ),
  value: anyValue,
});

type TextMutation =
  | { kind: "truncate"; at: number }
  | { kind: "insert"; at: number; text: string }
  | { kind: "duplicate-key"; at: number }
  | { kind: "bom" }
  | { kind: "deep"; depth: number };

/** One text-level change. */
const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    text: fc.constantFrom("{", "}", "[", "]", '"', ",", ":", "\\", "\u0000", "\ufeff", "\n"),
  }),
  fc.record({ kind: fc.constant("duplicate-key" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("bom" as const) }),
  fc.record({ kind: fc.constant("deep" as const), depth: fc.constantFrom(65, 1000, 100_000) }),
);

function applyValue(doc: Json, m: { pick: number; op: string; key: string; value: Json }): Json {
  const paths = pathsOf(doc);
  const path = paths[m.pick % paths.length]!;
  if (m.op === "remove") return path.length === 0 ? doc : setAt(doc, path, undefined);
  if (m.op === "add") {
    const target = path.reduce<Json>((v, seg) => (v as Record<string | number, Json>)[seg]!, doc);
    if (target === null || typeof target !== "object" || Array.isArray(target))
      return setAt(doc, path, m.value);
    return setAt(doc, [...path, m.key], m.value);
  }
  return setAt(doc, path, m.value);
}

function applyText(text: string, m: TextMutation): string {
  switch (m.kind) {
    case "truncate":
      return text.slice(0, m.at % (text.length + 1));
    case "insert": {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
    case "duplicate-key": {
      const keys = [...text.matchAll(/"([A-Za-z_]+)":/g)];
      if (keys.length === 0) return text;
      const hit = keys[m.at % keys.length]!;
      const at = hit.index! + hit[0].length;
      return `${text.slice(0, at)}1,${hit[0]}${text.slice(at)}`;
    }
    case "bom":
      return `\ufeff${text}`;
    case "deep": {
      const at = text.lastIndexOf("}");
      if (at < 0) return `${"[".repeat(m.depth)}${"]".repeat(m.depth)}`;
      return `${text.slice(0, at)},"zz":${"[".repeat(m.depth)}${"]".repeat(m.depth)}${text.slice(at)}`;
    }
  }
}

/** Hostile variants of a valid document's text: value-level changes, then maybe a text-level one. */
export function hostileText(base: Json): fc.Arbitrary<string> {
  return fc
    .tuple(fc.array(valueMutation, { minLength: 0, maxLength: 4 }), fc.option(textMutation, { freq: 3 }))
    .map(([values, text]) => {
      let doc = base;
      for (const m of values) doc = applyValue(doc, m);
      const written = JSON.stringify(doc, null, 1);
      return text === null ? written : applyText(written, text);
    });
}

/** How many runs each property gets: a few hundred under `npm test`, `APPTWIN_FUZZ_RUNS` under `npm run fuzz`. */
export const FUZZ_RUNS = Number(process.env["APPTWIN_FUZZ_RUNS"] ?? 200);

/** The fixed seed of `npm test` (a longer run may give its own with `APPTWIN_FUZZ_SEED`). */
export const FUZZ_SEED = Number(process.env["APPTWIN_FUZZ_SEED"] ?? 20261301);
