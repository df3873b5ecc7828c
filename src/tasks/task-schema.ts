/**
 * `tasks.json` (`schema_version: 1`): the evaluation tasks of a bundle as
 * plain data. Each task carries a person's request (`prompt`), what the
 * final state must show (`expected.changes`; empty means nothing may
 * change), the answer to give for a question (`answer`), and an oracle: the
 * tool calls that solve it and how its answer is read from their results.
 * docs/specs/eval/spec.md gives the meaning of every field.
 */
import { z } from "zod";

/** The newest tasks format this apptwin writes and reads. */
export const TASKS_SCHEMA_VERSION = 1;

/** An RFC 6901 pointer ("" is the whole value). */
const Pointer = z.string().regex(/^(\/.*)?$/, "must be an RFC 6901 pointer such as /title");

/** The shapes of task, in the order tasks.json lists them. */
export const TASK_KINDS = [
  "smoke",
  "lookup",
  "nested_lookup",
  "count",
  "list",
  "latest",
  "oldest",
  "create",
  "update",
  "delete",
  "find_then_update",
  "find_then_delete",
] as const;

export const TaskKindSchema = z.enum(TASK_KINDS);

/** What a task is for: an environment check, a question, or a change to make. */
export const TaskCategorySchema = z.enum(["smoke", "retrieval", "write"]);

/** How the agent's answer is judged. */
export const AnswerSchema = z.discriminatedUnion("kind", [
  /** The answer, normalised (case, surrounding quotes and spaces, a final period), equals `value` or one of `accept`. */
  z.strictObject({ kind: z.literal("exact"), value: z.string(), accept: z.array(z.string()) }),
  /** The answer is this number (alone, or the only number in the answer). */
  z.strictObject({ kind: z.literal("numeric"), value: z.number() }),
  /** Every one of `values` appears in the answer and none of `must_exclude` does (case-insensitive). */
  z.strictObject({
    kind: z.literal("must_include"),
    values: z.array(z.string()),
    must_exclude: z.array(z.string()),
  }),
]);

/** One field an expected change must show: the value at `pointer` of the entity. */
export const ExpectedFieldSchema = z.strictObject({ pointer: Pointer, value: z.unknown() });

/** A change the final state must show (an entity the change does not name must not change). */
export const ExpectedChangeSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("created"),
    collection: z.string(),
    fields: z.array(ExpectedFieldSchema),
  }),
  z.strictObject({
    kind: z.literal("updated"),
    collection: z.string(),
    id: z.string(),
    fields: z.array(ExpectedFieldSchema),
    /** Top-level fields the app changes by itself on such a write (a clock field): they may change too. */
    may_change: z.array(z.string()),
  }),
  z.strictObject({ kind: z.literal("deleted"), collection: z.string(), id: z.string() }),
]);

/** One tool call of an oracle. */
export const OracleCallSchema = z.strictObject({
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});

/** How an oracle's answer is read from one call's result (`{status, body}`). */
export const SelectorSchema = z.discriminatedUnion("kind", [
  /** The value at `pointer`. */
  z.strictObject({ kind: z.literal("value"), pointer: Pointer }),
  /** The length of the array at `pointer`. */
  z.strictObject({ kind: z.literal("count"), pointer: Pointer }),
  /** `take` of the one element of the array at `items` whose `where.pointer` equals `where.value`. */
  z.strictObject({
    kind: z.literal("find"),
    items: Pointer,
    where: z.strictObject({ pointer: Pointer, value: z.unknown() }),
    take: Pointer,
  }),
  /** `take` of every element of the array at `items`, one per line. */
  z.strictObject({ kind: z.literal("all"), items: Pointer, take: Pointer }),
  /** `take` of the element of the array at `items` with the highest (`max`) or lowest (`min`) `by`. */
  z.strictObject({
    kind: z.literal("extreme"),
    items: Pointer,
    by: Pointer,
    pick: z.enum(["max", "min"]),
    take: Pointer,
  }),
]);

/** The tool calls that solve a task, and how its answer is read from them (null: nothing to answer). */
export const OracleSchema = z.strictObject({
  calls: z.array(OracleCallSchema),
  answer: z.strictObject({ call: z.number().int().nonnegative(), select: SelectorSchema }).nullable(),
});

/** What the smoke task expects of one of its oracle's calls: the recorded status, and the body or its shape. */
export const SmokeCheckSchema = z.strictObject({
  call: z.number().int().nonnegative(),
  status: z.number().int(),
  /** The recorded body, compared exactly (replayed reads). */
  body: z.unknown().optional(),
  /** The recorded body's JSON Schema (state-backed reads). */
  schema: z.record(z.string(), z.unknown()).optional(),
});

export const TaskSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/),
  kind: TaskKindSchema,
  category: TaskCategorySchema,
  prompt: z.string(),
  answer: AnswerSchema.nullable(),
  expected: z.strictObject({ changes: z.array(ExpectedChangeSchema) }),
  /** Smoke only: what each oracle call must answer. */
  checks: z.array(SmokeCheckSchema).optional(),
  oracle: OracleSchema,
  explain: z.string(),
});

/** A task shape that was not generated for a subject, and why. */
export const NotGeneratedSchema = z.strictObject({
  /** The collection, or the `METHOD /template` of an endpoint. */
  subject: z.string(),
  kind: TaskKindSchema,
  reason: z.string(),
  explain: z.string(),
});

/** How graders name an entity of a collection in their reasons. */
export const CollectionLabelSchema = z.strictObject({
  name: z.string(),
  singular: z.string(),
  id_field: z.string(),
  /** Pointer of the field that tells its entities apart for a person (a title), or null. */
  key: Pointer.nullable(),
});

export const TasksFileSchema = z.strictObject({
  schema_version: z.literal(TASKS_SCHEMA_VERSION),
  tasks: z.array(TaskSchema),
  not_generated: z.array(NotGeneratedSchema),
  collections: z.array(CollectionLabelSchema),
});

export type TaskKind = z.infer<typeof TaskKindSchema>;
export type TaskCategory = z.infer<typeof TaskCategorySchema>;
export type Answer = z.infer<typeof AnswerSchema>;
export type ExpectedField = z.infer<typeof ExpectedFieldSchema>;
export type ExpectedChange = z.infer<typeof ExpectedChangeSchema>;
export type OracleCall = z.infer<typeof OracleCallSchema>;
export type Selector = z.infer<typeof SelectorSchema>;
export type Oracle = z.infer<typeof OracleSchema>;
export type SmokeCheck = z.infer<typeof SmokeCheckSchema>;
export type Task = z.infer<typeof TaskSchema>;
export type NotGenerated = z.infer<typeof NotGeneratedSchema>;
export type CollectionLabel = z.infer<typeof CollectionLabelSchema>;
export type TasksFile = z.infer<typeof TasksFileSchema>;
