/**
 * Validations beyond a missing field (issue 10 item 7): a type error, null vs missing, out of range, a value taken
 * (uniqueness) and a stale revision, each learned only when the failed request differs from every success in that
 * one respect, and answered by the twin with the app's recorded status and body.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const product = (id: number, name: string, price: number, sku: string, note = "") => ({
  id,
  name,
  price,
  sku,
  note,
});
const products = (data: unknown[]): RecordSpec => ({ path: "/api/products", status: 200, res: data });
const pen = product(1, "Pen", 2, "PEN-1");
const ink = product(2, "Ink", 5, "INK-1", "black");
const pad = product(3, "Pad", 3, "PAD-1");
const post = (req: unknown, status: number, res: unknown): RecordSpec => ({
  method: "POST",
  path: "/api/products",
  status,
  req,
  res,
});
/** Two successes (one leaving `note` out), the failure, and the list after. */
const recording = (failure: unknown, status: number, answer: unknown): RecordSpec[] => [
  products([pen]),
  post({ name: "Ink", price: 5, sku: "INK-1", note: "black" }, 201, ink),
  post(failure, status, answer),
  post({ name: "Pad", price: 3, sku: "PAD-1" }, 201, pad),
  products([pen, ink, pad]),
];

function twin(specs: RecordSpec[]) {
  const { model, seed } = learnSpecs(specs);
  const ep = createEpisode(model, seed, { episodeId: "v" });
  return (value: unknown, method = "POST", path = "/api/products") => {
    const res = handleRequest(model, ep, {
      method,
      path,
      query: [],
      headers: {},
      body: { kind: "json", value },
    });
    return [res.status, res.body?.kind === "json" ? res.body.value : null];
  };
}
const kinds = (specs: RecordSpec[]) =>
  learnSpecs(specs).model.validations!.map((v) => [v.field, v.status, v.kind ?? "missing", v.explain]);

describe("validations beyond a missing field", () => {
  it("learns a type error (a string where every success sent a number) and answers it for any other type", () => {
    const specs = recording({ name: "Cup", price: "cheap", sku: "CUP-1" }, 422, {
      error: "price must be a number",
    });
    expect(kinds(specs)).toEqual([
      [
        "price",
        422,
        "type",
        'POST /api/products answers 422 with the recorded body when the request body sends "price" as another type than number (every successful request that sent it sent that; recorded at records[2]).',
      ],
    ]);
    const send = twin(specs);
    expect(send({ name: "Mug", price: true, sku: "MUG-1" })).toEqual([
      422,
      { error: "price must be a number" },
    ]);
    expect(send({ name: "Mug", price: 4, sku: "MUG-1" })[0]).toBe(201);
  });

  it("learns a field no success sent, refused with an answer naming it, and answers any body sending it so", () => {
    const refusal = { error: "must NOT have additional properties", info: { additionalProperty: "id" } };
    const specs = recording({ name: "Cup", price: 4, sku: "CUP-1", id: 50 }, 422, refusal);
    expect(kinds(specs)).toEqual([
      [
        "id",
        422,
        "sent",
        'POST /api/products answers 422 with the recorded body when the request body sends "id" at all (no successful request sent it, and the app\'s answer names it; recorded at records[2]).',
      ],
    ]);
    const send = twin(specs);
    expect(send({ name: "Mug", price: 4, sku: "MUG-1", id: 99 })).toEqual([422, refusal]);
    // Another field no success sent is no refusal the recording shows: an explained miss (unlearned-fields.ts).
    expect(send({ name: "Mug", price: 4, sku: "MUG-1", color: "red" })[0]).toBe(501);
    expect(send({ name: "Mug", price: 4, sku: "MUG-1" })[0]).toBe(201);
  });

  it("learns nothing from a field no success sent when the answer does not name it", () => {
    expect(
      kinds(recording({ name: "Cup", price: 4, sku: "CUP-1", id: 50 }, 422, { error: "invalid" })),
    ).toEqual([]);
  });

  it("reads a JSON pointer in the answer as naming its field (a validator's `path: /price`)", () => {
    // Two respects (price's type, and a field no success sent) narrowed to the one the answer points at.
    const answer = { details: [{ path: "/price", message: "must be number" }] };
    const specs = recording({ name: "Cup", price: "cheap", sku: "CUP-1", extra: 1 }, 422, answer);
    expect(kinds(specs).map((k) => k.slice(0, 3))).toEqual([["price", 422, "type"]]);
  });

  it("learns null apart from missing: null refused, the field left out still created", () => {
    const specs = recording({ name: "Cup", price: 4, sku: "CUP-1", note: null }, 400, {
      error: "note may not be null",
    });
    expect(kinds(specs).map((k) => k.slice(0, 3))).toEqual([["note", 400, "null"]]);
    const send = twin(specs);
    expect(send({ name: "Mug", price: 4, sku: "MUG-1", note: null })).toEqual([
      400,
      { error: "note may not be null" },
    ]);
    expect(send({ name: "Mug", price: 4, sku: "MUG-1" })[0]).toBe(201);
  });

  it("learns a number below every success's at the recorded value or lower, and says what it does not know", () => {
    const specs = recording({ name: "Cup", price: -1, sku: "CUP-1" }, 422, {
      error: "price must be at least 0",
    });
    expect(kinds(specs)).toEqual([
      [
        "price",
        422,
        "range",
        'POST /api/products answers 422 with the recorded body when the request body sends "price" -1 or lower (the lowest a successful request sent was 3; between them the recording does not tell; recorded at records[2]).',
      ],
    ]);
    const send = twin(specs);
    expect(send({ name: "Mug", price: -7, sku: "MUG-1" })[0]).toBe(422);
    // Between the refused -1 and the accepted 3 the recording shows nothing: the twin does not invent a bound there.
    expect(send({ name: "Mug", price: 0, sku: "MUG-1" })[0]).toBe(201);
  });

  it("learns a value an entity already holds (409) where no success sent a held one, and checks the episode's state", () => {
    const specs = recording({ name: "Cup", price: 4, sku: "PEN-1" }, 409, { error: "sku already exists" });
    expect(kinds(specs)).toEqual([
      [
        "sku",
        409,
        "unique",
        'POST /api/products answers 409 with the recorded body when the request body sends a "sku" another entity already holds (no successful request sent a held one; recorded at records[2]).',
      ],
    ]);
    const send = twin(specs);
    expect(send({ name: "Mug", price: 4, sku: "MUG-1" })[0]).toBe(201);
    // The value the twin's own create just stored is taken now.
    expect(send({ name: "Mug 2", price: 4, sku: "MUG-1" })).toEqual([409, { error: "sku already exists" }]);
  });

  it("refuses a failure that differs in two respects when its answer names neither, and a 409 about no field", () => {
    expect(kinds(recording({ name: "Cup", price: "x", sku: "PEN-1" }, 422, { error: "invalid" }))).toEqual(
      [],
    );
    // Every success sent a value no entity held, and so did the failure: the 409 is about something else.
    expect(kinds(recording({ name: "Cup", price: 4, sku: "CUP-1" }, 409, { error: "busy" }))).toEqual([]);
  });

  describe("a revision the app checks", () => {
    const doc = (rev: number, title: string) => ({ id: 1, title, rev });
    const put = (rev: number, title: string, status: number, res: unknown): RecordSpec => ({
      method: "PUT",
      path: "/api/docs/1",
      status,
      req: { title, rev },
      res,
    });
    const read = (d: unknown): RecordSpec => ({ path: "/api/docs/1", status: 200, res: d });
    const docs = { path: "/api/docs", status: 200, res: [doc(1, "Plan")] };

    it("learns the 409 of a stale rev (every success sent the one the entity held) and answers it from the state", () => {
      const specs: RecordSpec[] = [
        docs,
        put(1, "B", 200, doc(2, "B")),
        read(doc(2, "B")),
        put(1, "C", 409, { error: "conflict" }),
        put(2, "D", 200, doc(3, "D")),
        read(doc(3, "D")),
      ];
      expect(kinds(specs).map((k) => k.slice(0, 3))).toEqual([["rev", 409, "stale"]]);
      const send = twin(specs);
      expect(send({ title: "E", rev: 3 }, "PUT", "/api/docs/1")).toEqual([200, doc(4, "E")]);
      expect(send({ title: "F", rev: 3 }, "PUT", "/api/docs/1")).toEqual([409, { error: "conflict" }]);
    });

    it("refuses it when a success sent a rev other than the held one (the app does not check it)", () => {
      const specs: RecordSpec[] = [
        docs,
        put(7, "B", 200, doc(2, "B")),
        read(doc(2, "B")),
        put(1, "C", 409, { error: "conflict" }),
        read(doc(2, "B")),
      ];
      expect(kinds(specs)).toEqual([]);
    });
  });
});
