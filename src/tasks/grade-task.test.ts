import { describe, expect, it } from "vitest";
import { gradeTask } from "./grade-task.js";
import type { Task } from "./task-schema.js";

const smoke: Task = {
  id: "smoke",
  kind: "smoke",
  category: "smoke",
  prompt: "Environment check",
  answer: null,
  expected: { changes: [] },
  checks: [
    {
      call: 0,
      status: 200,
      schema: {
        type: "object",
        properties: {
          data: { type: "array", items: { type: "object", properties: { done: { type: "boolean" } } } },
        },
        required: ["data", "total"],
      },
    },
    { call: 1, status: 200, body: [{ title: "Launch" }] },
  ],
  oracle: {
    calls: [
      { tool: "get_items", arguments: {} },
      { tool: "get_search", arguments: { q: "launch" } },
    ],
    answer: null,
  },
  explain: "",
};

const call = (tool: string, status: number | null, body: unknown, error: string | null = null) => ({
  tool,
  status,
  body,
  error,
});

describe("gradeTask: the smoke task", () => {
  it("passes reads that answer the recorded status with bodies of the recorded types (a missing field is fidelity's to judge)", () => {
    const calls = [
      call("get_items", 200, { data: [{ done: true }] }),
      call("get_search", 200, [{ title: "Launch" }]),
    ];
    expect(gradeTask(smoke, { changes: [], answer: null, calls }, [])).toEqual({ passed: true, reasons: [] });
  });

  it("names the tool and what differed: status, a value's type, the recorded body, a failed call", () => {
    const calls = [
      call("get_items", 200, { data: [{ done: "yes" }] }),
      call("get_search", 200, [{ title: "Lunch" }]),
    ];
    expect(gradeTask(smoke, { changes: [], answer: null, calls }, []).reasons).toEqual([
      "get_items answered a body unlike the recorded ones: /data/0/done is string; the recording has boolean",
      "get_search answered a body other than the recorded one (first difference at /0/title)",
    ]);
    const failed = [
      call("get_items", 404, { error: "no_route" }),
      call("get_search", null, null, "Unknown tool"),
    ];
    expect(gradeTask(smoke, { changes: [], answer: null, calls: failed }, []).reasons).toEqual([
      "get_items answered 404; the recording answered 200",
      "get_search failed: Unknown tool",
    ]);
  });

  it("cannot be graded without the oracle's calls, and a read that changed state is collateral damage", () => {
    const change = {
      collection: "items",
      id: "3",
      kind: "deleted" as const,
      before: { id: 3, title: "Call" },
    };
    const labels = [{ name: "items", singular: "item", id_field: "id", key: "/title" }];
    expect(gradeTask(smoke, { changes: [change], answer: null }, labels).reasons).toEqual([
      "the smoke task is graded on its oracle's own calls; run it with apptwin eval, not an agent",
      "collateral damage: item 3 (“Call”) was deleted, and the task only asks a question",
    ]);
  });
});
