/**
 * The learned Model (`schema_version: 1`): endpoints, collections, write rules
 * and replays as plain, sorted, serialisable data. It is the contract between
 * learning and the bundle/serve stages; docs/specs/learn/spec.md gives the
 * meaning of every field so serve can run it without reading learn's code.
 */
import { z } from "zod";
import { QUERY_OPS } from "./query-language.js";

/** The newest Model version this apptwin writes. */
export const MODEL_SCHEMA_VERSION = 1;

/** A JSON Schema (draft 2020-12 subset: type, properties, required, items, format, enum). */
export const JsonSchemaSchema = z.record(z.string(), z.unknown());

/** Why a write is not served by the twin. */
export const WithheldReasonSchema = z.enum([
  "not_read_back",
  "read_back_disagrees",
  "failed_status",
  "no_collection",
  "unexplained_field",
  "untimed_capture",
  "unsupported_body",
  "conflicting_observations",
]);

/** A withheld endpoint's reason code and the hint saying what to record to close the gap. */
export const WithheldSchema = z.strictObject({
  reason: WithheldReasonSchema,
  hint: z.string(),
  /**
   * False when no recording can close the gap (the twin lacks the rule: a per-scope counter, a random
   * token, an assigned string id). Always written; optional so a model written before it still reads.
   */
  closable: z.boolean().optional(),
});

/** A path or query parameter of an endpoint. */
export const ParamSchema = z.strictObject({
  name: z.string(),
  in: z.enum(["path", "query"]),
  schema: JsonSchemaSchema,
});

/** One method + path template, with what the recording showed of it and how the twin serves it. */
export const EndpointSchema = z.strictObject({
  tool_name: z.string(),
  method: z.string(),
  template: z.string(),
  params: z.array(ParamSchema),
  /** How the request body is encoded: `json`, `form` (url-encoded, values are strings) or null (none). */
  request_body: z.enum(["json", "form"]).nullable(),
  request_schema: JsonSchemaSchema.nullable(),
  /** Keyed by status code as a string ("200", "404"). */
  response_schemas: z.record(z.string(), JsonSchemaSchema),
  kind: z.enum(["list", "item", "create", "update", "patch", "delete", "other"]),
  collection: z.string().nullable(),
  /** `acknowledged`: a write answered as recorded that changes nothing (no read showed an effect; see `acknowledged`). */
  serving: z.enum(["state", "replay", "withheld", "acknowledged"]),
  withheld: WithheldSchema.nullable(),
  observations: z.number().int().nonnegative(),
  explain: z.string(),
  /**
   * An item route inferred from a sibling collection's confirmed list + item pair (src/learn/inferred-routes.ts),
   * never recorded: `from` is the item route whose style it copies. Absent on recorded routes (so older models read).
   */
  inferred: z.strictObject({ from: z.string() }).optional(),
});

/** How a list answer wraps its entities. */
export const EnvelopeSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("bare") }),
  /** A keyed map: `{"<id>": {...}, …}`, each entity under its own id (in list order). */
  z.strictObject({ kind: z.literal("keyed") }),
  z.strictObject({
    kind: z.literal("object"),
    items_key: z.string(),
    /** Key holding the number of entities matching the filters before pagination, or null. */
    total_key: z.string().nullable(),
    /** Other keys of the envelope, the same in every observation. */
    constants: z.record(z.string(), z.unknown()),
    /**
     * Keys that repeat a query parameter (`offset`, `limit`): the request's value when it sends the parameter (a
     * number when the default is one), else `default`. Absent when none (so older models read).
     */
    echoes: z.record(z.string(), z.strictObject({ param: z.string(), default: z.unknown() })).optional(),
  }),
]);

/** How an item answer wraps its entity: bare, or under one key (`{data: {...}}`). */
export const ItemEnvelopeSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("bare") }),
  z.strictObject({
    kind: z.literal("object"),
    item_key: z.string(),
    /** Keys beside the entity that held one value in every item answer (`meta: {}`); absent when none. */
    constants: z.record(z.string(), z.unknown()).optional(),
  }),
]);

/** A recorded answer (status + body) reused by the twin, e.g. for an unknown id. */
export const CannedResponseSchema = z.strictObject({
  status: z.number().int(),
  content_type: z.string().nullable(),
  body: z.unknown(),
});

/** One segment of a query path pattern: a fixed name, any name that resolves to an entity field, an operator token, or a group branch. */
export const QuerySegmentSchema = z.union([
  z.strictObject({ literal: z.string() }),
  z.strictObject({ field: z.literal(true) }),
  z.strictObject({ op: z.literal(true) }),
  /** A name that is a field, this separator, then an operator token (`views_gte`, `views__gte`). */
  z.strictObject({ field_op: z.string() }),
  /**
   * An array index right after a group token (`or`, `$and`): a branch of a group of conditions, any of which
   * (`any`) or all of which (`all`) must hold (src/model/filter-groups.ts).
   */
  z.strictObject({ branch: z.enum(["any", "all"]) }),
]);

const QueryOpSchema = z.enum(QUERY_OPS);
/** A query path of fixed names (`["filter", "order"]` for `filter={"order": …}` or `filter[order]=…`). */
const QueryPathSchema = z.array(z.string());

/**
 * What the app refuses a query parameter's value for, learned from the recording's refused list reads
 * (docs/specs/learn/spec.md "Query value domains"): the recorded refusal answers every value of that kind.
 */
export const QueryDomainSchema = z.discriminatedUnion("kind", [
  /** Every accepted value was integers (`categories=2,3`); a value holding a non-integer element is refused. */
  z.strictObject({
    kind: z.literal("integers"),
    path: QueryPathSchema,
    /** The separator of a list value (`,`), or null: the value is one element. */
    separator: z.string().nullable(),
    /** The position of the first non-integer element in the refused values (null: answered alike at several). */
    at: z.number().int().nullable(),
    /**
     * The shapes of the refused non-integer elements (`word`: a letter or `_`, then letters, digits, `_`, `-`; `empty`;
     * `decimal`: a number that is no integer; `other`): only an element of one of them is refused so, another is left
     * open (an app may accept `2.0`, an empty element or `1 2`). Absent: any non-integer (older models).
     */
    shapes: z.array(z.enum(["word", "empty", "decimal", "other"])).optional(),
    /** The recorded refusal repeats the value it refused: it is the app's answer to that value only. */
    names_value: z.literal(true).optional(),
    answer: CannedResponseSchema,
    explain: z.string(),
  }),
  /** Integers from `min` to `max` were accepted; a refused side answers from its nearest refused value on. */
  z.strictObject({
    kind: z.literal("range"),
    path: QueryPathSchema,
    min: z.number().int(),
    max: z.number().int(),
    /** The greatest integer refused below `min` (every one at or below it is refused so), or null. */
    below: z.strictObject({ from: z.number().int(), answer: CannedResponseSchema }).nullable(),
    /** The least integer refused above `max` (every one at or above it is refused so), or null. */
    above: z.strictObject({ from: z.number().int(), answer: CannedResponseSchema }).nullable(),
    /** A recorded refusal repeats the value it refused (`Invalid data {"limit":-1}`): the app's answer to that value only. */
    names_value: z.literal(true).optional(),
    explain: z.string(),
  }),
  /** A page number is refused when the page starts past the last match (of a non-empty result). */
  z.strictObject({
    kind: z.literal("past_last_page"),
    path: QueryPathSchema,
    answer: CannedResponseSchema,
    explain: z.string(),
  }),
]);

/**
 * A query rule inferred, never recorded on its collection (src/learn/inferred-queries.ts): a sibling collection of
 * the same API (same route prefix and envelope) confirmed it, and no recorded read of this one refutes it.
 * `apptwin build --no-infer` infers none.
 */
export const InferredFromSchema = z.strictObject({ from: z.string() });

/**
 * A query parameter's meaning the recording confirmed (docs/specs/learn/spec.md "Query hypotheses"): each
 * applies to the leaves (src/model/query-language.ts) its path matches; `explain` says what confirmed it.
 */
export const QueryRuleSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("filter"),
    path: z.array(QuerySegmentSchema),
    /** The operator when the path has no `{op}` segment (`eq`: several values mean any of them). */
    op: QueryOpSchema.nullable(),
    /** Operator tokens seen in the `{op}` segment and what each was confirmed to mean. */
    op_tokens: z.record(z.string(), QueryOpSchema),
    /** The style prefix of those tokens (`$`, `_`, ""): other tokens spelt so mean what their spelling says. */
    op_prefix: z.string().nullable(),
    /** A value holding this separator is a list of values (`status=publish,draft`), or null. */
    list_separator: z.string().nullable(),
    /**
     * For an operator slot: the separator that splits the value of a list operator (`in`, `nin`, `between`:
     * `filter[id][_in]=2,4,7`), as a recorded read confirmed. Absent: such values are not split.
     */
    op_list_separator: z.string().optional(),
    /**
     * The value spells the operator before this separator (`views=gt.100`, `id=in.(1,3)`, `title=ilike.*ta*`);
     * the rest is the operand (a parenthesised list for a list operator). Absent: the value is the operand.
     */
    value_op: z.strictObject({ separator: z.string() }).optional(),
    /** The field each name seen in the `{field}` segment was confirmed to mean (`assigned_to_id` → `assigned_to.id`). */
    fields: z.record(z.string(), z.string()),
    /** Names a read showed not to filter this way (a value that changed nothing): only their recorded values apply. */
    not_fields: z.array(z.string()).optional(),
    inferred: InferredFromSchema.optional(),
    explain: z.string(),
  }),
  z.strictObject({
    kind: z.literal("cursor"),
    path: QueryPathSchema,
    /** The page after the entity the value names: `template` with `{id}` for its id, encoded so. */
    codec: z.strictObject({ codec: z.enum(["plain", "base64", "base64url"]), template: z.string() }),
    explain: z.string(),
  }),
  z.strictObject({
    kind: z.literal("search"),
    path: QueryPathSchema,
    /** The text fields searched (substring). */
    fields: z.array(z.string()),
    /** Whether case matters; null when the recording did not decide (served only where both readings agree). */
    case_sensitive: z.boolean().nullable(),
    inferred: InferredFromSchema.optional(),
    explain: z.string(),
  }),
  z.strictObject({
    kind: z.literal("sort"),
    path: QueryPathSchema,
    syntax: z.strictObject({
      separator: z.string().nullable(),
      style: z.enum(["minus", "colon", "space", "bare", "dot"]),
    }),
    /** A companion parameter holding the direction (`order=desc` beside `orderby=title`), or null. */
    direction_path: QueryPathSchema.nullable(),
    default_direction: z.enum(["asc", "desc"]),
    fields: z.record(z.string(), z.string()),
    /**
     * Where entities lacking the sorted field (missing or null) go, as a recorded read sorted such an entity beside
     * others: `greatest` (after the rest ascending, before them descending). Absent: no read showed it, and a sort
     * that must place such an entity among others is not answered (apps put nulls first or last alike).
     */
    missing: z.literal("greatest").optional(),
    /**
     * How entities equal in every sorted field are ordered, as a recorded read sorted two such: `list_order` (as the
     * plain list holds them; the sort is stable). Absent: no read showed it, and a sort whose matches hold such a tie
     * is not answered (apps break ties by id, by insertion or by nothing).
     */
    ties: z.literal("list_order").optional(),
    inferred: InferredFromSchema.optional(),
    explain: z.string(),
  }),
  z.strictObject({
    kind: z.literal("limit"),
    path: QueryPathSchema,
    inferred: InferredFromSchema.optional(),
    explain: z.string(),
  }),
  z.strictObject({
    kind: z.literal("offset"),
    path: QueryPathSchema,
    inferred: InferredFromSchema.optional(),
    explain: z.string(),
  }),
  /** A page number (the first page is `base`), of the size the limit parameter gives. */
  z.strictObject({
    kind: z.literal("page"),
    path: QueryPathSchema,
    base: z.number().int(),
    inferred: InferredFromSchema.optional(),
    explain: z.string(),
  }),
  /**
   * A projection: `list` — the value names the fields (`_fields=id,title`); `keys` — the last segment names one kept
   * (`fields[title]=true`); `omit_keys` — the last segment names one left out (`fields[desc]=false`).
   */
  z.strictObject({
    kind: z.literal("fields"),
    path: z.array(QuerySegmentSchema),
    syntax: z.enum(["list", "keys", "omit_keys"]),
    explain: z.string(),
  }),
  /** A word value selecting the entities whose boolean `field` is `equals` (`status_id=open`: `status.is_closed` false); this exact value only. */
  z.strictObject({
    kind: z.literal("word"),
    path: QueryPathSchema,
    value: z.string(),
    field: z.string(),
    equals: z.boolean(),
    explain: z.string(),
  }),
  /**
   * A parameter whose value adds leaves to the list envelope and changes nothing else (`meta=total_count` answering
   * `{data, meta: {total_count}}` beside `{data}`): this exact value only. Each leaf (an RFC 6901 pointer into the
   * answer) with the counts every recorded read of the value confirmed it to be (src/learn/envelope-params.ts):
   * `total` (the matches before the page), `count` (the entities on the page), `scope_total` (the entities the
   * plain list of the scope shows). Several: the recording did not decide, and serve answers only where they agree.
   */
  z.strictObject({
    kind: z.literal("envelope"),
    path: QueryPathSchema,
    value: z.string(),
    fields: z.array(
      z.strictObject({
        pointer: z.string(),
        of: z.array(z.enum(["total", "count", "scope_total"])).min(1),
      }),
    ),
    explain: z.string(),
  }),
  /** A parameter that changed nothing: for these exact values, or any value (`values: null`, a cache-buster). */
  z.strictObject({
    kind: z.literal("ignore"),
    path: QueryPathSchema,
    values: z.array(z.string()).nullable(),
    explain: z.string(),
  }),
]);

export const CollectionSchema = z.strictObject({
  name: z.string(),
  id_field: z.string(),
  /**
   * How list answers show an entity when it differs from item answers: fields they leave out (`omit`) and fields
   * they give as null (`nulls`). Absent when lists show entities as items do (so older models read).
   */
  list_view: z
    .strictObject({
      omit: z.array(z.string()),
      nulls: z.array(z.string()),
      /** A left-out field every item read (of two or more entities) gave one value: an item read of an entity only a list showed gives it. */
      defaults: z.record(z.string(), z.unknown()).optional(),
      /**
       * The `nulls` every item read without a query gave a value (a file's `content`): an entity the state holds
       * null there is one only lists showed, so its item read is an explained miss (`unknown_fields`), as is one
       * lacking an `omit` field with no default. Absent: none (older models read).
       */
      item_values: z.array(z.string()).optional(),
    })
    .optional(),
  /**
   * Entities the seed holds from reads that did not show all their fields (a projection, an item read with a query),
   * by id: the fields each may lack. Its item read is an explained miss (`unknown_fields`), never the not-found.
   * Absent when none (so older models read).
   */
  unknown_fields: z.record(z.string(), z.array(z.string())).optional(),
  /** Other fields an item path may name an entity by (`/projects/website` for `identifier`), tried after `id_field`. Absent when none (so older models read). */
  alt_id_fields: z.array(z.string()).optional(),
  id_kind: z.enum(["int", "uuid", "string"]),
  list_endpoint: z.string().nullable(),
  item_endpoint: z.string().nullable(),
  envelope: EnvelopeSchema,
  item_envelope: ItemEnvelopeSchema,
  /**
   * Nested collections: entity[field] equals the value of path param `param` of the parent collection. `implied`:
   * the app's entities name no parent, so the twin keeps the scope under `field` (the param's name, a key no
   * recorded entity holds) in its state and never shows it (`hidden` holds it). Absent: false (older models read).
   */
  parent: z
    .strictObject({
      collection: z.string().nullable(),
      param: z.string(),
      field: z.string(),
      implied: z.boolean().optional(),
      /**
       * With `implied`: the scopes whose full list the recording showed, sorted. A list read of another scope the
       * state holds nothing in is an explained miss (`unlisted_scope`), never an empty list the twin cannot know.
       */
      listed: z.array(z.string()).optional(),
      /**
       * With `implied`: the entities name their parent only inside an object (`project.id` of `project: {id, name}`).
       * The scope kept (and `listed`) is the parent's id; a path naming the parent by another of its ids
       * (`/projects/website/…` for `identifier`) means that id. Absent: the path's value is the scope.
       */
      reference: z.string().optional(),
    })
    .nullable(),
  /**
   * Ids are paths (`projects/a.ipynb`): an entity's parent is the one whose id is its own up to the last
   * `separator`; list reads show the top level (ids without it), and an item read of an entity stored with an
   * array under `children_key` (a folder) shows there its children in list order, as lists show entities. Absent
   * when ids are not paths (so older models read).
   */
  tree: z
    .strictObject({
      separator: z.literal("/"),
      children_key: z.string(),
      /**
       * The root folder, when the list answers are it: every list answer is an object holding the id field as ""
       * and the entities under `children_key` (`GET /api/contents` answering the folder document of path ""). The
       * last plain list answer with its children emptied: serve's list answers are it with the top level under
       * `children_key`, and a list read whose query is a confirmed item projection (`?content=0`) answers it with
       * that projection's fields null. Absent otherwise (so older models read).
       */
      root: z.record(z.string(), z.unknown()).optional(),
      /**
       * The folders (ids; "" the root) some read showed every child of, and the ids the recording showed absent
       * (its recorded misses, and entities it saw and then no longer held). An id the state does not hold under any
       * other folder of the seed is an explained 501 (`unlisted_collection`), not the app's not-found: which
       * children that folder holds was never shown. A folder the episode made holds only what it put there. Absent:
       * every folder was listed (older models).
       */
      listed: z.strictObject({ folders: z.array(z.string()), missing: z.array(z.string()) }).optional(),
    })
    .optional(),
  /**
   * Item reads with a query the recording confirmed as a projection that nulls fields (`?content=0` → `content`
   * and `format` null): every recorded read with exactly these parameters answered the entity the state held at
   * that moment with `nulls` null and every other field as it was. Absent when none (so older models read).
   */
  item_projections: z
    .array(
      z.strictObject({
        query: z.array(z.tuple([z.string(), z.string()])),
        nulls: z.array(z.string()),
        explain: z.string(),
      }),
    )
    .optional(),
  /**
   * Item-read query parameters the recording confirmed as an assertion on a field of the entity
   * (`GET /api/contents/notes.md?type=file`): every accepted read with the parameter answered the entity the plain item
   * read would (other parameters as their learned meaning: a projection) and its `fields` equalled the value sent,
   * and every refused one met an entity whose `fields` differed. Several `fields` when they agreed on every recorded
   * read. A matching request is the item read without the parameter; a mismatching one is the refusal recorded for
   * that value (`refusals`, its texts spelling the path's id where the recorded one spelled its own), else an
   * explained miss. Absent when none (so older models read).
   */
  item_assertions: z
    .array(
      z.strictObject({
        param: z.string(),
        fields: z.array(z.string()),
        /** The values the accepted reads sent, sorted. */
        values: z.array(z.string()),
        refusals: z.array(
          z.strictObject({
            value: z.string(),
            status: z.number().int(),
            content_type: z.string().nullable(),
            /** The first refusal's body. */
            body: z.unknown(),
            /** Texts of `body` spelling the entity's id (`from: own_id`), as validation rules spell them. */
            spell: z
              .array(
                z.strictObject({
                  pointer: z.string(),
                  parts: z.array(
                    z.union([z.string(), z.strictObject({ from: z.enum(["value", "own_id"]) })]),
                  ),
                }),
              )
              .optional(),
          }),
        ),
        explain: z.string(),
      }),
    )
    .optional(),
  list_order: z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("insertion") }),
    z.strictObject({
      kind: z.literal("field"),
      field: z.string(),
      direction: z.enum(["asc", "desc"]),
      /**
       * Other orders every full list proved as well (`"id desc"`), which the recording does not tell apart: the
       * twin takes `field` (a field no two entities share first, then a time, the id last). Absent: none.
       */
      also: z.array(z.string()).optional(),
    }),
  ]),
  /**
   * Set when no recorded read showed the app's own order of the collection (src/learn/read-model.ts): it was never
   * listed plainly, and no read without a sort answered two or more of it in an order the twin's state was judged
   * against (its entities were known only from filtered, sorted or partial reads). A read the twin would answer with
   * two or more entities in that unknown order, sorted by no confirmed rule, is then an explained miss
   * (`unconfirmed_order`), never the twin's own order passed off as the app's. Absent: the order was shown.
   */
  order_unconfirmed: z.literal(true).optional(),
  filters: z.array(z.strictObject({ param: z.string(), field: z.string(), kind: z.literal("equals") })),
  pagination: z.strictObject({ limit_param: z.string(), offset_param: z.string() }).nullable(),
  /** The app's answer to an item read of an unknown id, when recorded. */
  not_found: CannedResponseSchema.nullable(),
  /**
   * The id the recorded not-found answer names in its text (`Entity not found: Todo with id 99`), when every
   * recorded miss of the item route named its own id: serve names the requested id in its place. Absent when
   * the answer names none (so older models read).
   */
  not_found_id: z.string().optional(),
  /**
   * Set when `not_found` is inferred, never recorded (src/learn/inferred-not-found.ts): the sibling collections of
   * the same API whose recorded misses all answered it. Absent when recorded or none (so older models read).
   */
  not_found_inferred: z.strictObject({ from: z.string() }).optional(),
  /**
   * The app's answer to an item read of an id it held and deleted, when the recording shows it differing from the
   * answer to an id never held (`not_found`): a 410 beside a 404, a 404 beside a 403. `gone_id` as `not_found_id`.
   */
  gone: CannedResponseSchema.optional(),
  gone_id: z.string().optional(),
  /** With `gone`: the ids the recording showed and then no longer held (deleted while recording), sorted. */
  gone_ids: z.array(z.string()).optional(),
  /**
   * Present when no read listed the collection whole (only filtered lists, pages, item reads showed entities): which
   * ids it holds beyond those the recording showed is unknown, so a plain list read and an id the twin does not hold
   * are explained misses (`unlisted_collection`), never the app's not-found. `missing`: the ids the recording itself
   * showed absent (a recorded miss on the item route, or an entity it saw and then no longer held), sorted; those
   * get the not-found. Absent for a collection some read listed whole (so older models read).
   */
  unlisted: z.strictObject({ missing: z.array(z.string()) }).optional(),
  /**
   * The app's answer to an item read whose id cannot be one of the collection's (`abc` where ids are integers): a
   * 400 `INVALID_PARAMETER_VALUE` beside the 404 of unknown ids, learned when every such recorded read answered it
   * alike. `malformed_id_id`: the id it names, as `not_found_id`.
   */
  /**
   * The app's answer to a write (PUT, PATCH, DELETE) naming an id it does not hold, learned from the recorded write
   * misses when no item read's miss was recorded (`src/learn/write-misses.ts`); `write_not_found_id`: the id it
   * names, as `not_found_id`. Absent: writes answer `not_found` (or the generic 404).
   */
  /**
   * True when the list's confirmed projection (`fields` rule) answers item reads too: recorded item reads with a
   * query it reads as a projection only answered the entity cut down to those fields (`src/learn/item-fields.ts`).
   * Absent: such an item read is replayed or explained.
   */
  item_query_fields: z.literal(true).optional(),
  write_not_found: CannedResponseSchema.optional(),
  write_not_found_id: z.string().optional(),
  malformed_id: CannedResponseSchema.optional(),
  malformed_id_id: z.string().optional(),
  /**
   * True when the recorded item reads of ids that cannot be the collection's were answered as unknown ids are (a
   * 404): the not-found is the app's answer to one. Absent with no `malformed_id`: the recording never showed the
   * answer to such an id, and the twin explains one (a 501) rather than pass the not-found off as the app's.
   */
  malformed_id_not_found: z.literal(true).optional(),
  /**
   * Headers of list answers that carry a total, confirmed by every list read the state serves: the number of
   * matching entities before the page (`of: "total"`, `X-WP-Total`, `X-Total-Count`) or the number of pages of
   * the read's page size (`of: "pages"`, `X-WP-TotalPages`). `when_sent`: the header is sent only when the request
   * sends one of these paging parameters (a mock server's `X-Total-Count` beside `_page`/`_limit` alone); absent:
   * on every list answer. Absent when none (so older models read).
   */
  total_headers: z
    .array(
      z.strictObject({
        name: z.string(),
        of: z.enum(["total", "pages"]),
        when_sent: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  /**
   * The `Link` header of paged lists (src/learn/total-headers.ts): `slots` in the app's order — an entry sent word
   * for word (`text`), or a paging rel whose `format` holds `{url}`: the request's URL (`origin` + path + query) with
   * `page_param` set to the page it points at (`base` is the first page). Absent when none (so older models read).
   */
  link_header: z
    .strictObject({
      name: z.string(),
      page_param: z.string(),
      base: z.number().int(),
      origin: z.string(),
      /** Sent only when the request sends the page parameter (absent: on every list answer). */
      when_paged: z.literal(true).optional(),
      slots: z.array(
        z.union([
          z.strictObject({ text: z.string() }),
          z.strictObject({ rel: z.enum(["next", "prev", "first", "last"]), format: z.string() }),
        ]),
      ),
    })
    .optional(),
  /**
   * Totals inside the list envelope under an object key (`/meta/pagination/total`, RFC 6901 pointers into the
   * answer): `total` (matches before the page), `pages` (the page count) and the `constant` leaves beside them,
   * kept in step with the state (src/learn/total-headers.ts). Absent when none (so older models read).
   */
  /** The page size the app answers a list read that sets none with (it cut plain lists: query-cursor.ts). */
  default_limit: z.number().int().positive().optional(),
  envelope_fields: z
    .array(
      z.strictObject({
        pointer: z.string(),
        /**
         * `echo`: the value of query parameter `param` when sent (a number when `value`, the default, is one).
         * `next_cursor`: the cursor of the page's last entity when more follow, else null; `end_cursor`: that
         * cursor whenever the page holds entities; `has_next`: whether more follow (src/learn/query-cursor.ts);
         * `page`: the page number (1 + the pages of the read's size before it), `is_first`/`is_last`: whether the
         * page is the first (starts at 0) or the last (nothing follows).
         */
        of: z.enum([
          "total",
          "pages",
          "constant",
          "echo",
          "next_cursor",
          "end_cursor",
          "has_next",
          "page",
          "is_first",
          "is_last",
        ]),
        value: z.unknown().optional(),
        param: z.string().optional(),
        codec: z
          .strictObject({ codec: z.enum(["plain", "base64", "base64url"]), template: z.string() })
          .optional(),
      }),
    )
    .optional(),
  /**
   * Reads that count the collection (`GET /todos/count` → `{"count": 4}`), each confirmed by every recorded
   * answer against the state of its moment: the tool, the key holding the number (null: a bare number), and
   * the path the request's query is read under in this collection's query language (`["filter"]` reads
   * `where={…}` as the list's `filter={"where": {…}}`). Absent when none (so older models read).
   */
  counts: z
    .array(
      z.strictObject({
        tool_name: z.string(),
        key: z.string().nullable(),
        query_prefix: z.array(z.string()),
        explain: z.string(),
      }),
    )
    .optional(),
  /**
   * Renderings of the collection a request header asks for (src/learn/header-variants.ts): a read sending `header`:
   * `value` is answered from the same state with these envelopes (null: that kind of read was not confirmed so), each
   * entity's `fields` from the primary entity's leaves (`from`) or a constant (`value`), in that order, under
   * `content_type`; `not_found` is the variant's recorded miss (null: none recorded). Absent when none.
   */
  variants: z
    .array(
      z.strictObject({
        header: z.string(),
        value: z.string(),
        content_type: z.string().nullable(),
        envelope: EnvelopeSchema.nullable(),
        item_envelope: ItemEnvelopeSchema.nullable(),
        fields: z.array(
          z.union([
            z.strictObject({ pointer: z.string(), from: z.string() }),
            z.strictObject({ pointer: z.string(), value: z.unknown() }),
          ]),
        ),
        not_found: CannedResponseSchema.nullable(),
        explain: z.string(),
      }),
    )
    .optional(),
  /**
   * The list query language the recording confirmed (filters with operators, search, sort, pages, projections,
   * parameters with no effect), and the filter the app applies to a list read that names none of its fields
   * (`status: "publish"`). Absent in models written before it (then `filters` and `pagination` alone apply).
   */
  query: z
    .strictObject({
      rules: z.array(QueryRuleSchema),
      default_filter: z.array(z.strictObject({ field: z.string(), value: z.unknown() })),
      /** Values the app refuses, by kind (absent: none recorded; older models). */
      domains: z.array(QueryDomainSchema).optional(),
      /**
       * Meanings a sibling collection confirmed that were not inferred here (src/learn/inferred-queries.ts), each
       * with why: a recorded read of this collection refutes it, the siblings disagree, or its fields are not here.
       * Absent: none (older models read).
       */
      refused_inferences: z
        .array(z.strictObject({ param: z.string(), kind: z.string(), from: z.string(), reason: z.string() }))
        .optional(),
    })
    .optional(),
  /**
   * RFC 6901 pointers of what writes answer but reads never show (`/title/raw`, `/password`): the state keeps
   * them, reads leave them out. Absent: none (older models read).
   */
  hidden: z.array(z.string()).optional(),
  /**
   * A singleton document (`GET /api/settings`, src/learn/singletons.ts): the collection holds one entity, the
   * document `item_endpoint` (a fixed path, no path parameter) answers; `list_endpoint` is null. Its id is the
   * collection's name, kept under `id_field`, a key no recorded document holds (in `hidden`): the item read and the
   * writes at that path name it without a path parameter. Absent: false (older models read).
   */
  singleton: z.literal(true).optional(),
  /**
   * The entity tag item reads send (src/learn/etag-rules.ts): header `header` (lower case, `etag`) is `prefix` + the
   * entity's `field` + `suffix` (`"v` + version + `"`) in every recorded item read that sent one (two tags or more,
   * one field explaining them all). Serve sends it on item reads; a `stale` validation with `header` compares a
   * write's `If-Match` with it. Absent when none (so older models read).
   */
  etag: z
    .strictObject({ header: z.string(), field: z.string(), prefix: z.string(), suffix: z.string() })
    .optional(),
  explain: z.string(),
});

/** When the request lacks what a rule reads from it: a constant, keep the old value, or leave the field out. */
export const OtherwiseSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("constant"),
    value: z.unknown(),
    /**
     * `unconfirmed`: no recorded create left the field out, so the value is the documented rule's (the one empty
     * value the collection's entities held, else `[]` / false / null by the kind of their values), never the app's
     * confirmed default; coverage says so. Absent: recorded (so older models read).
     */
    default: z.literal("unconfirmed").optional(),
  }),
  z.strictObject({ kind: z.literal("keep") }),
  z.strictObject({ kind: z.literal("omit") }),
]);

/** A value transform a `format` part applies: `slug` is lower case, runs of anything but letters and digits `-`. */
export const TransformSchema = z.enum(["slug"]);

/** One part of a `format` rule: literal text, or a value of the request, the written entity or a path param. */
export const FormatPartSchema = z.union([
  z.strictObject({ text: z.string() }),
  /** RFC 6901 pointer into the request body. */
  z.strictObject({ request: z.string(), transform: TransformSchema.optional() }),
  /** RFC 6901 pointer into the entity after the write. */
  z.strictObject({ entity: z.string(), transform: TransformSchema.optional() }),
  z.strictObject({ param: z.string() }),
  /** A value of another collection's entity: the one whose id the written entity holds at `key` (see `lookup`). */
  z.strictObject({ lookup: z.string(), key: z.string(), pointer: z.string() }),
]);

/** A field of a written entity (or of an object inside it) and the rule that gives it its value. */
export interface FieldEntry {
  field: string;
  rule: FieldRule;
}

/** How one field of a written entity gets its value. */
/**
 * The one condition a constant was recorded under: every recorded write sent one of `values` (canonical JSON text)
 * at `pointer` of the request, or nothing there when `absent`. Learned for a field a request field names as its
 * reference (`project` beside `project_id`, the `name` beside a `priority.id` taken from `priority_id`): the app
 * looked the value up, so for another reference the recording does not tell it and the write is an explained miss.
 */
export const ConstantGivenSchema = z.strictObject({
  pointer: z.string(),
  values: z.array(z.string()),
  absent: z.boolean(),
});
export type ConstantGiven = z.infer<typeof ConstantGivenSchema>;

export type FieldRule =
  | {
      kind: "from_request";
      pointer: string;
      otherwise: z.infer<typeof OtherwiseSchema>;
      settable_by?: string;
    }
  | {
      kind: "id_sequence";
      start: number;
      step: number;
      sequence?: string;
      after?: "present";
      freed?: "undecided" | "inferred";
      inferred_from?: string[];
    }
  | { kind: "uuid" }
  | {
      kind: "clock";
      format: "iso" | "epoch_ms" | "epoch_s" | "date";
      layout?: string;
      offset_min?: number;
    }
  | { kind: "constant"; value: unknown; given?: ConstantGiven }
  | { kind: "copy"; from: string; pointer?: string }
  | { kind: "path_param"; name: string; integer?: true }
  | { kind: "keep" }
  | { kind: "object"; fields: FieldEntry[]; when_sent?: string[] }
  | { kind: "array"; items: FieldRule[] }
  | {
      kind: "format";
      parts: z.infer<typeof FormatPartSchema>[];
      otherwise: z.infer<typeof OtherwiseSchema>;
      given?: ConstantGiven;
    }
  | { kind: "increment"; step: number }
  | { kind: "affix"; prefix: string; suffix: string }
  | { kind: "length"; pointer: string; otherwise: z.infer<typeof OtherwiseSchema> }
  | { kind: "redacted"; marker: string }
  | { kind: "lookup"; collection: string; key: string; pointer: string }
  | { kind: "from_id"; derive: "last_segment" | "media_type"; known?: Record<string, string | null> }
  | { kind: "cases"; pointer: string; cases: { value: string; rule: FieldRule }[] }
  | {
      kind: "each";
      pointer: string;
      key: string;
      table: Record<string, unknown>;
      otherwise: z.infer<typeof OtherwiseSchema>;
    };

export const FieldRuleSchema: z.ZodType<FieldRule> = z.lazy(() =>
  z.discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("from_request"),
      /** RFC 6901 pointer into the request body (parsed JSON, or the form as an object of strings); may be nested. */
      pointer: z.string(),
      /** When the request lacks the pointer: a constant, keep the old value, or leave the field out. */
      otherwise: OtherwiseSchema,
      /**
       * Present when no observation of this write sent the field but another confirmed write of the collection
       * takes it from the request (`POST /api/items`): the field is client-settable, so a request that sends it sets
       * it. Absent for rules the write's own observations prove (so older models read).
       */
      settable_by: z.string().optional(),
    }),
    z.strictObject({
      kind: z.literal("id_sequence"),
      start: z.number().int(),
      step: z.number().int(),
      /**
       * The counter drawn from, a key of `model.id_sequences`: absent means the rule's collection; another
       * collection's name when the two share one sequence (a tag created after a category takes the next id).
       */
      sequence: z.string().optional(),
      /**
       * `present`: the highest integer id the collection holds now + `step` (`start` when it holds none), so an id
       * freed by deleting the highest entity is given again (SQLite's rowid); learned only where a create reused
       * one. Absent: after the highest ever given (so older models read).
       */
      after: z.literal("present").optional(),
      /**
       * `undecided`: the recording never showed a create after the highest entity was deleted, so every create fits
       * `after: present` as well (an app reusing a freed id, SQLite's rowid); taken: never again, and the answer
       * that draws past a freed id says so (`x-apptwin-warning`). `inferred`: this collection never showed it, but
       * another of the app did (`inferred_from`; one database numbers them alike), so `after` is theirs. Written only
       * where the twin serves a delete of the collection. Absent: the recording decided, or the question never arises.
       */
      freed: z.enum(["undecided", "inferred"]).optional(),
      /**
       * With `freed: inferred`: the collections whose recorded creates decided it (a create after their highest
       * entity was deleted); `after` says what they showed. Absent otherwise.
       */
      inferred_from: z.array(z.string()).optional(),
    }),
    z.strictObject({ kind: z.literal("uuid") }),
    z.strictObject({
      kind: z.literal("clock"),
      /** `date` is a calendar date (`2026-12-01`) of the episode clock. */
      format: z.enum(["iso", "epoch_ms", "epoch_s", "date"]),
      /**
       * ISO only: the layout the app writes (`YYYY-MM-DDTHH:mm:ss`, `YYYY-MM-DD HH:mm:ss.SSSSSSZ`, `…+HH:MM`); absent
       * means `YYYY-MM-DDTHH:mm:ss.SSSZ` (so older models read).
       */
      layout: z.string().optional(),
      /** The app's offset in minutes east of UTC, for a local time without a zone or a stated `+HH:MM`; absent is 0. */
      offset_min: z.number().int().optional(),
    }),
    z.strictObject({
      kind: z.literal("constant"),
      value: z.unknown(),
      given: ConstantGivenSchema.optional(),
    }),
    z.strictObject({
      kind: z.literal("copy"),
      /** The top-level field copied (or holding the copied value, with `pointer`). */
      from: z.string(),
      /** RFC 6901 pointer into the entity after the write when the value is nested (`/content/rendered`). */
      pointer: z.string().optional(),
    }),
    /** The path parameter's value; `integer`: written as a number (every recorded value was one: a parent's id). */
    z.strictObject({ kind: z.literal("path_param"), name: z.string(), integer: z.literal(true).optional() }),
    /**
     * The size of a request value: a string's UTF-8 byte length, an array's item count (a saved file's `size`);
     * `otherwise` when the request lacks it. Absent from models written before it.
     */
    z.strictObject({ kind: z.literal("length"), pointer: z.string(), otherwise: OtherwiseSchema }),
    z.strictObject({ kind: z.literal("keep") }),
    /** An object built key by key, each with its own rule (`title: {raw: from the request, rendered: …}`). */
    z.strictObject({
      kind: z.literal("object"),
      fields: z.array(z.strictObject({ field: z.string(), rule: FieldRuleSchema })),
      /**
       * The request pointers the object is built from (a reference object `issue: {id}` from `/time_entry/issue_id`):
       * it is left out when the request lacks one of them, as the recorded writes that sent none left it out. Absent:
       * always built (older models read).
       */
      when_sent: z.array(z.string()).optional(),
    }),
    /** An array of a fixed length, each item with its own rule (`self: [{href: …}]`). */
    z.strictObject({ kind: z.literal("array"), items: z.array(FieldRuleSchema) }),
    /** A string assembled from parts (`http://host/?p=` + the entity's id); `otherwise` when a request part is absent. */
    z.strictObject({
      kind: z.literal("format"),
      parts: z.array(FormatPartSchema),
      otherwise: OtherwiseSchema,
      /**
       * The reference the format's literal text was recorded under (see `constant.given`): its text holds words no
       * route of the API explains, and every recorded write named one same entity of another collection (a comment's
       * `link`, its post's link + `#comment-` + id, where the post is no collection the twin holds). A request naming
       * another is an explained miss. Absent otherwise (so older models read).
       */
      given: ConstantGivenSchema.optional(),
    }),
    /** The old value plus `step` (a revision count). */
    z.strictObject({ kind: z.literal("increment"), step: z.number() }),
    /**
     * The old value, a string, with a constant text put before it (`prefix`) or after it (`suffix`): a trashed slug
     * `contact` → `contact__trashed`. Learned only where every confirmed write built the new value from the old one
     * with the same affix. Absent from models written before it.
     */
    z.strictObject({ kind: z.literal("affix"), prefix: z.string(), suffix: z.string() }),
    /** A value the recording redacted: the twin answers the marker, never a guess at the secret. */
    z.strictObject({ kind: z.literal("redacted"), marker: z.string() }),
    /**
     * A value of another collection's entity (`project.name` of the project an issue names): the entity of
     * `collection` whose id is the written entity's value at `key` (RFC 6901 pointer, `/project/id`), at `pointer`.
     * Left out when there is no such entity.
     */
    z.strictObject({
      kind: z.literal("lookup"),
      collection: z.string(),
      key: z.string(),
      pointer: z.string(),
    }),
    /**
     * A value derived from the entity's id after the write (`src/model/id-derived.ts`): `last_segment`, the id after
     * its last `/` (a file's name); `media_type`, the standard media type of that segment's extension, with `known`
     * the values the recording showed for extensions the standard table lacks ("" for none). Learned only where every
     * entity the recording showed fits it. Absent from models written before it.
     */
    z.strictObject({
      kind: z.literal("from_id"),
      derive: z.enum(["last_segment", "media_type"]),
      known: z.record(z.string(), z.string().nullable()).optional(),
    }),
    /**
     * A value that depends on one request field (`type`: a file and a notebook created at one path get another name,
     * content and format): `cases` holds one rule per value sent at `pointer` (canonical JSON), each learned from the
     * writes that sent it (src/learn/request-cases.ts). A request sending another value there, or none, is an
     * explained miss: the recording never showed what the app answers for it. Absent from models written before it.
     */
    z.strictObject({
      kind: z.literal("cases"),
      pointer: z.string(),
      cases: z.array(z.strictObject({ value: z.string(), rule: FieldRuleSchema })),
    }),
    /**
     * A list of the entities a request array names (`roles` from `role_ids: [3, 5]`): for each value at `pointer`, the
     * object of `table` under it (its `key` field holds that value), as every object the recording showed in the field
     * with that key (src/learn/reference-tables.ts). A value the table lacks is an explained miss; `otherwise` when
     * the request lacks the pointer. Absent from models written before it.
     */
    z.strictObject({
      kind: z.literal("each"),
      pointer: z.string(),
      key: z.string(),
      table: z.record(z.string(), z.unknown()),
      otherwise: OtherwiseSchema,
    }),
  ]),
);

/** RFC 6901 pointers of the entity a view leaves out (the answer shows the rest). Absent: none (older models read). */
const OmitSchema = z.array(z.string()).optional();

/** What a served write answers with. */
export const WriteResponseSchema = z.discriminatedUnion("kind", [
  /** The entity after the write, without `omit` (a create answering only `{id}` omits everything else). */
  z.strictObject({ kind: z.literal("entity"), omit: OmitSchema }),
  z.strictObject({ kind: z.literal("empty") }),
  z.strictObject({ kind: z.literal("wrapped"), key: z.string(), omit: OmitSchema }),
  /**
   * The entities the write wrote as a bare array, each without `omit`: one for a create or an item write (a database
   * over HTTP answering `[row]`), every entity a write by query selected (`by_query`), in list order. Absent from
   * models written before it.
   */
  z.strictObject({ kind: z.literal("rows"), omit: OmitSchema }),
  /**
   * The number of entities a write by query (`by_query`) wrote, alone under `key` (`{"count": 3}`: LoopBack's
   * `PATCH /todos?where=…`; null: the bare number), as every recorded answer gave it. Absent from models written
   * before it.
   */
  z.strictObject({ kind: z.literal("count"), key: z.string().nullable() }),
  /**
   * A fixed JSON body, except that `fields` name keys copied from the entity (`{deleted: true, id}`), and
   * `entity_key` (when present) holds the entity without `omit` (`{deleted: true, previous: <entity>}`).
   */
  z.strictObject({
    kind: z.literal("template"),
    body: z.unknown(),
    fields: z.array(z.string()),
    entity_key: z.string().optional(),
    omit: OmitSchema,
  }),
]);

/** The fields of a write rule, shared by a route's rule and its `query_variants`. */
const writeRuleShape = {
  tool_name: z.string(),
  kind: z.enum(["create", "replace", "merge", "delete"]),
  /**
   * A PUT (learned `merge`) whose recorded read-backs never showed what the app does with a field the entity held
   * and the request did not send: every recorded PUT sent each of them. A request leaving out such a field is an
   * explained miss (the app may drop it, as a replace, or keep it). Absent: decided (or not a PUT).
   */
  unsent_undecided: z.literal(true).optional(),
  /**
   * A DELETE learned as an update of the entity it keeps (a trash, an archive: src/learn/write-rules.ts
   * `softDeletes`): the fields its rule sets to a constant (`status: "trash"`). Every recorded one met an entity
   * not yet holding them; a request on one already holding every one of them (trashing what is in the trash) is an
   * explained miss, as the app may refuse it or delete for good. Absent: not such a delete.
   */
  kept_delete: z.strictObject({ constants: z.array(z.string()) }).optional(),
  /**
   * Kinds of request this served write refuses (src/learn/case-splits.ts): the recorded writes whose body sent the
   * top-level field at `pointer` (`recorded` of them) stayed unexplained (`reason`, `hint`: why, as the withheld
   * endpoint said), while the writes that did not send it learned this rule. A request sending it is an explained
   * miss (501 `withheld_case`). Absent: every kind of request is served.
   */
  withheld_sent: z
    .array(
      z.strictObject({
        pointer: z.string(),
        reason: WithheldReasonSchema,
        hint: z.string(),
        recorded: z.number().int(),
      }),
    )
    .optional(),
  collection: z.string(),
  /** For writes on one entity: the path param holding its id. */
  id_param: z.string().nullable(),
  status: z.number().int(),
  /**
   * For a replace that creates the entity when its path names none (a PUT to a client-chosen path): the status of
   * that create (`201`), `status` being the replace's (`200`); the recording showed both, each only where the entity
   * was absent or present before. Absent when a replace of an unknown id answers not-found (so older models read).
   */
  created_status: z.number().int().optional(),
  content_type: z.string().nullable(),
  response: WriteResponseSchema,
  /**
   * For a write answered with a redirect (post-redirect-get, `status` 3xx): the Location to send, a path on the
   * twin's own origin (or the recorded absolute URL when it leaves the app) where `{<field>}` is that field of the
   * entity after the write (`/items/{id}`). Absent for other writes.
   */
  location: z.string().optional(),
  /**
   * A batch update at the list path (`PATCH /api/items {keys: [1, 2], data: {status}}`): the request's array at `keys`
   * names the entities, each updated by `fields` (from the request's object at `data`); the answer's entity is the
   * list of those entities in key order (`entity`: the bare array; `wrapped`: under its key). Absent for writes on
   * one entity (so older models read).
   */
  batch: z.strictObject({ keys: z.string(), data: z.string() }).optional(),
  /**
   * A write of the whole collection at its list path (`PUT /api/folders [...]`, `POST /flows [...]` with every
   * entity): the request's array becomes the collection, entity for entity, in its order (`kind: replace`, no
   * fields); the answer is none or that array (`entity`). Absent otherwise (so older models read).
   */
  replace_all: z.literal(true).optional(),
  /**
   * A write at the list path whose query is a filter the collection's reads understand (`PATCH /articles?id=eq.3`,
   * `DELETE /articles?id=eq.6`, database-over-HTTP style): every entity of the scope that filter selects is written
   * by `fields` (or deleted), and the answer is `rows` (those entities after the write, or before a delete) or
   * `empty`. A query with anything but filters, or one selecting nothing, is an explained miss. Absent otherwise.
   */
  by_query: z.literal(true).optional(),
  /**
   * For a write by query: the path its query is read under in the collection's query language, as every recorded
   * selection confirmed (`["filter"]` reads `where={…}` as the list's `filter={"where": {…}}`). Absent: the query is
   * read as it is (and in models written before it).
   */
  query_prefix: z.array(z.string()).optional(),
  /**
   * The query parameters the recorded successful writes sent (by name), each with its recorded values, `absent` when
   * some write did not send it, `redacted` when the recording redacted its value (a credential: any value). A
   * request with another parameter or value, or lacking one every write sent, is an explained miss: the app may do
   * another thing (WordPress trashes a post a `DELETE` without `force=true` asks it to). Absent: no write sent one.
   */
  query: z
    .array(
      z.strictObject({
        param: z.string(),
        values: z.array(z.string()),
        absent: z.literal(true).optional(),
        redacted: z.literal(true).optional(),
      }),
    )
    .optional(),
  fields: z.array(z.strictObject({ field: z.string(), rule: FieldRuleSchema })),
  /**
   * For an update whose path names its entity by a greedy id (`{id+}`: ids holding `separator`, one entity's id the
   * start of others'): what the recording showed of the entities under one it renamed (ids starting with the old id
   * and `separator`). `moves: true`: a read after a recorded rename showed one at the new id with the new prefix, as
   * moved (the id, and every field holding it or starting with it, rewritten), and no read contradicted that (one
   * still at its old id, or the new one answering otherwise); the twin then moves them with the entity, in one step.
   * `moves: false`: a read contradicted it (`shown_at`: that read's record). Absent `moves`: no recorded rename had
   * any. Unless `moves` is true, a rename of an entity the state holds descendants of is an explained 501 miss.
   * Absent: ids are not hierarchical, or an older model (a rename moves the entity alone).
   */
  descendants: z
    .strictObject({
      separator: z.string(),
      moves: z.boolean().optional(),
      shown_at: z.number().int().optional(),
    })
    .optional(),
  explain: z.string(),
};

export const WriteRuleSchema = z.strictObject({
  ...writeRuleShape,
  /**
   * The route's rules for the other queries its recorded writes sent, each guarded by its own `query` and confirmed
   * by its own read-backs (WordPress trashes a comment a `DELETE` without a query asks it to, an update of its
   * `status`, and deletes it for good under `force=true`): a request is served by the first rule, this one's or a
   * variant's, whose query it fits; one fitting none is an explained miss. Absent: one rule for the route.
   */
  query_variants: z.array(z.strictObject(writeRuleShape)).optional(),
});

/** A recorded body: parsed JSON, text, or base64. */
export const ReplayBodySchema = z
  .discriminatedUnion("encoding", [
    z.strictObject({ encoding: z.literal("json"), value: z.unknown() }),
    z.strictObject({ encoding: z.literal("utf8"), text: z.string() }),
    z.strictObject({ encoding: z.literal("base64"), text: z.string() }),
  ])
  .nullable();

/** A scalar of a request body a replayed answer can be keyed by. */
export const MatchValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** One recorded answer of a replay. */
export const ReplayResponseSchema = z.strictObject({
  status: z.number().int(),
  headers: z.record(z.string(), z.string()),
  body: ReplayBodySchema,
  /**
   * A sign-in's answer keyed by who signed in: RFC 6901 pointer into the request body (parsed JSON, or the form as
   * an object of strings) → the value that user sent (never a secret: redaction markers are never keys). The
   * answer fits a request whose body holds every one of these values. Absent on other replays (so older models
   * read) and on a keyed sign-in's recorded refusal, which answers a user no match fits.
   */
  match: z.record(z.string(), MatchValueSchema).optional(),
  /**
   * An answer whose shape depends on a request header (learned by hypothesis, src/learn/read-model.ts): lower-case
   * header name → the value this answer's request sent ("" for none). It answers only requests sending that value.
   * Absent when no header changes the replay's answers (so older models read).
   */
  headers_match: z.record(z.string(), z.string()).optional(),
});

/**
 * Entities of a collection a replayed answer embeds, found by structure (src/learn/embedded-reads.ts): one entity
 * (`id`), the collection's whole list, or its count, at `pointer` (RFC 6901, "" for the body). `confirmed`: every
 * recorded answer held it as the state held it then, so serve rebuilds it from the episode's state (`keys`: the
 * fields shown); else the replay is stale once the episode wrote to `collection` (an explained miss).
 */
export const ReplayEmbedSchema = z.strictObject({
  collection: z.string(),
  pointer: z.string(),
  kind: z.enum(["entity", "list", "count"]),
  id: z.string().optional(),
  keys: z.array(z.string()).optional(),
  confirmed: z.boolean(),
  explain: z.string(),
});

export const ReplaySchema = z.strictObject({
  method: z.string(),
  path_and_query: z.string(),
  tool_name: z.string(),
  responses: z.array(ReplayResponseSchema),
  /** Collections its answers embed (sorted by collection, pointer); absent when none (so older models read). */
  embeds: z.array(ReplayEmbedSchema).optional(),
});

/**
 * A validation failure the recording confirmed: a write whose request lacked `field` (or left it blank) was
 * answered with this status and body, while every successful request of the endpoint sent it non-empty.
 */
export const ValidationRuleSchema = z.strictObject({
  tool_name: z.string(),
  field: z.string(),
  /** RFC 6901 pointer into the request body (parsed JSON, or the form as an object of strings). */
  pointer: z.string(),
  status: z.number().int(),
  content_type: z.string().nullable(),
  /** The recorded answer body (parsed JSON, or text), sent as recorded. */
  body: z.unknown(),
  /** Set on a PATCH: the rule fires only when the request sends the field null or blank, never when it leaves it out. */
  only_when_sent: z.literal(true).optional(),
  /**
   * What the failed request did with the field, the one respect it differed from the successes in: absent (so older
   * models read) for a field lacking or blank; `type` a value of none of the JSON `types` the successes sent; `null`
   * null where successes sent a value or left it out; `range` a number at or below `below`, or at or above `above`
   * (beyond the lowest or highest a success sent); `stale` (an update) a value other than the one the entity the
   * path names holds in that field (a revision: every success sent the one it held); `unique` (a create, or an
   * update: then another entity than the one the path names, of its scope, or of the collection for the id field, a
   * rename onto a taken id) a value an entity of the collection (its scope) already holds there (no success sent one
   * held); `sent` the field sent at
   * all, which no success sent and the app's answer names (`must NOT have additional properties: id`).
   */
  kind: z.enum(["type", "null", "range", "stale", "unique", "sent"]).optional(),
  /**
   * With `kind: stale`: the request header (lower case, `if-match`) the rule reads instead of the body (`pointer`
   * is then ""): it fires when the request sends the header and it differs from the collection's `etag` of the
   * entity the path names. Absent: the rule reads the body (so older models read).
   */
  header: z.string().optional(),
  types: z.array(z.enum(["string", "number", "boolean", "object", "array"])).optional(),
  /**
   * With `kind: unique` or `stale` on a wrapped body (`/project/identifier`): the entity's field the value is compared
   * with. Absent: `field` (so older models read).
   */
  entity_field: z.string().optional(),
  /** With `kind: unique`: values are compared ignoring letter case (a recorded refusal clashed only that way). */
  ignore_case: z.literal(true).optional(),
  /**
   * With `kind: unique`: pointers into `body` where every recorded refusal echoed the id of the entity its value
   * clashed with (`/data/term_id`); the twin fills them from the entity the request clashes with.
   */
  clash: z.array(z.string()).optional(),
  /**
   * With `kind: unique`: texts of `body` (a string at `pointer`; "" a text answer whole) that spelled, in every
   * recorded refusal alike, the value the request sent in the rule's field (`from: value`) or the id its path named
   * (`from: own_id`) among literal runs (`File already exists: ` + value). The twin spells the request's own there;
   * `body` holds the first refusal's text. Absent: the body as recorded (so older models read).
   */
  spell: z
    .array(
      z.strictObject({
        pointer: z.string(),
        parts: z.array(z.union([z.string(), z.strictObject({ from: z.enum(["value", "own_id"]) })])),
      }),
    )
    .optional(),
  below: z.number().optional(),
  above: z.number().optional(),
  explain: z.string(),
});

/**
 * A credential carrier the recording shows on API requests: an Authorization header (its scheme when the recording
 * shows it: `bearer`, `basic`; else `authorization`), a custom header, a cookie, or a query parameter. Never a value.
 */
export const AuthSchemeSchema = z.strictObject({
  /** Unique, `[A-Za-z0-9._-]+` (an OpenAPI component key). */
  id: z.string(),
  kind: z.enum(["bearer", "basic", "authorization", "header", "cookie", "query"]),
  /** The header, cookie or query parameter name. */
  name: z.string(),
  explain: z.string(),
});

/**
 * The auth the recording shows: its schemes, and per tool the distinct sets of schemes its recorded requests sent
 * (alternatives; an empty set is a request sent without any).
 */
export const AuthSchema = z.strictObject({
  schemes: z.array(AuthSchemeSchema),
  endpoints: z.record(z.string(), z.array(z.array(z.string()))),
});

/** Recorded bodies of one tool, shortened (arrays to their first items), for documentation examples. */
export const ExamplesSchema = z.strictObject({
  /** The first recorded JSON (or form) request body, when any. */
  request: z.unknown().optional(),
  /** Status → the first recorded JSON body answered with it. */
  responses: z.record(z.string(), z.unknown()),
  /**
   * Query parameter → the distinct values sent (sorted, at most 20), how many requests sent it, and the type every
   * value sent has (`integer`, `boolean`: true/false, else `string`).
   */
  query: z
    .record(
      z.string(),
      z.strictObject({
        values: z.array(z.string()),
        seen: z.number().int(),
        type: z.enum(["integer", "boolean", "string"]),
      }),
    )
    .optional(),
});

/**
 * A recorded answer whose body the recording did not keep (a HAR entry without `content.text`, `size: -1`; a
 * capture that could not read it) though its headers say it had one. Replayed without a body, and flagged.
 */
export const UnrecordedBodySchema = z.strictObject({
  tool_name: z.string(),
  method: z.string(),
  path_and_query: z.string(),
  status: z.number().int(),
  /** JSON pointers to the records, e.g. `/records/12/response/body`. */
  pointers: z.array(z.string()),
});

/**
 * The app's recorded answer to a write body it refused before reading it as the write (400, 415, 422):
 * `unreadable`, a body that is not JSON at all (truncated, a word, empty, not UTF-8, nested past any bound);
 * `wrong_type`, valid JSON of another type than the endpoint's accepted requests sent (`null`, `[1,2]` where
 * they sent objects). `tool_name` null: every JSON write of the app, when every such refusal recorded agrees.
 */
export const BodyRefusalSchema = z.strictObject({
  tool_name: z.string().nullable(),
  kind: z.enum(["unreadable", "wrong_type"]),
  status: z.number().int(),
  content_type: z.string().nullable(),
  body: z.unknown(),
  explain: z.string(),
});

/**
 * The app's recorded answer (401, 403, 419) to a write that lacked credentials every accepted write of the tool
 * carried. `missing` names them (`header:authorization`, `cookie:session`): a request lacking all of them gets the
 * answer. Never a value. Not applied to MCP calls, which act as the recording's signed-in user.
 */
export const CredentialRefusalSchema = z.strictObject({
  tool_name: z.string(),
  missing: z.array(z.string()),
  status: z.number().int(),
  content_type: z.string().nullable(),
  body: z.unknown(),
  explain: z.string(),
});

/**
 * A body the app refused (400/422) exactly as recorded, which no accepted request of the tool sent: the twin answers
 * a request sending that very body (JSON, or a form's fields; compared as canonical JSON) with the recorded answer,
 * whatever the validation rules learned from it. `request` is the refused body as parsed.
 */
export const RefusedBodySchema = z.strictObject({
  tool_name: z.string(),
  request: z.unknown(),
  status: z.number().int(),
  content_type: z.string().nullable(),
  body: z.unknown(),
  explain: z.string(),
});

/**
 * The credentials every accepted write of a tool carried (`header:authorization`, `cookie:session`; never a value),
 * where the recording holds no answer of the app to a write without them: a write lacking every one is an explained
 * miss (501 `unauthenticated_unrecorded`), never served. Not applied to MCP calls (the recording's signed-in user).
 */
export const CredentialRequirementSchema = z.strictObject({
  tool_name: z.string(),
  carried: z.array(z.string()),
  explain: z.string(),
});

/**
 * A write with no visible effect (a tracking ping, a "mark seen"): on no collection, every success answered alike,
 * and no read repeated around it changed. The twin answers it as recorded and changes no state; it is never a
 * proven write.
 */
export const AcknowledgedSchema = z.strictObject({
  tool_name: z.string(),
  status: z.number().int(),
  content_type: z.string().nullable(),
  /** The recorded answer body (parsed JSON, or text), sent as recorded. */
  body: z.unknown(),
  /** True when the recorded answer had no body (a 204). */
  empty: z.boolean(),
  explain: z.string(),
});

export const ModelSchema = z.strictObject({
  schema_version: z.literal(MODEL_SCHEMA_VERSION),
  app_origin: z.string(),
  endpoints: z.array(EndpointSchema),
  collections: z.array(CollectionSchema),
  write_rules: z.array(WriteRuleSchema),
  replays: z.array(ReplaySchema),
  /**
   * Recorded reads not replayed because a later recorded write made their answer out of date (src/learn/
   * stale-replays.ts), with no later answer of the same request to replay instead: each names the entity that changed
   * and the write that changed it (null: the recording saw it gone by the end), so the twin's miss says so instead
   * of "never recorded". Sorted by method, path_and_query. Absent when none (so older models read).
   */
  stale_replays: z
    .array(
      z.strictObject({
        method: z.string(),
        path_and_query: z.string(),
        tool_name: z.string(),
        collection: z.string(),
        id: z.string(),
        write: z.string().nullable(),
      }),
    )
    .optional(),
  /** The episode clock starts at `last_time_ms` (null: untimed recording) and moves `step_ms` per write. */
  clock: z.strictObject({ last_time_ms: z.number().nullable(), step_ms: z.number().int().positive() }),
  /** Next integer id per collection with integer ids (after the highest ever seen). */
  id_sequences: z.record(z.string(), z.number().int()),
  /** Confirmed validation failures, sorted by tool name then field. Always written; optional so older models read. */
  validations: z.array(ValidationRuleSchema).optional(),
  /** Writes with no visible effect, answered as recorded, sorted by tool name. Optional so older models read. */
  acknowledged: z.array(AcknowledgedSchema).optional(),
  /** The auth the recording shows (for the OpenAPI document). Always written; optional so older models read. */
  auth: AuthSchema.optional(),
  /** Recorded bodies per tool, for the OpenAPI document's examples. Always written; optional so older models read. */
  examples: z.record(z.string(), ExamplesSchema).optional(),
  /** Answers recorded without their body, sorted. Always written; optional so older models read. */
  unrecorded_bodies: z.array(UnrecordedBodySchema).optional(),
  /** Recorded answers to bodies the app could not take, sorted. Always written; optional so older models read. */
  body_refusals: z.array(BodyRefusalSchema).optional(),
  /** Recorded answers to writes without their credentials, sorted. Always written; optional so older models read. */
  credential_refusals: z.array(CredentialRefusalSchema).optional(),
  /**
   * Writes whose every accepted request carried credentials and that no recorded refusal covers, sorted by tool
   * name. Absent when none (so older models read).
   */
  credentials_required: z.array(CredentialRequirementSchema).optional(),
  /** Bodies the app refused, answered as recorded when sent again exactly; sorted. Absent when none. */
  refused_bodies: z.array(RefusedBodySchema).optional(),
  /**
   * Query parameters confirmed as cache-busters (a client's clock, new on every read, never changing the answer):
   * learning took them out of every request, serve takes them out of every request asked. Absent when none.
   */
  cache_busters: z.array(z.strictObject({ param: z.string(), explain: z.string() })).optional(),
});

/** The seed state: each collection's entities in list order. */
export const SeedStateSchema = z.strictObject({
  collections: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
});

export type JsonSchema = z.infer<typeof JsonSchemaSchema>;
export type WithheldReason = z.infer<typeof WithheldReasonSchema>;
export type Withheld = z.infer<typeof WithheldSchema>;
export type CredentialRequirement = z.infer<typeof CredentialRequirementSchema>;
export type RefusedBody = z.infer<typeof RefusedBodySchema>;
export type Param = z.infer<typeof ParamSchema>;
export type Endpoint = z.infer<typeof EndpointSchema>;
export type Envelope = z.infer<typeof EnvelopeSchema>;
export type ItemEnvelope = z.infer<typeof ItemEnvelopeSchema>;
export type Collection = z.infer<typeof CollectionSchema>;
export type QueryRule = z.infer<typeof QueryRuleSchema>;
export type QueryDomain = z.infer<typeof QueryDomainSchema>;
export type QuerySegment = z.infer<typeof QuerySegmentSchema>;
export type CannedResponse = z.infer<typeof CannedResponseSchema>;
export type WriteResponse = z.infer<typeof WriteResponseSchema>;
export type WriteRule = z.infer<typeof WriteRuleSchema>;
export type ValidationRule = z.infer<typeof ValidationRuleSchema>;
export type BodyRefusal = z.infer<typeof BodyRefusalSchema>;
export type CredentialRefusal = z.infer<typeof CredentialRefusalSchema>;
export type Acknowledged = z.infer<typeof AcknowledgedSchema>;
export type Replay = z.infer<typeof ReplaySchema>;
export type ReplayEmbed = z.infer<typeof ReplayEmbedSchema>;
export type ReplayResponse = z.infer<typeof ReplayResponseSchema>;
export type MatchValue = z.infer<typeof MatchValueSchema>;
export type ReplayBody = z.infer<typeof ReplayBodySchema>;
export type AuthScheme = z.infer<typeof AuthSchemeSchema>;
export type Auth = z.infer<typeof AuthSchema>;
export type Examples = z.infer<typeof ExamplesSchema>;
export type UnrecordedBody = z.infer<typeof UnrecordedBodySchema>;
export type Model = z.infer<typeof ModelSchema>;
export type SeedState = z.infer<typeof SeedStateSchema>;
export type Entity = Record<string, unknown>;
