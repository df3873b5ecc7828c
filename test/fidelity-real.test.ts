/**
 * The ratchet on real third-party apps: for each lab app (../shared/real-apps), build a bundle
 * from the checked-in training recording and score it on the checked-in held-out recording
 * (both made by `npm run fidelity:real -- --write-fixtures` on a fresh seed). The exact
 * per-tool figures are asserted, so a change that loses a request fails here and one that
 * gains one updates the table on purpose (docs/specs/fidelity/verification.md lists them).
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import createDebug from "debug";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportBundle } from "../src/bundle/export-bundle-io.js";
import { runFidelityFiles } from "../src/fidelity/fidelity-io.js";
import { formatFidelity } from "../src/fidelity/format-fidelity.js";
import type { FidelityReport } from "../src/fidelity/run-fidelity.js";
import { loadScenario } from "../src/scenario/scenario-io.js";

const debug = createDebug("apptwin:fidelity");
const root = join(import.meta.dirname, "..");
const fixtures = join(root, "test", "fixtures", "real");

// The lab apps' documented fixture credentials: none may be in a checked-in recording.
const LAB_CREDENTIALS = [
  "realappsAdminAppPass0001",
  "realappsEditorAppPass001",
  Buffer.from("admin:realappsAdminAppPass0001").toString("base64"),
  "wp-admin-pass-1",
  "realappsRedmineAdminApiKey00000000000001",
  "realappsRedmineJsmithApiKey0000000000001",
  "realappsjupytertoken0001",
  "jupyter-pass-1",
];

/** Per app: [tool, matched, requests] for every tool the held-out requests reach, and the total. */
const EXPECTED: Record<string, { total: [number, number]; tools: [string, number, number][] }> = {
  wordpress: {
    total: [34, 35],
    tools: [
      ["delete_wp_json_wp_posts_by_id", 1, 1],
      ["get_wp_json_wp_categories", 1, 1],
      ["get_wp_json_wp_categories_by_id", 2, 2],
      ["get_wp_json_wp_comments", 2, 2],
      ["get_wp_json_wp_comments_by_id", 1, 1],
      ["get_wp_json_wp_pages_by_id", 1, 1],
      ["get_wp_json_wp_posts", 11, 11],
      ["get_wp_json_wp_posts_by_id", 7, 7],
      ["get_wp_json_wp_tags", 1, 1],
      ["get_wp_json_wp_tags_by_id", 1, 1],
      ["get_wp_json_wp_users_by_id", 1, 1],
      ["patch_wp_json_wp_posts_by_id", 1, 2],
      ["post_wp_json_wp_categories", 1, 1],
      ["post_wp_json_wp_comments", 1, 1],
      ["post_wp_json_wp_posts", 1, 1],
      ["post_wp_json_wp_tags", 1, 1],
    ],
  },
  redmine: {
    total: [28, 28],
    tools: [
      ["delete_issues_by_id", 1, 1],
      ["get_issues_by_id", 7, 7],
      ["get_issues_json", 10, 10],
      ["get_projects_by_id", 2, 2],
      ["get_projects_json", 1, 1],
      ["get_projects_memberships_json_by_project_id", 1, 1],
      ["get_projects_versions_json_by_project_id", 1, 1],
      ["get_users_by_id", 1, 1],
      ["post_issues_json", 2, 2],
      ["put_issues_by_id", 2, 2],
    ],
  },
  jupyter: {
    total: [18, 20],
    tools: [
      ["delete_contents_by_id", 1, 1],
      ["get_contents", 1, 2],
      ["get_contents_by_id", 9, 10],
      ["get_contents_checkpoints_by_content_id", 1, 1],
      ["get_kernels", 1, 1],
      ["get_sessions", 1, 1],
      ["patch_contents_by_id", 1, 1],
      ["post_contents_by_id", 1, 1],
      ["post_contents_checkpoints_by_content_id", 1, 1],
      ["put_contents_by_id", 1, 1],
    ],
  },
  "loopback-todo": {
    total: [26, 26],
    tools: [
      ["delete_todos_by_id", 1, 1],
      ["get_todos", 12, 12],
      ["get_todos_by_id", 7, 7],
      ["get_todos_count", 2, 2],
      ["patch_todos_by_id", 2, 2],
      ["post_todos", 2, 2],
    ],
  },
};

let dir: string;
const reports = new Map<string, FidelityReport>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "apptwin-fidelity-real-"));
  for (const app of Object.keys(EXPECTED)) {
    const out = join(dir, app);
    await exportBundle({ evidence: [join(fixtures, app, "train.evidence.json")], out });
    reports.set(
      app,
      await runFidelityFiles({ dir: out, evidence: join(fixtures, app, "heldout.evidence.json") }),
    );
  }
}, 180_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("held-out fidelity on the real lab apps, from the checked-in recordings", () => {
  for (const [app, expected] of Object.entries(EXPECTED)) {
    it(`${app}: ${expected.total[0]} of ${expected.total[1]} held-out requests answered like the app, per tool`, () => {
      const report = reports.get(app) as FidelityReport;
      debug("%s\n%s", app, formatFidelity(report).join("\n"));
      expect(report.tools.map((t) => [t.tool, t.matched, t.requests])).toEqual(expected.tools);
      expect([report.matched, report.requests]).toEqual(expected.total);
    });
  }

  it("the scenarios they were recorded from are valid, and each recording passed every step", async () => {
    for (const app of Object.keys(EXPECTED))
      for (const kind of ["train", "heldout"]) {
        await loadScenario(join(root, "examples", "real", `${app}.${kind}.scenario.json`));
        const evidence = JSON.parse(readFileSync(join(fixtures, app, `${kind}.evidence.json`), "utf8"));
        expect(evidence.verdict, `${app}/${kind}`).toBe("passed");
      }
  });

  it("the checked-in recordings hold none of the lab apps' credentials", () => {
    for (const app of Object.keys(EXPECTED))
      for (const kind of ["train", "heldout"]) {
        const bytes = readFileSync(join(fixtures, app, `${kind}.evidence.json`), "utf8");
        for (const c of LAB_CREDENTIALS)
          expect(bytes.includes(c), `${app}/${kind} holds ${c.slice(0, 4)}…`).toBe(false);
      }
  });
});
