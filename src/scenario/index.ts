/** The scenario contract: schema, types, parsing and the helpers capture uses. */
export { ARIA_ROLES, isAriaRole } from "./aria-roles.js";
export { credentialShape } from "./credential-shape.js";
export { isCredentialName } from "./inline-credentials.js";
export { DEFAULT_LIMITS, type ResolvedLimits, resolveLimits } from "./limits.js";
export { parseScenario, type ScenarioValidation, validateScenarioText } from "./parse-scenario.js";
export { checkTarget, type ParsedTarget, parseTarget, type TargetKind } from "./parse-target.js";
export { FORBIDDEN_HEADERS, isForbiddenHeader } from "./request-rules.js";
export { scenarioDigest } from "./scenario-digest.js";
export {
  DEFAULT_STEP_TIMEOUT_MS,
  type HeaderValue,
  HeaderValueSchema,
  type Limits,
  LimitsSchema,
  MAX_STEP_TIMEOUT_MS,
  REQUEST_METHODS,
  type RequestStep,
  RequestStepSchema,
  SCENARIO_SCHEMA_VERSION,
  type Scenario,
  ScenarioSchema,
  type Step,
  StepSchema,
  TargetSchema,
  type Value,
  ValueSchema,
} from "./scenario-schema.js";
export { isSecretRef } from "./secret-rules.js";
