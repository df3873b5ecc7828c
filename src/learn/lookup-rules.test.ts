/**
 * Values of the entity another collection holds under an id the written entity names: a reference object's
 * other keys (`project: {id, name}`), and a string built from the named entity (a comment's post's link). Never a
 * number that merely happens to be some entity's id.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const projects = [
  { id: 1, name: "Website", url: "/p/website/" },
  { id: 2, name: "Mobile", url: "/p/mobile/" },
];
const issue = (id: number, project: number, subject: string) => ({
  id,
  project: { id: project, name: projects[project - 1]!.name },
  subject,
  link: `${projects[project - 1]!.url}#issue-${id}`,
});
const specs = (...made: [number, number, string][]): RecordSpec[] => [
  { path: "/api/projects", status: 200, res: projects },
  { path: "/api/issues", status: 200, res: [issue(1, 1, "A")] },
  ...made.flatMap(([id, project, subject]): RecordSpec[] => [
    {
      method: "POST",
      path: "/api/issues",
      status: 201,
      req: { issue: { project_id: project, subject } },
      res: issue(id, project, subject),
    },
    { path: `/api/issues/${id}`, status: 200, res: issue(id, project, subject) },
  ]),
];

describe("lookups into the collection an entity names", () => {
  it("learns a reference object's name and a link from the named entity, and serves them for another one", () => {
    const { model, seed } = learnSpecs(specs([2, 1, "B"]));
    const rule = model.write_rules.find((r) => r.tool_name === "post_issues")!;
    const byField = Object.fromEntries(rule.fields.map((f) => [f.field, f.rule]));
    expect(byField.project).toEqual({
      kind: "object",
      fields: [
        {
          field: "id",
          rule: { kind: "from_request", pointer: "/issue/project_id", otherwise: { kind: "omit" } },
        },
        {
          field: "name",
          rule: { kind: "lookup", collection: "projects", key: "/project/id", pointer: "/name" },
        },
      ],
    });
    expect(byField.link).toEqual({
      kind: "format",
      parts: [
        { lookup: "projects", key: "/project/id", pointer: "/url" },
        { text: "#issue-" },
        { entity: "/id" },
      ],
      otherwise: { kind: "omit" },
    });
    const ep = createEpisode(model, seed, { episodeId: "l" });
    const made = handleRequest(model, ep, {
      method: "POST",
      path: "/api/issues",
      query: [],
      headers: {},
      body: { kind: "json", value: { issue: { project_id: 2, subject: "C" } } },
    });
    expect(made.body).toEqual({ kind: "json", value: issue(3, 2, "C") });
  });

  it("never follows a number that is some entity's id by coincidence", () => {
    const { model } = learnSpecs([
      { path: "/api/projects", status: 200, res: projects },
      { path: "/api/notes", status: 200, res: [{ id: 7, rank: 1, text: "w", label: "Mobile" }] },
      {
        method: "POST",
        path: "/api/notes",
        status: 201,
        req: { rank: 2, text: "x" },
        res: { id: 8, rank: 2, text: "x", label: "Mobile" },
      },
      { path: "/api/notes/8", status: 200, res: { id: 8, rank: 2, text: "x", label: "Mobile" } },
    ]);
    const rule = model.write_rules.find((r) => r.tool_name === "post_notes")!;
    expect(rule.fields.find((f) => f.field === "label")!.rule).toEqual({ kind: "constant", value: "Mobile" });
  });
  it("takes, of two values that build a link in one create, the one that builds it in every create", () => {
    // Project 1's home and url are the same text: only the create on project 2 tells which one the link follows.
    const sites = [
      { id: 1, name: "Website", home: "/p/website/", url: "/p/website/" },
      { id: 2, name: "Mobile", home: "/h/mobile/", url: "/p/mobile/" },
    ];
    const made = (id: number, project: number) => ({
      id,
      project: { id: project },
      subject: `S${id}`,
      link: `${sites[project - 1]!.url}#issue-${id}`,
    });
    const create = (id: number, project: number): RecordSpec[] => [
      {
        method: "POST",
        path: "/api/issues",
        status: 201,
        req: { issue: { project_id: project, subject: `S${id}` } },
        res: made(id, project),
      },
      { path: `/api/issues/${id}`, status: 200, res: made(id, project) },
    ];
    const { model } = learnSpecs([
      { path: "/api/projects", status: 200, res: sites },
      { path: "/api/issues", status: 200, res: [made(1, 1)] },
      ...create(2, 1),
      ...create(3, 2),
    ]);
    const rule = model.write_rules.find((r) => r.tool_name === "post_issues")!;
    expect(rule.fields.find((f) => f.field === "link")?.rule).toEqual({
      kind: "format",
      parts: [
        { lookup: "projects", key: "/project/id", pointer: "/url" },
        { text: "#issue-" },
        { entity: "/id" },
      ],
      otherwise: { kind: "omit" },
    });
  });
  it("never serves a counter-like value as a lookup it merely equals in the only create (a comment's author = its post's)", () => {
    const posts = [
      { id: 4, title: "P", author: 1 },
      { id: 5, title: "Q", author: 2 },
    ];
    const seed = { id: 1, post: 4, author: 0, text: "first" };
    const made = { id: 2, post: 4, author: 1, text: "second" };
    const { coverage } = learnSpecs([
      { path: "/api/posts", status: 200, res: posts },
      { path: "/api/comments", status: 200, res: [seed] },
      { method: "POST", path: "/api/comments", status: 201, req: { post: 4, text: "second" }, res: made },
      { path: "/api/comments", status: 200, res: [seed, made] },
    ]);
    expect(coverage.writes.withheld.map((w) => [w.tool_name, w.reason, w.closable])).toEqual([
      ["post_comments", "unexplained_field", true],
    ]);
  });

  describe("a reference object the app filled in (a default, or a value no request key is named for)", () => {
    const kinds = [
      { id: 1, name: "Bug" },
      { id: 2, name: "Feature" },
    ];
    const levels = [
      { id: 1, name: "Low" },
      { id: 2, name: "Normal" },
      { id: 3, name: "High" },
    ];
    const ticket = (id: number, project: number, kind: number, level: number, state: number) => ({
      id,
      project: { id: project, name: projects[project - 1]!.name },
      kind: { id: kind, name: kinds[kind - 1]!.name },
      level: { id: level, name: levels[level - 1]!.name },
      state: { id: state },
    });
    const reads: RecordSpec[] = [
      { path: "/api/projects", status: 200, res: projects },
      { path: "/api/kinds", status: 200, res: kinds },
      { path: "/api/levels", status: 200, res: levels },
      { path: "/api/tickets", status: 200, res: [ticket(1, 2, 2, 1, 2)] },
    ];
    const create = (
      id: number,
      req: Record<string, number>,
      made: ReturnType<typeof ticket>,
    ): RecordSpec[] => [
      { method: "POST", path: "/api/tickets", status: 201, req: { ticket: req }, res: made },
      { path: `/api/tickets/${id}`, status: 200, res: made },
    ];
    const fieldsOf = (specs: RecordSpec[]) => {
      const rule = learnSpecs(specs).model.write_rules.find((r) => r.tool_name === "post_tickets")!;
      return Object.fromEntries(rule.fields.map((f) => [f.field, f.rule]));
    };

    it("follows the `<object>_id` the request sent, looks the name up even where the app chose the id, and keeps a value that only equalled another key a constant", () => {
      const byField = fieldsOf([
        ...reads,
        ...create(2, { project_id: 1, kind_id: 1, level_id: 3 }, ticket(2, 1, 1, 3, 1)),
        ...create(3, { project_id: 1 }, ticket(3, 1, 1, 2, 1)),
      ]);
      expect(byField.kind).toEqual({
        kind: "object",
        fields: [
          {
            field: "id",
            rule: {
              kind: "from_request",
              pointer: "/ticket/kind_id",
              otherwise: { kind: "constant", value: 1 },
            },
          },
          { field: "name", rule: { kind: "lookup", collection: "kinds", key: "/kind/id", pointer: "/name" } },
        ],
      });
      // The app's default level (2) when none is sent: its name is still the level's, not the constant "Normal".
      expect(byField.level).toEqual({
        kind: "object",
        fields: [
          {
            field: "id",
            rule: {
              kind: "from_request",
              pointer: "/ticket/level_id",
              otherwise: { kind: "constant", value: 2 },
            },
          },
          {
            field: "name",
            rule: { kind: "lookup", collection: "levels", key: "/level/id", pointer: "/name" },
          },
        ],
      });
      // `state.id` was 1 as `project_id` was, in every create: that never makes it a copy of the project.
      expect(byField.state).toEqual({ kind: "constant", value: { id: 1 } });
    });

    it("takes a value from a request key of another name once the key varied and the value followed", () => {
      const byField = fieldsOf([
        ...reads,
        ...create(2, { project_id: 1 }, ticket(2, 1, 1, 2, 1)),
        ...create(3, { project_id: 2 }, ticket(3, 2, 1, 2, 2)),
      ]);
      expect(byField.state).toEqual({
        kind: "object",
        fields: [
          {
            field: "id",
            rule: { kind: "from_request", pointer: "/ticket/project_id", otherwise: { kind: "omit" } },
          },
        ],
      });
    });
  });
});
