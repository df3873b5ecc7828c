/**
 * Item routes inferred, never proven (issue 17 item 6): where collections of an app read by a list and an item
 * route (`/api/items` and `/api/items/{id}`) share one style, a sibling collection under the same prefix whose
 * list alone was recorded (`/api/tags`) is given the item route in that style — the same path shape, list and
 * item envelopes, id field and not-found answer. Refused when the style cannot be carried over (the item path is
 * not the list's path plus the id, the not-found answer names its collection) or the sibling differs from it (its
 * envelope, its id field, another parent), or the confirmed pairs under that prefix disagree among themselves.
 * The endpoint says `inferred` (coverage lists it so); `learn(…, {infer: false})` (`apptwin build --no-infer`)
 * infers nothing.
 */
import type { Collection, Endpoint, ItemEnvelope, JsonSchema } from "../model/model-schema.js";
import { splitSuffix } from "./path-template.js";
import { toolName } from "./tool-name.js";
import { singular } from "./value-kinds.js";

/** How a collection's routes and answers are shaped, as far as a sibling can share it. */
interface Style {
  /** The list template up to its last segment (`/api`, `/api/boards/{board_id}`). */
  prefix: string;
  suffix: string;
  /** The item template's own parameter name (`id`). */
  param: string;
  idField: string;
  parentParam: string | null;
  /** `bare`, `stem` (items under the list's own name), `key:<k>` (under a fixed key); `+total` when it counts. */
  envelope: string;
  /** `bare`, `same` (under the list's items key), `singular` (of it), `stem` (singular of the path), `key:<k>`. */
  item: string;
  notFound: Collection["not_found"];
  notFoundId: string | null;
  from: string;
}

/** A list template split into prefix, stem and suffix (`/issues.json` → ``, `issues`, `.json`). */
export function splitList(template: string): { prefix: string; stem: string; suffix: string } | null {
  const at = template.lastIndexOf("/");
  const { stem, suffix } = splitSuffix(template.slice(at + 1));
  if (stem === "" || stem.startsWith("{")) return null;
  return { prefix: template.slice(0, at), stem, suffix };
}

export function envelopeStyle(c: Collection, stem: string): string {
  if (c.envelope.kind === "bare" || c.envelope.kind === "keyed") return c.envelope.kind;
  const key = c.envelope.items_key === stem ? "stem" : `key:${c.envelope.items_key}`;
  return c.envelope.total_key === null ? key : `${key}+total`;
}

function itemStyle(c: Collection, stem: string): string {
  const env = c.item_envelope;
  if (env.kind === "bare") return "bare";
  const items = c.envelope.kind === "object" ? c.envelope.items_key : null;
  if (env.item_key === items) return "same";
  if (items !== null && env.item_key === singular(items)) return "singular";
  if (env.item_key === singular(stem)) return "stem";
  return `key:${env.item_key}`;
}

/** The item envelope a sibling gets in a style. */
function itemEnvelopeOf(style: string, c: Collection, stem: string): ItemEnvelope {
  if (style === "bare") return { kind: "bare" };
  const items = c.envelope.kind === "object" ? c.envelope.items_key : stem;
  const key =
    style === "same"
      ? items
      : style === "singular"
        ? singular(items)
        : style === "stem"
          ? singular(stem)
          : style.slice(4);
  return { kind: "object", item_key: key };
}

/** True when a recorded answer's text names the collection (`Todo with id 99`): a sibling's would name its own. */
function namesCollection(body: unknown, stem: string): boolean {
  const text = JSON.stringify(body ?? "").toLowerCase();
  return [stem, singular(stem)].some((w) => w.length > 2 && text.includes(w.toLowerCase()));
}

/** The style of a collection read by a list and an item route, or null when a sibling could not share it. */
function pairStyle(c: Collection, byTool: Map<string, Endpoint>): Style | null {
  const list = c.list_endpoint === null ? undefined : byTool.get(c.list_endpoint);
  const item = c.item_endpoint === null ? undefined : byTool.get(c.item_endpoint);
  if (!list || !item || item.inferred || !Object.keys(item.response_schemas).some((s) => s.startsWith("2")))
    return null;
  const parts = splitList(list.template);
  if (!parts) return null;
  const m = new RegExp(`^\\{([^}]+)\\}${parts.suffix.replace(/\./g, "\\.")}$`).exec(
    item.template.startsWith(`${parts.prefix}/${parts.stem}/`)
      ? item.template.slice(parts.prefix.length + parts.stem.length + 2)
      : "",
  );
  if (!m || c.list_view) return null;
  if (c.not_found && namesCollection(c.not_found.body, parts.stem)) return null;
  return {
    prefix: parts.prefix,
    suffix: parts.suffix,
    param: m[1]!,
    idField: c.id_field,
    parentParam: c.parent?.param ?? null,
    envelope: envelopeStyle(c, parts.stem),
    item: itemStyle(c, parts.stem),
    notFound: c.not_found,
    notFoundId: c.not_found_id ?? null,
    from: item.tool_name,
  };
}

/** What two styles share that a sibling must match (everything but the route it was learned from). */
const signature = (s: Style) => JSON.stringify({ ...s, from: null, notFoundId: null });

function idSchema(kind: Collection["id_kind"]): JsonSchema {
  if (kind === "int") return { type: "integer" };
  return kind === "uuid" ? { type: "string", format: "uuid" } : { type: "string" };
}

/** The item schema of a list endpoint's 200 answer (its array's items), or an empty schema. */
function entitySchema(list: Endpoint, c: Collection): JsonSchema {
  let s = list.response_schemas["200"] as Record<string, unknown> | undefined;
  if (s && c.envelope.kind === "object")
    s = (s.properties as Record<string, Record<string, unknown>> | undefined)?.[c.envelope.items_key];
  const items = s?.items;
  return items && typeof items === "object" ? (items as JsonSchema) : {};
}

/**
 * The collections and endpoints with every inferred item route added (collections given their item endpoint,
 * envelope and not-found answer), in the input order, new endpoints sorted in among them by tool name.
 */
export function inferItemRoutes(
  collections: Collection[],
  endpoints: Endpoint[],
): { collections: Collection[]; endpoints: Endpoint[] } {
  const byTool = new Map(endpoints.map((e) => [e.tool_name, e]));
  const styles = new Map<string, Style[]>();
  for (const c of collections) {
    const s = pairStyle(c, byTool);
    if (s)
      styles.set(`${s.prefix}\u0000${s.suffix}`, [...(styles.get(`${s.prefix}\u0000${s.suffix}`) ?? []), s]);
  }
  const routes = new Set(endpoints.map((e) => `${e.method} ${e.template}`));
  const names = new Set(endpoints.map((e) => e.tool_name));
  const added: Endpoint[] = [];
  const out = collections.map((c) => {
    const list = c.list_endpoint === null ? undefined : byTool.get(c.list_endpoint);
    const parts = list ? splitList(list.template) : null;
    if (c.item_endpoint !== null || !list || !parts) return c;
    const pairs = styles.get(`${parts.prefix}\u0000${parts.suffix}`) ?? [];
    if (pairs.length === 0 || new Set(pairs.map(signature)).size > 1) return c;
    const style = pairs[0]!;
    const own = {
      ...style,
      idField: c.id_field,
      parentParam: c.parent?.param ?? null,
      envelope: envelopeStyle(c, parts.stem),
    };
    if (signature(own) !== signature(style)) return c;
    const template = `${parts.prefix}/${parts.stem}/{${style.param}}${parts.suffix}`;
    if (routes.has(`GET ${template}`)) return c;
    const literals = template
      .split("/")
      .slice(1)
      .map((seg) => (seg.startsWith("{") ? null : seg));
    const params = list.params.filter((p) => p.in === "path");
    let name = toolName("GET", literals, [...params.map((p) => p.name), style.param]);
    for (let n = 2; names.has(name); n++) name = `${name.replace(/_\d+$/, "")}_${n}`;
    names.add(name);
    const itemEnvelope = itemEnvelopeOf(style.item, c, parts.stem);
    const entity = entitySchema(list, c);
    const answer: JsonSchema =
      itemEnvelope.kind === "bare"
        ? entity
        : {
            type: "object",
            properties: { [itemEnvelope.item_key]: entity },
            required: [itemEnvelope.item_key],
          };
    const explain = `GET ${template} is inferred, not recorded: ${style.from} reads its collection's entities by id in the same style (path, envelope, id field ${style.idField}${style.notFound ? `, not-found answer ${style.notFound.status}` : ""}), and ${c.list_endpoint} lists ${c.name} that way; no recording shows this route exists (apptwin build --no-infer leaves it out).`;
    added.push({
      tool_name: name,
      method: "GET",
      template,
      params: [...params, { name: style.param, in: "path", schema: idSchema(c.id_kind) }],
      request_body: null,
      request_schema: null,
      response_schemas: { "200": answer },
      kind: "item",
      collection: c.name,
      serving: "state",
      withheld: null,
      observations: 0,
      explain,
      inferred: { from: style.from },
    });
    return {
      ...c,
      item_endpoint: name,
      item_envelope: itemEnvelope,
      not_found: style.notFound,
      ...(style.notFoundId !== null ? { not_found_id: style.notFoundId } : {}),
    };
  });
  const all = [...endpoints, ...added].sort((a, b) =>
    a.tool_name < b.tool_name ? -1 : a.tool_name > b.tool_name ? 1 : 0,
  );
  return { collections: out, endpoints: added.length > 0 ? all : endpoints };
}
