/**
 * The JSON Schema of a scenario file, generated from the zod schema with zod's
 * own `z.toJSONSchema`, so editors autocomplete a file that sets `"$schema"`.
 * Cross-field rules (targets, secrets, origins, credentials) are not in it:
 * `apptwin validate` is the full check.
 */
import { z } from "zod";
import { canonicalJson } from "../util/canonical-json.js";
import { ScenarioSchema } from "./scenario-schema.js";

/** The `$id` of the scenario JSON Schema. */
export const SCENARIO_JSON_SCHEMA_ID = "urn:apptwin:schema:scenario:1";

/** The scenario JSON Schema (draft 2020-12) as an object. */
export function scenarioJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ScenarioSchema, { target: "draft-2020-12", io: "input" });
  return { ...schema, $id: SCENARIO_JSON_SCHEMA_ID, title: "apptwin scenario (schema_version 1)" };
}

/** The bytes of `schemas/scenario.schema.json`: canonical JSON with a trailing newline. */
export function scenarioJsonSchemaText(): string {
  return canonicalJson(scenarioJsonSchema());
}
