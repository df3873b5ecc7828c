import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../test/fixtures/evidence/build-evidence.js";
import { learnSpecs, twinRequest } from "../../test/support/learn-specs.js";
import { createEpisode } from "../serve/runtime/create-episode.js";
import { handleRequest } from "../serve/runtime/handle-request.js";
import { withReferenceConditions } from "./reference-constants.js";

const website = { id: 1, name: "Website" };
const issue = (id: number, subject: string, priority: { id: number; name: string }) => ({
  id,
  subject,
  project: website,
  priority,
});
const urgent = { id: 5, name: "Urgent" };
/** Two creates, both in project "website" with priority 5: the answer's project and priority name never varied. */
const recording: RecordSpec[] = [
  { path: "/issues", status: 200, res: { issues: [issue(1, "Seed", urgent)] } },
  ...[2, 3].flatMap((id): RecordSpec[] => [
    {
      method: "POST",
      path: "/issues",
      status: 201,
      req: { issue: { subject: `S${id}`, project_id: "website", priority_id: 5 } },
      res: { issue: issue(id, `S${id}`, urgent) },
    },
    { path: `/issues/${id}`, status: 200, res: { issue: issue(id, `S${id}`, urgent) } },
  ]),
  {
    path: "/issues",
    status: 200,
    res: { issues: [1, 2, 3].map((id) => issue(id, id === 1 ? "Seed" : `S${id}`, urgent)) },
  },
];
const create = (body: unknown) => twinRequest("POST", "/issues", body);

describe("constants a request reference decided", () => {
  it("answers the recorded constant for the recorded reference, and an explained miss for another", () => {
    const { model, seed } = learnSpecs(recording);
    const rule = model.write_rules.find((r) => r.tool_name === "post_issues")!;
    expect(rule.fields.find((f) => f.field === "project")?.rule).toEqual({
      kind: "constant",
      value: website,
      given: { pointer: "/issue/project_id", values: ['"website"'], absent: false },
    });
    const ep = createEpisode(model, seed, { episodeId: "refs" });
    const same = handleRequest(
      model,
      ep,
      create({ issue: { subject: "S4", project_id: "website", priority_id: 5 } }),
    );
    expect(same.status).toBe(201);
    const other = handleRequest(
      model,
      ep,
      create({ issue: { subject: "S5", project_id: "mobile-app", priority_id: 5 } }),
    );
    expect(other.status).toBe(501);
    expect(other.body).toMatchObject({
      kind: "json",
      value: { error: "unlearned_value", pointer: "/issue/project_id" },
    });
    // The priority's name was looked up by priority_id: another id is a miss too, and nothing was written.
    const priority = handleRequest(
      model,
      ep,
      create({ issue: { subject: "S6", project_id: "website", priority_id: 2 } }),
    );
    expect(priority.body).toMatchObject({
      kind: "json",
      value: { error: "unlearned_value", pointer: "/issue/priority_id" },
    });
    const listed = handleRequest(model, ep, twinRequest("GET", "/issues")).body as {
      value: { issues: unknown[] };
    };
    expect(listed.value.issues).toHaveLength(4);
  });

  it("rightly leaves a constant no request field names as its reference unconditioned", () => {
    const fields = withReferenceConditions(
      [
        { field: "status", rule: { kind: "constant", value: "open" } },
        { field: "owner", rule: { kind: "constant", value: { id: 7 } } },
      ],
      [
        { title: "a", project_id: 1 },
        { title: "b", project_id: 2 },
      ],
    );
    expect(fields.map((f) => f.rule)).toEqual([
      { kind: "constant", value: "open" },
      { kind: "constant", value: { id: 7 } },
    ]);
  });

  it("rightly leaves it unconditioned when two request fields could name it (ambiguous)", () => {
    const fields = withReferenceConditions(
      [{ field: "project", rule: { kind: "constant", value: website } }],
      [{ project_id: "website", projectId: "website" }],
    );
    expect(fields[0]!.rule).toEqual({ kind: "constant", value: website });
  });

  it("rightly leaves it unconditioned where the reference holds a credential (only markers were recorded)", () => {
    const fields = withReferenceConditions(
      [
        { field: "session", rule: { kind: "constant", value: { active: true } } },
        { field: "vault", rule: { kind: "constant", value: { id: 3 } } },
      ],
      [
        { session_id: "[REDACTED:field:session_id]", vault_id: "[REDACTED:secret:MYSEC]" },
        { session_id: "[REDACTED:field:session_id]", vault_id: "[REDACTED:secret:MYSEC]" },
      ],
    );
    expect(fields.map((f) => f.rule)).toEqual([
      { kind: "constant", value: { active: true } },
      { kind: "constant", value: { id: 3 } },
    ]);
  });
});
