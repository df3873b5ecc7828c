/**
 * Redaction that never corrupts, in a real Chromium against the items app's
 * /locale page: its locale file holds `"password": "Password"`, `"token": ""`
 * and `"secret": true`, its script spells those words, and a session answer
 * holds a real random token the document embeds too. The recorded script and
 * locale file must be byte-identical to what was served; the random token
 * must be absent from every written byte; the signed-in password too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ItemsApp,
  LOCALE_EN,
  LOCALE_SCRIPT,
  startItemsApp,
} from "../scripts/fixtures/items-app/server.mjs";
import { type CaptureOutcome, runCapture } from "../src/capture/run-capture.js";
import type { EvidenceRecord } from "../src/evidence/evidence-schema.js";
import { evidenceToHar } from "../src/evidence/har-export.js";
import { parseScenario } from "../src/scenario/parse-scenario.js";
import { canonicalJson } from "../src/util/canonical-json.js";

const PASSWORD = "locale-password-93kQ";
let app: ItemsApp;
let outcome: CaptureOutcome;
let sessionToken = "";

beforeAll(async () => {
  app = await startItemsApp({ port: 0, password: PASSWORD });
  const scenario = parseScenario(
    JSON.stringify({
      schema_version: 1,
      name: "locale",
      start_url: `${app.url}/`,
      secrets: [{ id: "password", env: "LOCALE_PASSWORD" }],
      steps: [
        { step_id: "login-page", action: "navigate", path: "/login" },
        { step_id: "email", action: "fill", target: "label=Email", value: "admin@example.test" },
        { step_id: "password", action: "fill", target: "label=Password", value: { secret: "password" } },
        { step_id: "submit", action: "click", target: 'role=button[name="Sign in"]' },
        { step_id: "landed", action: "expect-url", pattern: "^/items" },
        { step_id: "locale", action: "navigate", path: "/locale" },
        { step_id: "labelled", action: "expect-text", text: "token issued" },
      ],
    }),
    "locale.json",
  );
  outcome = await runCapture({
    scenario,
    env: { ...process.env, LOCALE_PASSWORD: PASSWORD },
    beforeClose: async (context) => {
      sessionToken = await context
        .pages()[0]!
        .evaluate(() => (window as unknown as { SESSION_INFO: { token: string } }).SESSION_INFO.token);
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

const byPath = (path: string): EvidenceRecord => {
  const r = outcome.evidence.records.find((x) => new URL(x.request.url).pathname === path);
  if (!r) throw new Error(`no record of ${path}`);
  return r;
};

describe("redaction that never corrupts", () => {
  it("records the locale page's script and locale file byte for byte", () => {
    expect(outcome.evidence.verdict).toBe("passed");
    const script = byPath("/static/locale.js").response!.body!;
    expect(script.text).toBe(LOCALE_SCRIPT);
    expect(script.truncated).toBe(false);
    expect(byPath("/static/locale-en.json").response!.body!.text).toBe(JSON.stringify(LOCALE_EN));
  });

  it("keeps the real random token under token out of every written byte, the document included", () => {
    expect(sessionToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const bytes = canonicalJson(outcome.evidence) + JSON.stringify(evidenceToHar(outcome.evidence));
    for (const secret of [sessionToken, PASSWORD]) expect(bytes).not.toContain(secret);
    expect(byPath("/api/session-info").response!.body!.text).toBe(
      '{"token":"[REDACTED:field:token]","expires_in":3600}',
    );
    expect(byPath("/locale").response!.body!.text).toContain(
      'window.SESSION_INFO = {"token": "[REDACTED:field:token]"};',
    );
  });
});
