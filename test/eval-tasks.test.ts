/**
 * The tasks generated for the items and boards bundles (learned from the
 * checked-in real captures), asserted exactly: ids, kinds, prompts,
 * answers and expected changes; the shapes not generated and why; prompts
 * that never name a tool, an id or a withheld capability; and the same
 * tasks.json bytes from two builds and from a rebuild of the bundle's own
 * evidence.json.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type BuiltBundle, buildBundle } from "../src/bundle/build-bundle.js";
import { parseEvidence, readEvidence } from "../src/evidence/evidence-io.js";
import type { Evidence } from "../src/evidence/evidence-schema.js";
import { type TasksFile, TasksFileSchema } from "../src/tasks/task-schema.js";

const fixture = (name: string) => join(import.meta.dirname, "fixtures", "evidence", name);
const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

const built: Record<string, { evidence: Evidence; bundle: BuiltBundle; tasks: TasksFile }> = {};

beforeAll(async () => {
  for (const app of ["items", "boards"]) {
    const evidence = await readEvidence(fixture(`${app}.capture.json`));
    const bundle = buildBundle({ evidence: [evidence] });
    built[app] = {
      evidence,
      bundle,
      tasks: TasksFileSchema.parse(JSON.parse(text(bundle.files.get("tasks.json")))),
    };
  }
});

function summary(t: TasksFile): unknown[] {
  return t.tasks.map((x) => [x.id, x.kind, x.prompt, x.answer]);
}

function changes(t: TasksFile): unknown[] {
  return t.tasks.filter((x) => x.expected.changes.length > 0).map((x) => [x.id, x.expected.changes]);
}

const SMOKE_PROMPT =
  "Environment check, run by apptwin eval and not given to agents: every read tool answers as the recording did.";
const LAUNCH = "baa9198f-6ed1-4c87-980a-aa5953e0e765";
const DESIGN_CARD = "53d7f2ca-9533-48c1-afa4-ad6312879335";

describe("items tasks", () => {
  it("lists every task with its kind, prompt and answer", () => {
    expect(summary(built.items!.tasks)).toEqual([
      ["smoke", "smoke", SMOKE_PROMPT, null],
      [
        "lookup.items.done",
        "lookup",
        "Is the item whose title is “Water the plants” done? Reply yes or no.",
        { kind: "exact", value: "yes", accept: ["true"] },
      ],
      [
        "count.items.done",
        "count",
        "How many items are not done? Reply with the number only.",
        { kind: "numeric", value: 4 },
      ],
      [
        "list.items.done",
        "list",
        "Which items are done? Reply with the title of each, one per line.",
        {
          kind: "must_include",
          values: ["Renew passport", "Water the plants"],
          must_exclude: ["Buy coffee beans", "Call the plumber", "Book dentist appointment", "Oat milk"],
        },
      ],
      [
        "latest.items.created_at",
        "latest",
        "Which item was created most recently? Reply with its title only.",
        { kind: "exact", value: "Oat milk", accept: [] },
      ],
      [
        "oldest.items.created_at",
        "oldest",
        "Which item was created first? Reply with its title only.",
        { kind: "exact", value: "Buy coffee beans", accept: [] },
      ],
      ["create.items", "create", "Add an item with the title “Quarterly review”.", null],
      ["update.items.done", "update", "Mark the item whose title is “Water the plants” as not done.", null],
      [
        "update.items.title",
        "update",
        "Change the title of the item whose title is “Water the plants” to “Spring cleaning”.",
        null,
      ],
      ["delete.items", "delete", "Delete the item whose title is “Oat milk”.", null],
      [
        "find_then_update.items.done",
        "find_then_update",
        "Find the item that was created most recently and mark it as done.",
        null,
      ],
      // Found by being the oldest, not by its key (the latest is the one delete.items names).
      ["find_then_delete.items", "find_then_delete", "Delete the item that was created first.", null],
    ]);
  });

  it("grades writes on the changes they must make", () => {
    expect(changes(built.items!.tasks)).toEqual([
      [
        "create.items",
        [
          {
            kind: "created",
            collection: "items",
            fields: [{ pointer: "/title", value: "Quarterly review" }],
          },
        ],
      ],
      [
        "update.items.done",
        [
          {
            kind: "updated",
            collection: "items",
            id: "4",
            fields: [{ pointer: "/done", value: false }],
            may_change: ["updated_at"],
          },
        ],
      ],
      [
        "update.items.title",
        [
          {
            kind: "updated",
            collection: "items",
            id: "4",
            fields: [{ pointer: "/title", value: "Spring cleaning" }],
            may_change: ["updated_at"],
          },
        ],
      ],
      ["delete.items", [{ kind: "deleted", collection: "items", id: "6" }]],
      [
        "find_then_update.items.done",
        [
          {
            kind: "updated",
            collection: "items",
            id: "6",
            fields: [{ pointer: "/done", value: true }],
            may_change: ["updated_at"],
          },
        ],
      ],
      ["find_then_delete.items", [{ kind: "deleted", collection: "items", id: "1" }]],
    ]);
  });

  it("solves questions with the learned filter and reads the answer from the twin's answer", () => {
    const count = built.items!.tasks.tasks.find((t) => t.id === "count.items.done")!;
    expect(count.oracle).toEqual({
      calls: [{ tool: "get_items", arguments: { done: "false" } }],
      answer: { call: 0, select: { kind: "value", pointer: "/body/total" } },
    });
    const find = built.items!.tasks.tasks.find((t) => t.id === "find_then_update.items.done")!;
    expect(find.oracle.calls).toEqual([
      { tool: "get_items", arguments: {} },
      { tool: "patch_items_by_id", arguments: { id: 6, body: { done: true } } },
    ]);
  });

  it("says which shapes were not generated and why", () => {
    expect(built.items!.tasks.not_generated).toEqual([
      {
        subject: "POST /api/login",
        kind: "update",
        reason: "replayed_write",
        explain:
          "the twin answers this request by replaying the recording (a sign-in, or a request whose effect is not state), so no write task can be graded on it",
      },
    ]);
  });
});

describe("boards tasks", () => {
  it("lists every task with its kind, prompt and answer", () => {
    expect(summary(built.boards!.tasks)).toEqual([
      ["smoke", "smoke", SMOKE_PROMPT, null],
      [
        "nested_lookup.cards.status",
        "nested_lookup",
        "What is the status of the card in the board “Launch Plan” whose title is “Design landing page”? Reply with the status only.",
        { kind: "exact", value: "done", accept: [] },
      ],
      [
        "nested_lookup.comments.text",
        "nested_lookup",
        "What is the text of the comment in the board “Launch Plan” whose author is “Sam”? Reply with the text only.",
        { kind: "exact", value: "Email draft is ready for review.", accept: [] },
      ],
      [
        "count.cards",
        "count",
        "How many cards are in the board “Launch Plan”? Reply with the number only.",
        { kind: "numeric", value: 4 },
      ],
      [
        "count.comments",
        "count",
        "How many comments are in the board “Launch Plan”? Reply with the number only.",
        { kind: "numeric", value: 2 },
      ],
      [
        "latest.boards.createdAt",
        "latest",
        "Which board was created most recently? Reply with its name only.",
        { kind: "exact", value: "Team Offsite", accept: [] },
      ],
      [
        "latest.cards.createdAt",
        "latest",
        "Which card in the board “Launch Plan” was created most recently? Reply with its title only.",
        { kind: "exact", value: "Draft the launch email", accept: [] },
      ],
      [
        "latest.comments.createdAt",
        "latest",
        "Which comment in the board “Launch Plan” was created most recently? Reply with its author only.",
        { kind: "exact", value: "Sam", accept: [] },
      ],
      [
        "oldest.boards.createdAt",
        "oldest",
        "Which board was created first? Reply with its name only.",
        { kind: "exact", value: "Launch Plan", accept: [] },
      ],
      [
        "oldest.cards.createdAt",
        "oldest",
        "Which card in the board “Launch Plan” was created first? Reply with its title only.",
        { kind: "exact", value: "Write the release notes", accept: [] },
      ],
      [
        "oldest.comments.createdAt",
        "oldest",
        "Which comment in the board “Launch Plan” was created first? Reply with its author only.",
        { kind: "exact", value: "Priya", accept: [] },
      ],
      ["create.boards", "create", "Add a board with the name “Quarterly review”.", null],
      [
        "create.comments",
        "create",
        "Add a comment to the board “Launch Plan” with the author “Jordan” and the text “Quarterly review”.",
        null,
      ],
      [
        "update.cards.status",
        "update",
        "Change the status of the card in the board “Launch Plan” whose title is “Design landing page” to “doing”.",
        null,
      ],
      [
        "update.cards.title",
        "update",
        "Change the title of the card in the board “Launch Plan” whose title is “Design landing page” to “Spring cleaning”.",
        null,
      ],
      [
        "delete.cards",
        "delete",
        "Delete the card in the board “Launch Plan” whose title is “Draft the launch email”.",
        null,
      ],
      [
        "find_then_update.cards.title",
        "find_then_update",
        "Find the card in the board “Launch Plan” whose status is “done” and change its title to “Team retreat”.",
        null,
      ],
      [
        "find_then_delete.cards",
        "find_then_delete",
        "Delete the card in the board “Launch Plan” whose status is “done”.",
        null,
      ],
    ]);
  });

  it("grades writes on the changes they must make, the parent included for a nested create", () => {
    const updated = (field: string, value: string) => [
      {
        kind: "updated",
        collection: "cards",
        id: DESIGN_CARD,
        fields: [{ pointer: field, value }],
        may_change: ["updatedAt"],
      },
    ];
    expect(changes(built.boards!.tasks)).toEqual([
      [
        "create.boards",
        [
          {
            kind: "created",
            collection: "boards",
            fields: [{ pointer: "/name", value: "Quarterly review" }],
          },
        ],
      ],
      [
        "create.comments",
        [
          {
            kind: "created",
            collection: "comments",
            fields: [
              { pointer: "/boardId", value: LAUNCH },
              { pointer: "/author", value: "Jordan" },
              { pointer: "/text", value: "Quarterly review" },
            ],
          },
        ],
      ],
      ["update.cards.status", updated("/status", "doing")],
      ["update.cards.title", updated("/title", "Spring cleaning")],
      [
        "delete.cards",
        [{ kind: "deleted", collection: "cards", id: "7a77c6bf-84dd-408c-a8cc-9c0aafabba6d" }],
      ],
      ["find_then_update.cards.title", updated("/title", "Team retreat")],
      ["find_then_delete.cards", [{ kind: "deleted", collection: "cards", id: DESIGN_CARD }]],
    ]);
  });

  it("says which shapes were not generated and why: withheld writes, no filter, no readable field", () => {
    expect(built.boards!.tasks.not_generated.map((s) => [s.subject, s.kind, s.reason, s.explain])).toEqual([
      [
        "POST /api/boards/{board_id}/archive",
        "update",
        "withheld_write",
        "the twin withholds this write (not_read_back), so no task may need it",
      ],
      [
        "POST /api/boards/{board_id}/cards",
        "create",
        "withheld_write",
        "the twin withholds this write (unexplained_field), so no task may need it",
      ],
      ["boards", "lookup", "no_readable_field", "boards has no readable field besides its name"],
      ["boards", "count", "no_learned_filter", "the recording confirmed no filter of boards"],
      ["boards", "list", "no_learned_filter", "the recording confirmed no filter of boards"],
      ["cards", "list", "no_learned_filter", "the recording confirmed no filter of cards"],
      ["comments", "list", "no_learned_filter", "the recording confirmed no filter of comments"],
    ]);
  });

  it("lists the not-generated shapes in the bundle's README", () => {
    const readme = text(built.boards!.bundle.files.get("README.md"));
    expect(readme).toContain("`tasks.json` holds 18 tasks");
    expect(readme).toContain(
      "| `POST /api/boards/{board_id}/cards` | create | withheld_write | the twin withholds this write (unexplained_field), so no task may need it |",
    );
    expect(readme).toContain(
      "| `boards` | count | no_learned_filter | the recording confirmed no filter of boards |",
    );
  });
});

describe("every generated prompt", () => {
  for (const app of ["items", "boards"]) {
    it(`${app}: names no tool, no id and no withheld capability`, () => {
      const { bundle, tasks } = built[app]!;
      const tools = [...bundle.model.endpoints.map((e) => e.tool_name)];
      const ids = Object.entries(bundle.model.collections).flatMap(([, c]) =>
        (
          JSON.parse(text(bundle.files.get("state.json"))).collections[c.name] as Record<string, unknown>[]
        ).map((e) => String(e[c.id_field])),
      );
      const withheld = bundle.model.endpoints.filter((e) => e.serving === "withheld");
      for (const t of tasks.tasks) {
        for (const tool of tools) expect(t.prompt, t.id).not.toContain(tool);
        for (const id of ids) expect(t.prompt, t.id).not.toMatch(new RegExp(`(^|[^\\w-])${id}([^\\w-]|$)`));
        for (const e of withheld) expect(t.prompt, t.id).not.toContain(e.template);
        expect(t.prompt, t.id).not.toMatch(/\b(GET|POST|PUT|PATCH|DELETE)\b|\/api\//);
        for (const call of t.oracle.calls) expect(withheld.map((e) => e.tool_name)).not.toContain(call.tool);
      }
    });
  }
});

describe("tasks.json bytes", () => {
  for (const app of ["items", "boards"]) {
    it(`${app}: two builds and a rebuild from the bundle's evidence.json give the same tasks.json`, () => {
      const { evidence, bundle } = built[app]!;
      const again = buildBundle({ evidence: [evidence] }).files.get("tasks.json")!;
      const own = parseEvidence(text(bundle.files.get("evidence.json")), "evidence.json");
      const rebuilt = buildBundle({ evidence: [own] }).files.get("tasks.json")!;
      expect(Buffer.from(again).equals(Buffer.from(bundle.files.get("tasks.json")!))).toBe(true);
      expect(Buffer.from(rebuilt).equals(Buffer.from(bundle.files.get("tasks.json")!))).toBe(true);
    });
  }
});
