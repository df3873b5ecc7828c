/** Validations learned from a recorded failure, and never generalised beyond it. */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, list } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

describe("validation failures confirmed by a recorded failure", () => {
  const thing = (id: number, title: string) => ({ id, title, status: "open" });
  const specs = (failReq: unknown, failRes: unknown): RecordSpec[] => [
    list([thing(1, "A")]),
    {
      method: "POST",
      path: "/api/things",
      status: 201,
      req: { title: "B", status: "open" },
      res: thing(2, "B"),
    },
    { method: "POST", path: "/api/things", status: 422, req: failReq, res: failRes },
    list([thing(1, "A"), thing(2, "B")]),
  ];

  it("learns the recorded 422 for a request blank in a field every success sent, named by the answer", () => {
    const { model, coverage } = learnSpecs(
      specs({ title: "  " }, { message: "title is required", field: "title" }),
    );
    expect(model.validations).toEqual([
      {
        tool_name: "post_things",
        field: "title",
        pointer: "/title",
        status: 422,
        content_type: "application/json; charset=utf-8",
        body: { message: "title is required", field: "title" },
        explain:
          'POST /api/things answers 422 with the recorded body when the request body lacks "title" or leaves it blank (every successful request sent it; recorded at records[2]).',
      },
    ]);
    expect(coverage.validations).toEqual([
      {
        tool_name: "post_things",
        method: "POST",
        template: "/api/things",
        field: "title",
        kind: "missing",
        status: 422,
        explain: model.validations![0]!.explain,
      },
    ]);
  });

  it("learns nothing when the failed request lacks several such fields and the answer names none", () => {
    const { model, coverage } = learnSpecs(specs({}, { error: "invalid" }));
    expect(model.validations).toEqual([]);
    expect(coverage.validations).toEqual([]);
    expect(coverage.warnings.map((w) => w.code)).toEqual(["failed_write"]);
  });

  it("learns nothing from a failure that is not about a missing field (every such field was sent)", () => {
    const { model } = learnSpecs(specs({ title: "C", status: "bogus" }, { message: "bad status" }));
    expect(model.validations).toEqual([]);
  });

  it("learns nothing from an auth or not-found failure", () => {
    const { model } = learnSpecs(
      specs({ title: "" }, { message: "title" }).map((s) => (s.status === 422 ? { ...s, status: 401 } : s)),
    );
    expect(model.validations).toEqual([]);
  });
});

describe("generalisations that must not outrun the evidence", () => {
  const thing = (id: number, title: string, status = "open") => ({ id, title, status });
  const twin = (specs: RecordSpec[]) => {
    const { model, seed } = learnSpecs(specs);
    const ep = createEpisode(model, seed, { episodeId: "g" });
    return (method: string, path: string, value: unknown) =>
      handleRequest(model, ep, {
        method,
        path,
        query: [],
        headers: {},
        body: { kind: "json", value },
      });
  };

  it("does not blame a field the failure lacked when its answer names another field it sent", () => {
    const { model } = learnSpecs([
      list([thing(1, "A")]),
      {
        method: "POST",
        path: "/api/things",
        status: 201,
        req: { title: "B", status: "open" },
        res: thing(2, "B"),
      },
      {
        method: "POST",
        path: "/api/things",
        status: 422,
        req: { status: "bogus" },
        res: { message: "status must be open or done", field: "status" },
      },
      list([thing(1, "A"), thing(2, "B")]),
    ]);
    expect(model.validations).toEqual([]);
  });

  it("on a PATCH learns a failure only from a field sent blank, and never answers it to a PATCH that leaves the field out", () => {
    const done = thing(1, "A", "done");
    const specs: RecordSpec[] = [
      list([thing(1, "A")]),
      { method: "POST", path: "/api/things", status: 201, req: { title: "B" }, res: thing(2, "B") },
      list([thing(1, "A"), thing(2, "B")]),
      { method: "PATCH", path: "/api/things/1", status: 200, req: { status: "done" }, res: done },
      { path: "/api/things/1", status: 200, res: done },
      {
        method: "PATCH",
        path: "/api/things/1",
        status: 422,
        req: { status: null },
        res: { message: "status is required", field: "status" },
      },
    ];
    const { model } = learnSpecs(specs);
    expect(
      model.validations!.map((v) => [v.tool_name, v.field, v.status, v.only_when_sent, v.explain]),
    ).toEqual([
      [
        "patch_things_by_id",
        "status",
        422,
        true,
        'PATCH /api/things/{id} answers 422 with the recorded body when the request body sends "status" null or blank (a partial update may leave it out; recorded at records[5]).',
      ],
    ]);
    const send = twin(specs);
    const renamed = send("PATCH", "/api/things/1", { title: "Z" });
    expect([renamed.status, renamed.served_by, renamed.body]).toEqual([
      200,
      "state",
      { kind: "json", value: thing(1, "Z", "done") },
    ]);
    expect(send("PATCH", "/api/things/1", { status: " " }).status).toBe(422);
    // An empty PATCH refused for being empty says nothing about `status`.
    const empty: RecordSpec = { ...specs[5]!, status: 400, req: {}, res: { error: "nothing to update" } };
    expect(learnSpecs([...specs.slice(0, 5), empty]).model.validations).toEqual([]);
  });

  it("learns a field of a wrapped body (`{thing: {title}}`) left blank, and answers the recording's failure to it", () => {
    const wrapped = (title: string, extra: Record<string, unknown> = {}) => ({ thing: { title, ...extra } });
    const specs: RecordSpec[] = [
      list([thing(1, "A")]),
      {
        method: "POST",
        path: "/api/things",
        status: 201,
        req: wrapped("B", { rank: 1 }),
        res: thing(2, "B"),
      },
      { method: "POST", path: "/api/things", status: 201, req: wrapped("C"), res: thing(3, "C") },
      list([thing(1, "A"), thing(2, "B"), thing(3, "C")]),
      {
        method: "POST",
        path: "/api/things",
        status: 422,
        req: wrapped(""),
        res: { errors: ["Title cannot be blank"] },
      },
    ];
    const { model } = learnSpecs(specs);
    expect(model.validations!.map((v) => [v.field, v.pointer, v.status, v.explain])).toEqual([
      [
        "thing.title",
        "/thing/title",
        422,
        'POST /api/things answers 422 with the recorded body when the request body lacks "thing.title" or leaves it blank (every successful request sent it; recorded at records[4]).',
      ],
    ]);
    const send = twin(specs);
    const refused = send("POST", "/api/things", { thing: { rank: 2 } });
    expect([refused.status, refused.body]).toEqual([
      422,
      { kind: "json", value: { errors: ["Title cannot be blank"] } },
    ]);
    expect(send("POST", "/api/things", wrapped("D")).status).toBe(201);
    // A failure that sent every required field non-blank is about something else: here the one respect it differs
    // in is the type of `thing.rank` (a string where the success sent a number), which is that field's rule.
    const other: RecordSpec = {
      ...specs[4]!,
      req: wrapped("E", { rank: "x" }),
      res: { errors: ["Rank is invalid"] },
    };
    expect(
      learnSpecs([...specs.slice(0, 4), other]).model.validations!.map((v) => [v.pointer, v.kind, v.types]),
    ).toEqual([["/thing/rank", "type", ["number"]]]);
  });

  it("marks in the request schema only the field the app refused a request without (the tool's required input)", () => {
    const specs: RecordSpec[] = [
      list([thing(1, "A")]),
      {
        method: "POST",
        path: "/api/things",
        status: 201,
        req: { title: "B", note: "n" },
        res: thing(2, "B"),
      },
      { method: "POST", path: "/api/things", status: 201, req: { title: "C" }, res: thing(3, "C") },
      list([thing(1, "A"), thing(2, "B"), thing(3, "C")]),
      { method: "POST", path: "/api/things", status: 422, req: { note: "x" }, res: { missing: "title" } },
    ];
    const required = (s: RecordSpec[]) =>
      (
        learnSpecs(s).model.endpoints.find((e) => e.tool_name === "post_things")!.request_schema as {
          required: string[];
        }
      ).required;
    // `title`, which the failure lacked; never `note`, which one success left out.
    expect(required(specs)).toEqual(["title"]);
    // A refusal for another reason (401) proves nothing required: the schema is what the requests show.
    expect(required(specs.map((s) => (s.status === 422 ? { ...s, status: 401 } : s)))).toEqual([]);
  });
});
