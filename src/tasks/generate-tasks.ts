/**
 * Task generation: from a bundle's model, seed state and tools, the smoke
 * task, the retrieval tasks and the write tasks, each with its oracle, and
 * the list of task shapes not generated with the reason. Pure and
 * deterministic: the same model, seed and tools give the same tasks.json.
 */
import type { Model, SeedState } from "../model/model-schema.js";
import { type CollectionView, collectionViews, type EvalTool } from "./collection-view.js";
import { filterTasks, lookupTask, orderTasks } from "./retrieval-tasks.js";
import { smokeTask } from "./smoke-task.js";
import type { Generated } from "./task-parts.js";
import {
  type NotGenerated,
  TASK_KINDS,
  TASKS_SCHEMA_VERSION,
  type Task,
  type TasksFile,
} from "./task-schema.js";
import {
  createTasks,
  deleteTasks,
  findThenDeleteTask,
  findThenUpdateTask,
  servedWrites,
  updateTasks,
} from "./write-tasks.js";

const WRITE_KIND: Record<string, Task["kind"]> = {
  create: "create",
  update: "update",
  patch: "update",
  delete: "delete",
};

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Writes the twin does not serve from state: each is a task shape that could not be generated. */
function unservedWrites(model: Model): NotGenerated[] {
  const out: NotGenerated[] = [];
  for (const e of model.endpoints) {
    const method = e.method.toUpperCase();
    if (method === "GET" || method === "HEAD" || e.serving === "state") continue;
    const subject = `${method} ${e.template}`;
    const kind = WRITE_KIND[e.kind] ?? "update";
    const serving = e.serving as string;
    if (serving === "withheld") {
      const reason = (e.withheld as { reason?: string } | null)?.reason ?? "withheld";
      out.push({
        subject,
        kind,
        reason: "withheld_write",
        explain: `the twin withholds this write (${reason}), so no task may need it`,
      });
    } else if (serving === "acknowledged") {
      out.push({
        subject,
        kind,
        reason: "acknowledged_write",
        explain:
          "the twin answers this write as recorded but it has no visible effect on state, so no task can be graded on it",
      });
    } else {
      out.push({
        subject,
        kind,
        reason: "replayed_write",
        explain:
          "the twin answers this request by replaying the recording (a sign-in, or a request whose effect is not state), so no write task can be graded on it",
      });
    }
  }
  return out;
}

function tasksOf(view: CollectionView, writes: ReturnType<typeof servedWrites>): Generated[] {
  const w = writes.get(view.collection.name) ?? { rules: [] };
  return [
    lookupTask(view),
    filterTasks(view),
    orderTasks(view),
    createTasks(view, w),
    updateTasks(view, w),
    deleteTasks(view, w),
    findThenUpdateTask(view, w),
    findThenDeleteTask(view, w),
  ];
}

/** Gives every task a unique id: a repeated id gets `-2`, `-3`, … in generation order. */
function uniqueIds(tasks: Task[]): Task[] {
  const seen = new Map<string, number>();
  return tasks.map((t) => {
    const n = (seen.get(t.id) ?? 0) + 1;
    seen.set(t.id, n);
    return n === 1 ? t : { ...t, id: `${t.id}-${n}` };
  });
}

/** Every task of the bundle, with the shapes not generated and how graders name entities. */
export function generateTasks(model: Model, seed: SeedState, tools: EvalTool[]): TasksFile {
  const { views, unusable } = collectionViews(model, seed, tools);
  const writes = servedWrites(model, tools);
  const smoke = smokeTask(model, tools, views, seed);
  const tasks: Task[] = smoke.task ? [smoke.task] : [];
  const skipped: NotGenerated[] = [...smoke.skipped, ...unservedWrites(model)];
  for (const u of unusable)
    skipped.push({ subject: u.collection, kind: "lookup", reason: u.reason, explain: u.explain });
  for (const view of views) {
    for (const g of tasksOf(view, writes)) {
      tasks.push(...g.tasks);
      skipped.push(...g.skipped);
    }
  }
  const order = (t: Task) => TASK_KINDS.indexOf(t.kind);
  const sorted = uniqueIds(tasks).sort((a, b) => order(a) - order(b) || cmp(a.id, b.id));
  const notGenerated = [
    ...new Map(
      skipped.map((s) => [`${s.subject}\u0000${s.kind}\u0000${s.reason}\u0000${s.explain}`, s]),
    ).values(),
  ].sort(
    (a, b) =>
      cmp(a.subject, b.subject) ||
      TASK_KINDS.indexOf(a.kind) - TASK_KINDS.indexOf(b.kind) ||
      cmp(a.reason, b.reason) ||
      cmp(a.explain, b.explain),
  );
  return {
    schema_version: TASKS_SCHEMA_VERSION,
    tasks: sorted,
    not_generated: notGenerated,
    collections: model.collections
      .map((c) => {
        const view = views.find((v) => v.collection.name === c.name);
        return {
          name: c.name,
          singular: view?.singular ?? c.name,
          id_field: c.id_field,
          key: view?.key?.pointer ?? null,
        };
      })
      .sort((a, b) => cmp(a.name, b.name)),
  };
}
