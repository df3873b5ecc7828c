/**
 * Uniqueness and blank refusals as real apps answer them (issue 10 item 7): a wrapped body's field
 * (`{project: {identifier}}`), a refusal two fields explain told apart only by the message naming one, the clashing
 * entity's id echoed in the answer (`term_id`), and letter case ignored only where a refusal shows it.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

function twin(specs: RecordSpec[], path: string) {
  const { model, seed } = learnSpecs(specs);
  const ep = createEpisode(model, seed, { episodeId: "u" });
  return (value: unknown) => {
    const res = handleRequest(model, ep, {
      method: "POST",
      path,
      query: [],
      headers: {},
      body: { kind: "json", value },
    });
    return [res.status, res.body?.kind === "json" ? res.body.value : null];
  };
}
const rules = (specs: RecordSpec[]) =>
  (learnSpecs(specs).model.validations ?? []).map((v) => ({
    field: v.field,
    kind: v.kind ?? "missing",
    status: v.status,
    ...(v.entity_field ? { entity_field: v.entity_field } : {}),
    ...(v.ignore_case ? { ignore_case: true } : {}),
    ...(v.clash ? { clash: v.clash } : {}),
  }));

describe("a wrapped create refused for a value another entity holds", () => {
  const project = (id: number, name: string, identifier: string) => ({ id, name, identifier });
  const list = (...ps: unknown[]): RecordSpec => ({
    path: "/api/projects",
    status: 200,
    res: { projects: ps },
  });
  const create = (req: unknown, status: number, res: unknown): RecordSpec => ({
    method: "POST",
    path: "/api/projects",
    status,
    req: { project: req },
    res,
  });
  const web = project(1, "Web", "web");
  const docs = project(2, "Docs", "docs");
  const taken = { errors: ["Identifier has already been taken"] };
  /** A success sending a description, then a refusal lacking it and sending a taken identifier. */
  const recording = (answer: unknown): RecordSpec[] => [
    list(web),
    create({ name: "Docs", identifier: "docs", description: "d" }, 201, { project: docs }),
    list(web, docs),
    create({ name: "Docs2", identifier: "docs" }, 422, answer),
    list(web, docs),
  ];

  it("learns the identifier (the message names it of the two respects it differs in) and checks the state", () => {
    expect(rules(recording(taken))).toEqual([
      { field: "project.identifier", kind: "unique", status: 422, entity_field: "identifier" },
    ]);
    const send = twin(recording(taken), "/api/projects");
    expect(send({ project: { name: "W2", identifier: "web", description: "x" } })).toEqual([422, taken]);
    expect(send({ project: { name: "QA", identifier: "qa", description: "q" } })[0]).toBe(201);
    // The twin's own create took the value: now it is refused too.
    expect(send({ project: { name: "QA2", identifier: "qa", description: "q" } })).toEqual([422, taken]);
  });

  it("attributes the refusal to no field when the message names neither respect, or both", () => {
    expect(rules(recording({ errors: ["Project is invalid"] }))).toEqual([]);
    expect(rules(recording({ errors: ["Identifier is taken", "Description cannot be blank"] }))).toEqual([]);
  });
});

describe("a refusal of a blank field among two a success sent", () => {
  const entry = (id: number, hours: number) => ({ id, hours, spent_on: "2024-03-04" });
  const list = (...es: unknown[]): RecordSpec => ({ path: "/api/entries", status: 200, res: es });
  const create = (req: unknown, status: number, res: unknown): RecordSpec => ({
    method: "POST",
    path: "/api/entries",
    status,
    req,
    res,
  });
  const recording = (answer: unknown): RecordSpec[] => [
    list(),
    create({ hours: 1.5, spent_on: "2024-03-04" }, 201, entry(1, 1.5)),
    list(entry(1, 1.5)),
    create({ note: "x" }, 422, answer),
    list(entry(1, 1.5)),
  ];

  it("learns the one the message mentions as a word, whatever its case", () => {
    expect(rules(recording({ errors: ["Hours cannot be blank"] }))).toEqual([
      { field: "hours", kind: "missing", status: 422 },
    ]);
  });

  it("learns neither when the message mentions neither as a word (`Hoursly` is not `hours`)", () => {
    expect(rules(recording({ errors: ["Hoursly rate cannot be blank"] }))).toEqual([]);
  });
});

describe("a refusal echoing the entity the value clashed with", () => {
  const tag = (id: number, name: string) => ({ id, name, count: 0 });
  const list = (...ts: unknown[]): RecordSpec => ({ path: "/api/tags", status: 200, res: ts });
  const create = (req: unknown, status: number, res: unknown): RecordSpec => ({
    method: "POST",
    path: "/api/tags",
    status,
    req,
    res,
  });
  const exists = (id: number, extra = 7) => ({
    code: "term_exists",
    data: { status: 400, term_id: id, extra },
  });
  const recording = (answer: unknown, refused = "howto"): RecordSpec[] => [
    list(tag(4, "release"), tag(5, "howto")),
    create({ name: "perf" }, 201, tag(6, "perf")),
    list(tag(4, "release"), tag(5, "howto"), tag(6, "perf")),
    create({ name: refused }, 400, answer),
    list(tag(4, "release"), tag(5, "howto"), tag(6, "perf")),
  ];

  it("fills the clashing entity's id where every refusal echoed its own", () => {
    expect(rules(recording(exists(5)))).toEqual([
      { field: "name", kind: "unique", status: 400, clash: ["/data/term_id"] },
    ]);
    const send = twin(recording(exists(5)), "/api/tags");
    expect(send({ name: "release" })).toEqual([400, exists(4)]);
    expect(send({ name: "howto" })).toEqual([400, exists(5)]);
  });

  it("replays a number that is not the clashing entity's id as recorded", () => {
    // 4 is another tag's id, not the one `howto` clashed with: no clash reference, the body as the app answered.
    expect(rules(recording(exists(4)))).toEqual([{ field: "name", kind: "unique", status: 400 }]);
    expect(twin(recording(exists(4)), "/api/tags")({ name: "howto" })).toEqual([400, exists(4)]);
  });

  it("ignores letter case only where the refused value matched an entity that way", () => {
    expect(rules(recording(exists(5), "HowTo"))).toEqual([
      { field: "name", kind: "unique", status: 400, ignore_case: true, clash: ["/data/term_id"] },
    ]);
    const send = twin(recording(exists(5), "HowTo"), "/api/tags");
    expect(send({ name: "RELEASE" })).toEqual([400, exists(4)]);
    // An exact clash learns an exact comparison: another case is no clash the recording shows.
    expect(twin(recording(exists(5)), "/api/tags")({ name: "RELEASE" })[0]).toBe(201);
  });

  it("learns no case-blind rule when a success sent a value matching an entity but for its case", () => {
    const specs: RecordSpec[] = [
      list(tag(4, "release"), tag(5, "howto")),
      create({ name: "Release" }, 201, tag(6, "Release")),
      list(tag(4, "release"), tag(5, "howto"), tag(6, "Release")),
      create({ name: "HowTo" }, 400, exists(5)),
      list(tag(4, "release"), tag(5, "howto"), tag(6, "Release")),
    ];
    expect(rules(specs)).toEqual([]);
  });
});
