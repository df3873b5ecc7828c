/** What each write-rule kind learns from one small recording: from_request, id sequences, clocks, uuids, path params, keep. */
import { describe, expect, it } from "vitest";
import { isoAt, type RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { fieldsOf, learnSpecs, list, T0 } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

describe("write rules", () => {
  it("learns from_request, id_sequence, clock (iso), constant and copy on a create", () => {
    const made = (id: number, title: string, at: number) => ({
      id,
      title,
      done: false,
      rank: id,
      at: isoAt(at),
    });
    const fields = fieldsOf(
      [
        list([{ id: 1, title: "A", done: false, rank: 1, at: "2026-01-01T00:00:00.000Z" }]),
        { method: "POST", path: "/api/things", status: 201, req: { title: "B" }, res: made(2, "B", 1) },
        { method: "POST", path: "/api/things", status: 201, req: { title: "C" }, res: made(3, "C", 2) },
        list([
          { id: 1, title: "A", done: false, rank: 1, at: "2026-01-01T00:00:00.000Z" },
          made(2, "B", 1),
          made(3, "C", 2),
        ]),
      ],
      "post_things",
    );
    expect(fields).toEqual({
      id: { kind: "id_sequence", start: 4, step: 1 },
      title: {
        kind: "from_request",
        pointer: "/title",
        otherwise: { kind: "constant", value: null, default: "unconfirmed" },
      },
      done: { kind: "constant", value: false },
      rank: { kind: "copy", from: "id" },
      at: { kind: "clock", format: "iso" },
    });
  });

  it("continues the id sequence after the highest id ever seen, deleted ones included", () => {
    const { model } = learnSpecs([
      list([
        { id: 1, title: "A" },
        { id: 9, title: "Z" },
      ]),
      list([{ id: 1, title: "A" }]),
      { method: "POST", path: "/api/things", status: 201, req: { title: "B" }, res: { id: 10, title: "B" } },
      list([
        { id: 1, title: "A" },
        { id: 10, title: "B" },
      ]),
    ]);
    expect(model.id_sequences).toEqual({ things: 11 });
  });

  it("learns uuid ids, epoch-s clocks and path params on a nested create", () => {
    const parent = "2b7e1516-28ae-4d2a-8f15-9cf4f3c0a1b2";
    const u = "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
    const at = Math.floor((T0 + 1000) / 1000);
    const fields = fieldsOf(
      [
        { path: `/api/groups/${parent}/members`, status: 200, res: [] },
        {
          method: "POST",
          path: `/api/groups/${parent}/members`,
          status: 201,
          req: { name: "Ann" },
          res: { uid: u, groupId: parent, name: "Ann", joined: at },
        },
        {
          path: `/api/groups/${parent}/members`,
          status: 200,
          res: [{ uid: u, groupId: parent, name: "Ann", joined: at }],
        },
      ],
      "post_groups_members_by_group_id",
    );
    expect(fields).toEqual({
      uid: { kind: "uuid" },
      groupId: { kind: "path_param", name: "group_id" },
      name: {
        kind: "from_request",
        pointer: "/name",
        otherwise: { kind: "constant", value: null, default: "unconfirmed" },
      },
      joined: { kind: "clock", format: "epoch_s" },
    });
  });

  it("learns from_request for body keys holding '%', '/' and '~' (pointers are RFC 6901, never URI-decoded)", () => {
    const keys = { "100%": "y", "a%20b": "z", "a/b~c": "w" };
    const fields = fieldsOf(
      [
        list([{ id: 1, title: "A", "100%": "x", "a%20b": "x", "a/b~c": "x" }]),
        { method: "POST", path: "/api/things", status: 201, req: { ...keys }, res: { id: 2, ...keys } },
        list([
          { id: 1, title: "A", "100%": "x", "a%20b": "x", "a/b~c": "x" },
          { id: 2, ...keys },
        ]),
      ],
      "post_things",
    );
    expect(fields["100%"]).toEqual({
      kind: "from_request",
      pointer: "/100%",
      otherwise: { kind: "omit" },
    });
    expect(fields["a%20b"]).toEqual({
      kind: "from_request",
      pointer: "/a%20b",
      otherwise: { kind: "omit" },
    });
    expect(fields["a/b~c"]).toEqual({
      kind: "from_request",
      pointer: "/a~1b~0c",
      otherwise: { kind: "omit" },
    });
  });

  it("learns keep and epoch-ms clocks on a patch, confirmed by an item read", () => {
    const before = { id: 1, title: "A", done: false, touched: T0 - 86_400_000 };
    const after = { ...before, done: true, touched: T0 + 2000 };
    const fields = fieldsOf(
      [
        { path: "/api/things/1", status: 200, res: before },
        list([before]),
        { method: "PATCH", path: "/api/things/1", status: 200, req: { done: true }, res: after },
        { path: "/api/things/1", status: 200, res: after },
      ],
      "patch_things_by_id",
    );
    expect(fields).toEqual({
      id: { kind: "keep" },
      title: { kind: "keep" },
      done: { kind: "from_request", pointer: "/done", otherwise: { kind: "keep" } },
      touched: { kind: "clock", format: "epoch_ms" },
    });
  });

  describe("a PUT that names only some fields", () => {
    const a = { id: 1, title: "A", done: false };
    const b = { id: 2, title: "B", done: false, owner: { id: 5 } };
    const put = (res: Record<string, unknown>): RecordSpec[] => [
      list([a, b]),
      { method: "PUT", path: "/api/things/1", status: 200, req: { title: "A2" }, res },
      { path: "/api/things/1", status: 200, res },
    ];
    const twin = (specs: RecordSpec[]) => {
      const { model, seed } = learnSpecs(specs);
      const ep = createEpisode(model, seed, { episodeId: "p" });
      const body = { kind: "json" as const, value: { title: "B2" } };
      handleRequest(model, ep, { method: "PUT", path: "/api/things/2", query: [], headers: {}, body });
      const read = handleRequest(model, ep, {
        method: "GET",
        path: "/api/things/2",
        query: [],
        headers: {},
        body: null,
      });
      return { kind: model.write_rules[0]!.kind, read: read.body };
    };

    it("is a partial update when every read-back kept each field the entity had: a field no recorded entity had is kept", () => {
      expect(twin(put({ ...a, title: "A2" }))).toEqual({
        kind: "merge",
        read: { kind: "json", value: { ...b, title: "B2" } },
      });
    });

    it("replaces the entity when a read-back shows a field it had dropped", () => {
      expect(twin(put({ id: 1, title: "A2" }))).toEqual({
        kind: "replace",
        read: { kind: "json", value: { id: 2, title: "B2" } },
      });
    });

    it("leaves undecided a PUT that always sent every field its entity held: one leaving out a held field is explained", () => {
      // Every recorded PUT sent title and done, all entity 1 held: no read-back shows a field kept or dropped.
      const specs: RecordSpec[] = [
        list([a, b]),
        {
          method: "PUT",
          path: "/api/things/1",
          status: 200,
          req: { title: "A2", done: true },
          res: { ...a, title: "A2", done: true },
        },
        { path: "/api/things/1", status: 200, res: { ...a, title: "A2", done: true } },
      ];
      const { model, seed } = learnSpecs(specs);
      expect(model.write_rules[0]).toMatchObject({ kind: "merge", unsent_undecided: true });
      const ep = createEpisode(model, seed, { episodeId: "u" });
      const send = (path: string, value: unknown) =>
        handleRequest(model, ep, {
          method: "PUT",
          path,
          query: [],
          headers: {},
          body: { kind: "json", value },
        });
      // Entity 2 holds owner, which the request leaves out: keep or drop was never shown.
      const left = send("/api/things/2", { title: "B2", done: true });
      expect([
        left.status,
        (left.body as { value: { error: string; fields: string[] } }).value,
      ]).toMatchObject([501, { error: "unsent_fields", fields: ["owner"] }]);
      // Sending every held field, both readings agree: served.
      expect(send("/api/things/2", { title: "B2", done: true, owner: { id: 5 } }).status).toBe(200);
    });

    it("decides nothing new where a read-back kept a field the PUT did not send: no flag", () => {
      const { model } = learnSpecs(put({ ...a, title: "A2" }));
      expect(model.write_rules[0]!.unsent_undecided).toBeUndefined();
    });
  });

  describe("a field every create sent, left out by a later request", () => {
    const seed = [
      { id: 1, name: "A", note: "Announcements" },
      { id: 2, name: "B", note: "" },
      { id: 3, name: "C", note: "" },
    ];
    const made = { id: 4, name: "D", note: "Meetups" };
    const specs = (things: Record<string, unknown>[]): RecordSpec[] => [
      list(things),
      { method: "POST", path: "/api/things", status: 201, req: { name: "D", note: "Meetups" }, res: made },
      { path: "/api/things/4", status: 200, res: made },
    ];

    it("defaults to the one empty value the entities no write touched hold", () => {
      expect(fieldsOf(specs(seed), "post_things").note).toEqual({
        kind: "from_request",
        pointer: "/note",
        otherwise: { kind: "constant", value: "" },
      });
    });

    it("is unconfirmed where the untouched entities hold two empty values or only false or 0 beside other values, and stays left out where one lacks the field", () => {
      // Every entity holds it (never dropped), yet no one empty value decides: the documented rule's null, labelled.
      const two = [seed[0]!, seed[1]!, { ...seed[2]!, note: null }];
      expect(fieldsOf(specs(two), "post_things").note).toEqual({
        kind: "from_request",
        pointer: "/note",
        otherwise: { kind: "constant", value: null, default: "unconfirmed" },
      });
      // false and 0 are values a user set (a todo not done), not the absence of one: no default is confirmed, and
      // values of two kinds (flags beside the created text) take the documented rule's null.
      const flags = [
        { ...seed[0]!, note: true },
        { ...seed[1]!, note: false },
        { ...seed[2]!, note: false },
      ];
      expect(fieldsOf(specs(flags), "post_things").note).toMatchObject({
        otherwise: { kind: "constant", value: null, default: "unconfirmed" },
      });
      const { note: _, ...bare } = seed[2]!;
      expect(fieldsOf(specs([seed[0]!, seed[1]!, bare]), "post_things").note).toMatchObject({
        otherwise: { kind: "omit" },
      });
    });
  });

  describe("a create's field the client left unset", () => {
    const create = (req: Record<string, unknown>, made: Record<string, unknown>): RecordSpec[] => [
      list([{ id: 1, name: "A", note: "", kind: "tag" }]),
      { method: "POST", path: "/api/things", status: 201, req, res: made },
      { path: `/api/things/${made.id}`, status: 200, res: made },
    ];

    it("is taken from a request that sends it when every answer gave it empty and no request sent it", () => {
      const fields = fieldsOf(
        create({ name: "B" }, { id: 2, name: "B", note: "", kind: "tag" }),
        "post_things",
      );
      expect([fields.note, fields.kind]).toEqual([
        { kind: "from_request", pointer: "/note", otherwise: { kind: "constant", value: "" } },
        // A value that is not empty is the app's, whatever a client might send.
        { kind: "constant", value: "tag" },
      ]);
    });

    it("stays the empty constant once a request sent it and the answer did not follow", () => {
      const fields = fieldsOf(
        create({ name: "B", note: "ignored" }, { id: 2, name: "B", note: "", kind: "tag" }),
        "post_things",
      );
      expect(fields.note).toEqual({ kind: "constant", value: "" });
    });
  });

  describe("a random-looking value every create gave alike", () => {
    const user = "5f0c6a2e-1b3d-4c5e-8f70-9a1b2c3d4e5f";
    const ids = ["0b6e4f1a-7c2d-4e3f-9a8b-1c2d3e4f5a6b", "9c8b7a6f-5e4d-4c3b-8a2f-1e0d9c8b7a6f"];
    const [seedId, other] = ["1d2c3b4a-5f6e-4d7c-8b9a-0f1e2d3c4b5a", "2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d"];
    const comments = (owners: string[]): RecordSpec[] => [
      { path: "/api/comments", status: 200, res: [{ id: seedId, text: "hi", user_created: other }] },
      ...owners.flatMap((owner, i): RecordSpec[] => {
        const made = { id: ids[i], text: `t${i}`, user_created: owner };
        return [
          { method: "POST", path: "/api/comments", status: 200, req: { text: `t${i}` }, res: made },
          { path: `/api/comments/${ids[i]}`, status: 200, res: made },
        ];
      }),
    ];

    it("is a constant (the signed-in user's id in every user_created), never a fresh UUID", () => {
      const fields = fieldsOf(comments([user, user]), "post_comments");
      expect([fields.id, fields.user_created]).toEqual([{ kind: "uuid" }, { kind: "constant", value: user }]);
    });

    it("stays a fresh UUID when it differs once, and is no constant when seen once", () => {
      expect(fieldsOf(comments([user, ids[1]!]), "post_comments").user_created).toEqual({ kind: "uuid" });
      expect(fieldsOf(comments([user]), "post_comments").user_created).toEqual({ kind: "uuid" });
    });
  });
});
