/**
 * The checked-in JSON Schema is current with the zod schema, and real
 * scenarios validate against it (a small draft 2020-12 checker for the
 * keywords the schema uses; no extra dependency).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scenarioJsonSchemaText } from "../src/scenario/scenario-json-schema.js";

const root = join(import.meta.dirname, "..");
const schemaText = readFileSync(join(root, "schemas", "scenario.schema.json"), "utf8");
const schema = JSON.parse(schemaText) as Schema;
const read = (...p: string[]) => JSON.parse(readFileSync(join(root, ...p), "utf8")) as unknown;

type Schema = Record<string, unknown>;
const KNOWN = new Set([
  "$schema",
  "$id",
  "title",
  "description",
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "const",
  "enum",
  "anyOf",
  "oneOf",
  "pattern",
  "minimum",
  "maximum",
  "minLength",
  "minItems",
  "propertyNames",
]);

/** Returns the JSON pointers where `v` breaks `s`; throws on a keyword this checker does not know. */
function check(s: Schema, v: unknown, at = ""): string[] {
  for (const k of Object.keys(s)) if (!KNOWN.has(k)) throw new Error(`unknown keyword ${k} at ${at}`);
  const errs: string[] = [];
  const t = s["type"];
  const typeOf = Array.isArray(v)
    ? "array"
    : v === null
      ? "null"
      : Number.isInteger(v)
        ? "integer"
        : typeof v;
  if (t !== undefined && t !== typeOf && !(t === "number" && typeOf === "integer"))
    return [`${at}: type ${t}`];
  if ("const" in s && s["const"] !== v) errs.push(`${at}: const`);
  if (Array.isArray(s["enum"]) && !s["enum"].includes(v)) errs.push(`${at}: enum`);
  if (typeof v === "string") {
    if (typeof s["pattern"] === "string" && !new RegExp(s["pattern"], "u").test(v))
      errs.push(`${at}: pattern`);
    if (typeof s["minLength"] === "number" && v.length < s["minLength"]) errs.push(`${at}: minLength`);
  }
  if (typeof v === "number") {
    if (typeof s["minimum"] === "number" && v < s["minimum"]) errs.push(`${at}: minimum`);
    if (typeof s["maximum"] === "number" && v > s["maximum"]) errs.push(`${at}: maximum`);
  }
  if (Array.isArray(v)) {
    if (typeof s["minItems"] === "number" && v.length < s["minItems"]) errs.push(`${at}: minItems`);
    if (s["items"]) {
      v.forEach((x, i) => {
        errs.push(...check(s["items"] as Schema, x, `${at}/${i}`));
      });
    }
  }
  if (typeOf === "object") {
    const o = v as Record<string, unknown>;
    const props = (s["properties"] ?? {}) as Record<string, Schema>;
    for (const r of (s["required"] ?? []) as string[]) if (!(r in o)) errs.push(`${at}/${r}: required`);
    for (const [k, x] of Object.entries(o)) {
      if (props[k]) errs.push(...check(props[k], x, `${at}/${k}`));
      else if (s["additionalProperties"] === false) errs.push(`${at}/${k}: additionalProperties`);
      else if (typeof s["additionalProperties"] === "object")
        errs.push(...check(s["additionalProperties"] as Schema, x, `${at}/${k}`));
    }
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = s[key] as Schema[] | undefined;
    if (!options) continue;
    const passing = options.filter((o) => check(o, v, at).length === 0).length;
    if (key === "anyOf" ? passing === 0 : passing !== 1)
      errs.push(`${at}: ${key} (${passing} of ${options.length} match)`);
  }
  return errs;
}

describe("schemas/scenario.schema.json", () => {
  it("is the bytes z.toJSONSchema gives for the zod schema today (npm run schema:gen)", () => {
    expect(schemaText).toBe(scenarioJsonSchemaText());
    expect(schema["$id"]).toBe("urn:apptwin:schema:scenario:1");
    expect(schema["$schema"]).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema["title"]).toBe("apptwin scenario (schema_version 1)");
  });

  it("accepts the items example and every good fixture", () => {
    expect(check(schema, read("examples", "items.scenario.json"))).toEqual([]);
    const good = join("test", "fixtures", "scenarios", "good");
    for (const f of readdirSync(join(root, good))) expect(check(schema, read(good, f)), f).toEqual([]);
  });

  it("refuses the structural mistakes an editor can flag", () => {
    const bad = join("test", "fixtures", "scenarios", "bad");
    expect(check(schema, read(bad, "unknown-field.json"))).toEqual(["/steps/3: oneOf (0 of 12 match)"]);
    const s = read("examples", "items.scenario.json") as {
      steps: Record<string, unknown>[];
      limits?: unknown;
    };
    s.steps[0] = { ...s.steps[0], step_id: "1st", timeout_ms: 130_000 };
    s.limits = { max_steps: 0 };
    expect(check(schema, s)).toEqual(["/steps/0: oneOf (0 of 12 match)", "/limits/max_steps: minimum"]);
  });
});
