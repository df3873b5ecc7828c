/**
 * The capture runner against the real items app in a real Chromium: sign in
 * through the form with a declared secret, CRUD with request steps and read
 * every write back; nothing secret reaches the written evidence.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startItemsApp } from "../scripts/fixtures/items-app/server.mjs";
import { type CaptureOutcome, runCapture } from "../src/capture/run-capture.js";
import { writeEvidence } from "../src/evidence/evidence-io.js";
import { evidenceToHar } from "../src/evidence/har-export.js";
import { crudSteps, scenarioFor, signInSteps } from "./capture-scenarios.js";
import { readLiveSession } from "./support/live-session.js";

const PASSWORD = "correct-horse-battery-staple";
const env = { ...process.env, ITEMS_PASSWORD: PASSWORD };

type App = Awaited<ReturnType<typeof startItemsApp>>;
let app: App;
let dir: string;
let outcome: CaptureOutcome;
let bytes: string;
/** The live values of the captured session, read from the browser before it closed. */
const live = { session: "", csrf: "", bearer: "" };

beforeAll(async () => {
  app = await startItemsApp({ port: 0, password: PASSWORD });
  dir = await mkdtemp(join(tmpdir(), "apptwin-capture-"));
  outcome = await runCapture({
    scenario: scenarioFor(app.url, "items-crud", [...signInSteps, ...crudSteps]),
    env,
    beforeClose: async (context) => {
      Object.assign(live, await readLiveSession(context, app.url));
    },
  });
  await writeEvidence(join(dir, "evidence.json"), outcome.evidence);
  bytes = await readFile(join(dir, "evidence.json"), "utf8");
});

afterAll(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("capture of sign-in and CRUD on the items app", () => {
  it("passes every step", () => {
    const { evidence } = outcome;
    expect(evidence.steps.map((s) => [s.step_id, s.status, s.error])).toEqual(
      [...signInSteps, ...crudSteps].map((s) => [s.step_id, "passed", null]),
    );
    expect(evidence.verdict).toBe("passed");
    expect(evidence.limitations).toEqual(["writes were sent without a user gesture"]);
    expect(outcome.writesSent).toBe(4); // login, create, update, delete
  });

  it("holds every API transaction with bodies and times", () => {
    const api = outcome.evidence.records.filter((r) => new URL(r.request.url).pathname.startsWith("/api/"));
    const steps = api.filter((r) => r.initiator === "request-step");
    expect(
      steps.map(
        (r) =>
          `${r.step_id} ${r.request.method} ${new URL(r.request.url).pathname}${new URL(r.request.url).search} ${r.response?.status}`,
      ),
    ).toEqual([
      "create POST /api/items 201",
      "read-created GET /api/items/6 200",
      "update PUT /api/items/6 200",
      "read-updated GET /api/items?done=true 200",
      "delete DELETE /api/items/6 204",
      "read-deleted GET /api/items/6 404",
    ]);
    const created = JSON.parse(steps[0]!.response!.body!.text);
    expect(created).toMatchObject({ id: 6, title: "Oat milk", done: false });
    expect(steps[0]!.request.body).toMatchObject({
      encoding: "utf8",
      text: '{"title":"Oat milk"}',
      truncated: false,
    });
    expect(JSON.parse(steps[3]!.response!.body!.text).data.map((i: { id: number }) => i.id)).toEqual([
      2, 4, 6,
    ]);
    for (const r of api) {
      expect(r.started_at).toBeGreaterThan(1_700_000_000_000);
      expect(r.duration_ms).toBeGreaterThanOrEqual(0);
    }
    const seqs = outcome.evidence.records.map((r) => r.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i));
    const login = api.find((r) => r.request.url.endsWith("/api/login"))!;
    expect(login.initiator).toBe("page");
    expect(login.step_id).toBe("submit");
    // The marker header that tells request-step fetches apart is never recorded.
    expect(bytes).not.toContain("x-apptwin-request-step");
  });

  it("writes none of the secret, session cookie, CSRF token or bearer, only markers", () => {
    expect(live.session.length).toBeGreaterThanOrEqual(8);
    expect(live.csrf.length).toBeGreaterThanOrEqual(8);
    expect(live.bearer.length).toBeGreaterThanOrEqual(32);
    const har = JSON.stringify(evidenceToHar(outcome.evidence));
    for (const value of [PASSWORD, live.session, live.csrf, live.bearer]) {
      for (const text of [bytes, har]) {
        expect(text).not.toContain(value);
        expect(text).not.toContain(encodeURIComponent(value));
      }
    }
    expect(har).toContain("[REDACTED:page:create.x-csrf-token]");
    const markers = outcome.evidence.redactions.map((r) => r.marker);
    expect(markers).toEqual(
      expect.arrayContaining([
        "[REDACTED:field:password]",
        "[REDACTED:header:authorization]",
        "[REDACTED:header:cookie]",
        "[REDACTED:page:create.x-csrf-token]",
      ]),
    );
    for (const m of markers) expect(bytes).toContain(m);
  });

  it("keeps the login answer's body, with the token replaced", () => {
    const login = outcome.evidence.records.find((r) => r.request.url.endsWith("/api/login"))!;
    const body = JSON.parse(login.response!.body!.text);
    expect(body.user.email).toBe("admin@example.test");
    expect(body.token).toMatch(/^\[REDACTED:(field|page):[^\]]+\]$/);
  });
});
