/**
 * Learns how the app refuses a write before it reads it as one: a body it
 * cannot take as JSON, and a request without the credentials its accepted
 * writes carried. A refusal is learned only from the app's own recorded
 * answers; where refusals of one kind disagree, none is learned for them
 * (the twin then explains its own refusal instead of guessing the app's).
 */
import type {
  BodyRefusal,
  CannedResponse,
  CredentialRefusal,
  CredentialRequirement,
  RefusedBody,
} from "../model/model-schema.js";
import { appendTo } from "../util/append-to.js";
import { canonicalJsonCompact } from "../util/canonical-json.js";
import { isCredentialHeader } from "../util/credential-name.js";
import type { EndpointGroup, Observation } from "./endpoint-index.js";
import { canned } from "./read-model.js";
import { isRedirect } from "./redirect-location.js";
import { isWriteMethod } from "./write-targets.js";

/** Statuses that answer a body the app refused as invalid (409/412: a conflict with the state, judged elsewhere). */
const INVALID_STATUSES = new Set([400, 422]);

/** Statuses that answer a body the app could not take. */
const BODY_STATUSES = new Set([400, 415, 422]);

/** Statuses that answer a request without its credentials (419: Laravel's expired CSRF token). */
const CREDENTIAL_STATUSES = new Set([401, 403, 419]);

const accepted = (o: Observation) => (o.status >= 200 && o.status < 300) || isRedirect(o.status);

/** The JSON type of a value as a schema names it. */
export function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v === "number" ? "number" : typeof v;
}

/** The same answer, compared by status, content type and body. */
function key(c: CannedResponse): string {
  return JSON.stringify([c.status, c.content_type, c.body]);
}

/** The one answer a list of refusals agrees on, or null when they disagree (or there are none). */
function agreed(list: Observation[]): CannedResponse | null {
  const answers = list.map(canned);
  if (answers.length === 0 || new Set(answers.map(key)).size > 1) return null;
  return answers[0]!;
}

/** How an observation's body fails the endpoint: unreadable, the wrong JSON type, or not at all. */
function bodyFault(o: Observation, types: Set<string>): BodyRefusal["kind"] | null {
  if (o.request.kind === "unsupported" || (o.request.kind === "none" && o.method !== "DELETE"))
    return "unreadable";
  if (o.request.kind === "json" && types.size > 0 && !types.has(jsonType(o.request.value)))
    return "wrong_type";
  return null;
}

/** Learns the recorded answers to bodies the app could not take, per tool and (when all agree) app-wide. */
export function learnBodyRefusals(groups: readonly EndpointGroup[]): BodyRefusal[] {
  const byKind = new Map<BodyRefusal["kind"], Map<EndpointGroup, Observation[]>>();
  for (const g of groups) {
    if (!isWriteMethod(g.method)) continue;
    const ok = g.observations.filter(accepted);
    if (!ok.some((o) => o.request.kind === "json")) continue;
    const types = new Set(ok.flatMap((o) => (o.request.kind === "json" ? [jsonType(o.request.value)] : [])));
    for (const o of g.observations) {
      const kind = BODY_STATUSES.has(o.status) ? bodyFault(o, types) : null;
      if (kind === null) continue;
      const perGroup = byKind.get(kind) ?? new Map<EndpointGroup, Observation[]>();
      byKind.set(kind, perGroup);
      appendTo(perGroup, g, o);
    }
  }
  const out: BodyRefusal[] = [];
  for (const [kind, perGroup] of byKind) {
    const what = kind === "unreadable" ? "a body it could not read as JSON" : "a JSON body of another type";
    const everywhere = agreed([...perGroup.values()].flat());
    if (everywhere) {
      const where = [...perGroup.keys()].map((g) => `${g.method} ${g.template}`).join(", ");
      out.push({
        tool_name: null,
        kind,
        ...everywhere,
        explain: `The app answered ${what} with ${everywhere.status} (${where}); every JSON write is answered so.`,
      });
      continue;
    }
    for (const [g, list] of perGroup) {
      const own = agreed(list);
      if (own)
        out.push({
          tool_name: g.toolName,
          kind,
          ...own,
          explain: `${g.method} ${g.template} answered ${what} with ${own.status}.`,
        });
    }
  }
  return out.sort((a, b) => ((a.tool_name ?? "") + a.kind < (b.tool_name ?? "") + b.kind ? -1 : 1));
}

/** The credentials a request carried, by place and name (`header:authorization`, `cookie:session`): never a value. */
export function credentialsOf(headers: readonly { name: string; value: string }[]): Set<string> {
  const out = new Set<string>();
  for (const h of headers) {
    const lower = h.name.toLowerCase();
    if (lower === "cookie") {
      for (const seg of h.value.split(";")) {
        const name = seg.split("=")[0]!.trim();
        if (name !== "") out.add(`cookie:${name}`);
      }
    } else if (h.value.trim() !== "" && isCredentialHeader(lower, h.value)) {
      out.add(`header:${lower}`);
    }
  }
  return out;
}

/**
 * Learns the recorded answers to requests that lacked credentials every accepted request of a tool carried: the
 * tool's own refusals first, then (when they agree) those the app's other tools of the same side recorded for
 * what it lacked — writes from writes, reads (GET) from reads, since an app refuses a read and a write apart.
 */
export function learnCredentialRefusals(
  groups: readonly EndpointGroup[],
  isSignIn: (g: EndpointGroup) => boolean,
): CredentialRefusal[] {
  const writes = groups.filter((g) => isWriteMethod(g.method));
  const reads = groups.filter((g) => g.method === "GET");
  return [...refusalsOf(writes, isSignIn, "writes"), ...refusalsOf(reads, isSignIn, "reads")].sort((a, b) => {
    const [x, y] = [`${a.tool_name} ${a.missing.join(" ")}`, `${b.tool_name} ${b.missing.join(" ")}`];
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** The credentials every accepted request of a group carried, sorted (none when it has no accepted request). */
function alwaysCarried(g: EndpointGroup): string[] {
  const sets = g.observations.filter(accepted).map((o) => credentialsOf(o.record.request.headers));
  if (sets.length === 0) return [];
  return [...sets[0]!].filter((c) => sets.every((s) => s.has(c))).sort();
}

/**
 * The writes (not sign-ins) whose every accepted request carried credentials, with what they carried, unless a
 * recorded refusal answers a write lacking all of them (`refusals`, learned by `learnCredentialRefusals`): the twin
 * has no answer of the app to a write without them, so it must not serve one as if it had.
 */
export function learnCredentialRequirements(
  groups: readonly EndpointGroup[],
  isSignIn: (g: EndpointGroup) => boolean,
  refusals: readonly CredentialRefusal[],
): CredentialRequirement[] {
  const out: CredentialRequirement[] = [];
  for (const g of groups) {
    if (!isWriteMethod(g.method) || isSignIn(g)) continue;
    const carried = alwaysCarried(g);
    if (carried.length === 0) continue;
    // A recorded refusal of a request lacking exactly these (or fewer of them) answers every request lacking all.
    const covered = refusals.some(
      (r) => r.tool_name === g.toolName && r.missing.every((c) => carried.includes(c)),
    );
    if (covered) continue;
    const n = g.observations.filter(accepted).length;
    out.push({
      tool_name: g.toolName,
      carried,
      explain: `${n === 1 ? "The one accepted" : `Every one of the ${n} accepted`} ${g.method} ${g.template} carried ${carried.join(" and ")}; the recording never shows the app's answer to one without any of them.`,
    });
  }
  return out.sort((a, b) => (a.tool_name < b.tool_name ? -1 : a.tool_name > b.tool_name ? 1 : 0));
}

/** The credential refusals of one side of the app (its writes, or its reads). */
function refusalsOf(
  side: readonly EndpointGroup[],
  isSignIn: (g: EndpointGroup) => boolean,
  what: "writes" | "reads",
): CredentialRefusal[] {
  const refused = side.flatMap((g) => g.observations.filter((o) => CREDENTIAL_STATUSES.has(o.status)));
  const out: CredentialRefusal[] = [];
  for (const g of side) {
    if (isSignIn(g)) continue;
    const always = alwaysCarried(g);
    if (always.length === 0) continue;
    const byMissing = new Map<string, { own: Observation[]; other: Observation[] }>();
    for (const r of refused) {
      const has = credentialsOf(r.record.request.headers);
      const missing = always.filter((c) => !has.has(c));
      if (missing.length === 0) continue;
      const entry = byMissing.get(missing.join(" ")) ?? { own: [], other: [] };
      byMissing.set(missing.join(" "), entry);
      (r.endpoint === g ? entry.own : entry.other).push(r);
    }
    for (const [missing, { own, other }] of byMissing) {
      const answer = own.length > 0 ? agreed(own) : agreed(other);
      if (!answer) continue;
      const names = missing.split(" ");
      const from = own.length > 0 ? "it" : `the app's other ${what}`;
      out.push({
        tool_name: g.toolName,
        missing: names,
        ...answer,
        explain: `${g.method} ${g.template} without ${names.join(" and ")} (which every accepted request sent) is answered ${answer.status}, as ${from} answered such a request.`,
      });
    }
  }
  return out;
}

/**
 * The bodies the app refused (400/422) that no accepted request of the tool sent, each with the one answer its
 * refusals agree on (none where they disagree): a request sending that very body again gets it (serve
 * validate-request.ts), before any rule the learner drew from it. Sign-ins are keyed replays of their own.
 */
export function learnRefusedBodies(
  groups: readonly EndpointGroup[],
  isSignIn: (g: EndpointGroup) => boolean,
): RefusedBody[] {
  const out: RefusedBody[] = [];
  const objectBody = (o: Observation): object | null =>
    (o.request.kind === "json" || o.request.kind === "form") &&
    o.request.value !== null &&
    typeof o.request.value === "object"
      ? o.request.value
      : null;
  const bodyKey = (o: Observation) => {
    const b = objectBody(o);
    return b === null ? null : canonicalJsonCompact(b);
  };
  for (const g of groups) {
    if (!isWriteMethod(g.method) || isSignIn(g)) continue;
    const acceptedKeys = new Set(g.observations.filter(accepted).map(bodyKey));
    const refused = new Map<string, Observation[]>();
    for (const o of g.observations) {
      const k = INVALID_STATUSES.has(o.status) ? bodyKey(o) : null;
      if (k === null || acceptedKeys.has(k)) continue;
      appendTo(refused, k, o);
    }
    for (const [, list] of [...refused].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const answer = agreed(list);
      if (!answer) continue;
      const at = list.map((o) => `records[${o.index}]`).join(", ");
      out.push({
        tool_name: g.toolName,
        request: objectBody(list[0]!),
        ...answer,
        explain: `${g.method} ${g.template} answered this very body ${answer.status} (recorded at ${at}); no accepted request sent it.`,
      });
    }
  }
  return out.sort((a, b) => (a.tool_name < b.tool_name ? -1 : a.tool_name > b.tool_name ? 1 : 0));
}
