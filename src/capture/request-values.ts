/**
 * The values of a request step, resolved in order before it is sent:
 * header values and the header names a `cookie_matching` group fills (each
 * resolved name checked again as the file's names were: a token, not one
 * fetch refuses, not a repeat), `{name}` path params percent-encoded once,
 * query and form values, and every `{ "$value": … }` in a JSON body (a
 * chained number or boolean stays one). Every value to redact is passed on.
 */
import { PLACEHOLDER } from "../scenario/reference-rules.js";
import { headerNameProblem } from "../scenario/request-rules.js";
import type { RequestStep } from "../scenario/scenario-schema.js";
import { JSON_VALUE_KEY } from "../scenario/value-positions.js";
import { type PageValue, type ResolvedValue, resolveValue, type ValueSources } from "./resolve-values.js";
import { StepFailure } from "./step-failure.js";

/** The values of a request step, resolved in order; every value to redact is passed on as it is found. */
export interface ResolvedRequest {
  path: string;
  headers: [string, string][];
  query: [string, string][];
  body: string | null;
  contentType: string | null;
}

async function resolveHeaders(
  step: RequestStep,
  src: ValueSources,
  onPageValue: (v: PageValue) => void,
): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const [template, hv] of Object.entries(step.headers ?? {})) {
    const r = await resolve(hv, step.step_id, `header ${template}`, template, src, onPageValue);
    const name = template.replace(PLACEHOLDER, (_, g: string) => {
      const part = r.groups[g];
      if (part === undefined || part === "")
        throw new StepFailure(
          `header ${template}: the cookie's name left the group {${g}} empty; nothing was sent`,
        );
      return part;
    });
    if (name !== template) {
      const problem = headerNameProblem(name);
      if (problem)
        throw new StepFailure(
          `header ${template}: its name resolved to ${JSON.stringify(name)}, which ${problem.text}; nothing was sent`,
        );
      const twin = out.find(([n]) => n.toLowerCase() === name.toLowerCase());
      if (twin)
        throw new StepFailure(
          `header ${template}: its name resolved to ${JSON.stringify(name)}, which repeats the header ${JSON.stringify(twin[0])} (header names are case-insensitive); nothing was sent`,
        );
    }
    out.push([name, r.text]);
  }
  return out;
}

async function resolve(
  value: Parameters<typeof resolveValue>[0],
  stepId: string,
  label: string,
  marker: string,
  src: ValueSources,
  onPageValue: (v: PageValue) => void,
): Promise<ResolvedValue> {
  const r = await resolveValue(value, { stepId, label, marker }, src);
  if (r.redact) onPageValue(r.redact);
  return r;
}

/** Replaces every `{ "$value": … }` object (and the one-key `{ "secret": id }`) of a JSON body by its value. */
async function resolveJson(
  json: unknown,
  pointer: string,
  step: RequestStep,
  src: ValueSources,
  onPageValue: (v: PageValue) => void,
): Promise<unknown> {
  if (Array.isArray(json)) {
    const out: unknown[] = [];
    for (const [i, x] of json.entries())
      out.push(await resolveJson(x, `${pointer}/${i}`, step, src, onPageValue));
    return out;
  }
  if (json === null || typeof json !== "object") return json;
  const obj = json as Record<string, unknown>;
  const keys = Object.keys(obj);
  const ref = Object.hasOwn(obj, JSON_VALUE_KEY)
    ? obj[JSON_VALUE_KEY]
    : keys.length === 1 && typeof obj["secret"] === "string"
      ? obj
      : undefined;
  if (ref !== undefined) {
    const where = pointer === "" ? "/" : pointer;
    return (
      await resolve(
        ref as Parameters<typeof resolveValue>[0],
        step.step_id,
        `json ${where}`,
        `json${pointer}`,
        src,
        onPageValue,
      )
    ).json;
  }
  const out: Record<string, unknown> = {};
  for (const k of keys)
    out[k] = await resolveJson(
      obj[k],
      `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`,
      step,
      src,
      onPageValue,
    );
  return out;
}

/** Resolves every value of a request step: its headers (names too), path params, query, and body. */
export async function resolveRequest(
  step: RequestStep,
  src: ValueSources,
  onPageValue: (v: PageValue) => void,
): Promise<ResolvedRequest> {
  const headers = await resolveHeaders(step, src, onPageValue);
  let path = step.path;
  for (const [name, v] of Object.entries(step.params ?? {})) {
    const r = await resolve(v, step.step_id, `params.${name}`, `params.${name}`, src, onPageValue);
    path = path.split(`{${name}}`).join(encodeURIComponent(r.text));
  }
  const query: [string, string][] = [];
  for (const q of step.query ?? [])
    query.push([
      q.name,
      (await resolve(q.value, step.step_id, `query ${q.name}`, `query.${q.name}`, src, onPageValue)).text,
    ]);
  let body: string | null = null;
  let contentType: string | null = null;
  if (step.json !== undefined) {
    body = JSON.stringify(await resolveJson(step.json, "", step, src, onPageValue));
    contentType = "application/json";
  } else if (step.form !== undefined) {
    const pairs: string[] = [];
    for (const f of step.form) {
      const r = await resolve(f.value, step.step_id, `form ${f.name}`, `form.${f.name}`, src, onPageValue);
      pairs.push(`${encodeURIComponent(f.name)}=${encodeURIComponent(r.text)}`);
    }
    body = pairs.join("&");
    contentType = "application/x-www-form-urlencoded";
  }
  return { path, headers, query, body, contentType };
}

/** The URL of a request step: the app origin, the path (params filled), and the query encoded once, in order. */
export function requestUrl(appOrigin: string, path: string, query: readonly [string, string][]): string {
  const url = new URL(path, appOrigin).toString();
  const q = query.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join("&");
  return q === "" ? url : `${url}?${q}`;
}
