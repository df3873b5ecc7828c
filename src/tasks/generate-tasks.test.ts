import { describe, expect, it } from "vitest";
import { BOARDS_SEED_STATE, boardsModel } from "../../test/fixtures/models/boards-twin.js";
import { ITEMS_SEED_STATE, itemsModel } from "../../test/fixtures/models/items-twin.js";
import { endpoint } from "../../test/fixtures/models/model-builders.js";
import { toolsFromModel } from "../bundle/tool-definitions.js";
import type { Model } from "../model/model-schema.js";
import { generateTasks } from "./generate-tasks.js";

function tasksOf(model: Model, seed = ITEMS_SEED_STATE) {
  return generateTasks(model, seed, toolsFromModel(model));
}

const ids = (m: Model, seed = ITEMS_SEED_STATE) => tasksOf(m, seed).tasks.map((t) => t.id);

describe("generateTasks", () => {
  it("is pure: the same model, seed and tools give the same tasks, and the inputs are left as they were", () => {
    const model = itemsModel();
    const before = JSON.stringify([model, ITEMS_SEED_STATE]);
    expect(tasksOf(model)).toEqual(tasksOf(itemsModel()));
    expect(JSON.stringify([model, ITEMS_SEED_STATE])).toBe(before);
  });

  it("a filter kind it does not know is skipped with the reason, never guessed; other shapes stay", () => {
    const model = itemsModel();
    (model.collections[0]!.filters as unknown[]) = [{ param: "q", field: "title", kind: "contains" }];
    const file = tasksOf(model);
    expect(file.tasks.some((t) => t.kind === "count" || t.kind === "list")).toBe(false);
    expect(file.tasks.some((t) => t.kind === "lookup")).toBe(true);
    expect(file.not_generated).toContainEqual({
      subject: "items",
      kind: "count",
      reason: "unsupported_filter",
      explain: "the contains filter q has no task phrasing yet",
    });
  });

  it("an acknowledged write makes no task and is listed; the other served updates still do", () => {
    const model = itemsModel();
    (model.endpoints.find((e) => e.tool_name === "patch_items_by_id")!.serving as string) = "acknowledged";
    const file = tasksOf(model);
    expect(file.not_generated).toContainEqual({
      subject: "PATCH /api/items/{id}",
      kind: "update",
      reason: "acknowledged_write",
      explain:
        "the twin answers this write as recorded but it has no visible effect on state, so no task can be graded on it",
    });
    const tools = file.tasks.flatMap((t) => t.oracle.calls.map((c) => c.tool));
    expect(tools).not.toContain("patch_items_by_id");
    expect(file.tasks.find((t) => t.id === "update.items.done")!.oracle.calls.at(-1)!.tool).toBe(
      "put_items_by_id",
    );
  });

  it("a withheld write makes no task and is listed with its reason", () => {
    const model = itemsModel();
    const post = model.endpoints.find((e) => e.tool_name === "post_items")!;
    Object.assign(post, { serving: "withheld", withheld: { reason: "unexplained_field", hint: "h" } });
    expect(ids(model)).not.toContain("create.items");
    expect(tasksOf(model).not_generated).toContainEqual({
      subject: "POST /api/items",
      kind: "create",
      reason: "withheld_write",
      explain: "the twin withholds this write (unexplained_field), so no task may need it",
    });
  });

  it("a collection listed under a parameter that names no collection is skipped, saying why", () => {
    const model = boardsModel();
    const cards = model.collections.find((c) => c.name === "cards")!;
    cards.parent = { ...cards.parent!, collection: null };
    const file = generateTasks(model, BOARDS_SEED_STATE, toolsFromModel(model));
    expect(file.tasks.some((t) => t.id.includes(".cards"))).toBe(false);
    expect(file.not_generated).toContainEqual({
      subject: "cards",
      kind: "lookup",
      reason: "parent_not_collection",
      explain:
        "cards is listed under {board_id}, which names no collection of the recording, so a task could not say which one",
    });
  });

  it("a learned sort on a number orders latest/oldest by it", () => {
    const model = itemsModel();
    const seed = structuredClone(ITEMS_SEED_STATE);
    seed.collections.items!.forEach((e, i) => {
      e.priority = (i * 7) % 5;
    });
    model.collections[0]!.list_order = { kind: "field", field: "priority", direction: "desc" };
    const latest = tasksOf(model, seed).tasks.find((t) => t.kind === "latest")!;
    expect(latest.id).toBe("latest.items.priority");
    expect(latest.prompt).toBe("Which item has the highest priority? Reply with its title only.");
    expect(latest.answer).toEqual({ kind: "exact", value: "Call the plumber", accept: [] });
  });

  it("a lookup asks a field that tells entities apart before one every entity has the same value in", () => {
    const seed = structuredClone(ITEMS_SEED_STATE);
    for (const e of seed.collections.items!) e.kind = "task";
    const lookup = tasksOf(itemsModel(), seed).tasks.find((t) => t.kind === "lookup")!;
    expect(lookup.id).toBe("lookup.items.done");
  });

  describe("a filter on a field that refers to another collection names the entity, never its id", () => {
    /** Items with an owner (1 or 2) listed by `?owner=`, and the owners collection its values are ids of. */
    function withOwners(field: string, links: boolean) {
      const model = itemsModel();
      model.endpoints.push(
        endpoint({
          tool_name: "get_owners",
          method: "GET",
          template: "/api/owners",
          kind: "list",
          collection: "owners",
          serving: "state",
        }),
        endpoint({
          tool_name: "get_owners_by_id",
          method: "GET",
          template: "/api/owners/{id}",
          kind: "item",
          collection: "owners",
          serving: "state",
        }),
      );
      model.collections.push({
        ...model.collections[0]!,
        name: "owners",
        list_endpoint: "get_owners",
        item_endpoint: "get_owners_by_id",
        envelope: { kind: "bare" },
        filters: [],
        explain: "owners",
      });
      model.collections[0]!.filters = [{ param: field, field, kind: "equals" }];
      const seed = structuredClone(ITEMS_SEED_STATE);
      seed.collections.owners = [
        { id: 1, name: "Ana Ruiz" },
        { id: 2, name: "Bo Chen" },
      ];
      seed.collections.items!.forEach((e, i) => {
        e[field] = i % 3 === 1 ? 2 : 1;
        if (links) e._links = { [field]: [{ href: `http://127.0.0.1:4010/api/owners/${e[field]}` }] };
      });
      return tasksOf(model, seed).tasks;
    }

    it("confirmed by a link to the entity's item path under the field's name", () => {
      const tasks = withOwners("assignee", true);
      const count = tasks.find((t) => t.id === "count.items.assignee")!;
      expect(count.prompt).toBe("How many items have the assignee “Ana Ruiz”? Reply with the number only.");
      expect(count.answer).toEqual({ kind: "numeric", value: 3 });
      // The oracle finds the owner's id by listing the owners, then filters by it.
      expect(count.oracle.calls).toEqual([
        { tool: "get_owners", arguments: {} },
        { tool: "get_items", arguments: { assignee: "1" } },
      ]);
      // Its value is an id, so no lookup asks for it.
      expect(tasks.some((t) => t.kind === "lookup" && t.id.endsWith(".assignee"))).toBe(false);
      expect(tasks.find((t) => t.id === "list.items.assignee")!.prompt).toBe(
        "Which items have the assignee “Bo Chen”? Reply with the title of each, one per line.",
      );
    });

    it("confirmed by a field named after the collection (owner_id → owners)", () => {
      expect(withOwners("owner_id", false).find((t) => t.id === "count.items.owner_id")!.prompt).toBe(
        "How many items belong to the owner “Ana Ruiz”? Reply with the number only.",
      );
    });

    it("unconfirmed (another name, no link): the value as the entities show it", () => {
      expect(withOwners("assignee", false).find((t) => t.id === "count.items.assignee")!.prompt).toBe(
        "How many items have the assignee 1? Reply with the number only.",
      );
    });
  });
});
