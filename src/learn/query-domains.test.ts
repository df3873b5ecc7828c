import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";

const things = [5, 4, 3, 2, 1].map((id) => ({ id, title: `T${id}`, cat: [id % 2 === 0 ? 2 : 3] }));
const evens = things.filter((t) => t.cat[0] === 2);
const badType = {
  code: "rest_invalid_param",
  message: "Invalid parameter(s): cat",
  data: { status: 400, params: { cat: "cat[0] is not of type integer." } },
};
const badSize = {
  code: "rest_invalid_param",
  message: "Invalid parameter(s): per_page",
  data: { status: 400, params: { per_page: "per_page must be between 1 (inclusive) and 100 (inclusive)" } },
};
const badPage = {
  code: "rest_post_invalid_page_number",
  message: "The page number is too large.",
  data: { status: 400 },
};

const read = (q: string, res: unknown, status = 200): RecordSpec => ({
  path: `/api/things?${q}`,
  status,
  res,
});
const accepted: RecordSpec[] = [
  { path: "/api/things", status: 200, res: things },
  read("cat=2", evens),
  read("cat=2,3", things),
  read("per_page=2&page=1", things.slice(0, 2)),
  read("per_page=2&page=2", things.slice(2, 4)),
  read("per_page=1", things.slice(0, 1)),
  read("per_page=100", things),
];
const refused: RecordSpec[] = [
  read("cat=abc", badType, 400),
  read("per_page=0", badSize, 400),
  read("per_page=101", badSize, 400),
  read("per_page=2&page=9", badPage, 400),
];

function twin(specs: RecordSpec[]) {
  const { model, seed } = learnSpecs(specs);
  const ep = createEpisode(model, seed, { episodeId: "a" });
  const get = (q: string) =>
    handleRequest(model, ep, twinRequest("GET", "/api/things", null, [...new URLSearchParams(q)]));
  return { model, get };
}
const bodyOf = (r: ReturnType<ReturnType<typeof twin>["get"]>) =>
  r.body && r.body.kind === "json" ? r.body.value : r.body;

describe("query value domains learned from refused list reads", () => {
  const { model, get } = twin([...accepted, ...refused]);

  it("learns integers, a range and a page past the last from the refusals, each explained", () => {
    const domains = model.collections[0]!.query!.domains!;
    expect(domains.map((d) => [d.kind, d.path])).toEqual([
      ["integers", ["cat"]],
      ["past_last_page", ["page"]],
      ["range", ["per_page"]],
    ]);
    expect(domains[2]).toMatchObject({ min: 1, max: 100, below: { from: 0 }, above: { from: 101 } });
    expect(domains[0]!.explain).toBe(
      "cat held only integers in every accepted read, and a value holding a non-integer was refused with 400 (/api/things?cat=abc)",
    );
  });

  it("answers other values of the refused kinds with the recorded refusal", () => {
    expect([get("cat=xyz").status, bodyOf(get("cat=xyz"))]).toEqual([400, badType]);
    for (const q of ["per_page=0", "per_page=-3", "per_page=150"])
      expect([q, get(q).status, bodyOf(get(q))]).toEqual([q, 400, badSize]);
    expect([get("per_page=2&page=4").status, bodyOf(get("per_page=2&page=4"))]).toEqual([400, badPage]);
  });

  it("answers values inside the domain from state as before", () => {
    expect(bodyOf(get("per_page=50"))).toEqual(things);
    expect(bodyOf(get("per_page=2&page=3"))).toEqual(things.slice(4));
    expect(bodyOf(get("per_page=1&page=5"))).toEqual(things.slice(4));
    expect(bodyOf(get("cat=3"))).toEqual(things.filter((t) => t.cat[0] === 3));
  });

  it("explains a 501 where the evidence does not decide: the non-integer elsewhere in a list, two refusals at once", () => {
    const at1 = get("cat=2,abc");
    expect(at1.status).toBe(501);
    expect(JSON.stringify(bodyOf(at1))).toContain(
      "cat was refused for a non-integer at position 0 of its value; this one has it at 1",
    );
    const two = get("cat=abc&per_page=0");
    expect(two.status).toBe(501);
    expect(JSON.stringify(bodyOf(two))).toContain("one at a time, never together");
  });

  it("leaves the gap between the greatest accepted and the least refused value open", () => {
    const { get: g } = twin([
      accepted[0]!,
      read("per_page=2", things.slice(0, 2)),
      read("per_page=101", badSize, 400),
    ]);
    expect(bodyOf(g("per_page=150"))).toEqual(badSize);
    const open = g("per_page=50");
    expect(open.status).toBe(501);
    expect(JSON.stringify(bodyOf(open))).toContain(
      "per_page=50 lies between 2 and 101: the recording accepted 2 and refused 101",
    );
  });

  it("is rejected when the refusal cannot be pinned on one parameter, or contradicts an interval", () => {
    const two = twin([...accepted, read("cat=abc&per_page=0", badType, 400)]);
    expect(two.model.collections[0]!.query!.domains).toBeUndefined();
    expect(bodyOf(two.get("cat=xyz"))).toEqual([]);
    const between = twin([...accepted, read("per_page=50", badSize, 400)]);
    expect(between.model.collections[0]!.query!.domains).toBeUndefined();
  });

  it("is rejected for a page past the last when an accepted read answered one (the app gives an empty page)", () => {
    const { model: m } = twin([
      ...accepted,
      read("per_page=2&page=5", []),
      read("per_page=2&page=9", badPage, 400),
    ]);
    expect(m.collections[0]!.query!.domains?.some((d) => d.kind === "past_last_page")).toBeFalsy();
  });
});

describe("query value domains: what one refusal does not decide (session-6 review H1, H2)", () => {
  it("refuses only a non-integer of the shape a refusal held; an empty element, a decimal, other text or a repeated key is left open", () => {
    const { get } = twin([...accepted, ...refused]);
    expect(get("cat=xyz").status).toBe(400);
    for (const q of ["cat=", "cat=,2", "cat=1 2", "cat=2.0", "cat=1e0", "cat=abc&cat=2"]) {
      const r = get(q);
      expect(r.status, q).toBe(501);
      expect(JSON.stringify(bodyOf(r)), q).toContain("unlearned_query");
    }
  });

  it("takes a refusal that repeats the refused value for that value only (the app would name another)", () => {
    const echo = (n: number) => ({
      error: { statusCode: 400, message: `Invalid data {"limit":${n}} for parameter "limit".` },
    });
    const { model, get } = twin([
      { path: "/api/things", status: 200, res: things },
      read("limit=1", things.slice(0, 1)),
      read("limit=3", things.slice(0, 3)),
      read("limit=-1", echo(-1), 400),
    ]);
    const domain = model.collections[0]!.query!.domains!.find((d) => d.kind === "range");
    expect(domain).toMatchObject({ names_value: true });
    // The recorded value is answered as recorded; another is the explained miss, never -1's body.
    expect(bodyOf(get("limit=-1"))).toEqual(echo(-1));
    const other = get("limit=-5");
    expect(other.status).toBe(501);
    expect(JSON.stringify(bodyOf(other))).toContain("repeats the value it refused");
    // Rightly not taken for an echo: "between 1 and 100" does not name 0.
    const { model: wp } = twin([...accepted, ...refused]);
    expect(wp.collections[0]!.query!.domains!.find((d) => d.kind === "range")).not.toHaveProperty(
      "names_value",
    );
  });
});
