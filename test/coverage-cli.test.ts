/** `apptwin coverage` run in-process: the table, `--json`, merging files, the empty case, and bad files (exit 2). */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import CoverageCommand from "../src/commands/coverage.js";
import { EMPTY_HINT } from "../src/coverage/build-coverage.js";
import { boardsEvidence } from "./fixtures/evidence/boards-evidence.js";
import { itemsEvidence } from "./fixtures/evidence/items-evidence.js";
import { staticEvidence } from "./fixtures/evidence/static-evidence.js";

const root = join(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "apptwin-coverage-"));
const write = (name: string, value: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, typeof value === "string" ? value : JSON.stringify(value));
  return p;
};
const items = write("items.json", itemsEvidence());
const boards = write("boards.json", boardsEvidence());
const statics = write("static.json", staticEvidence());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(
  argv: string[],
): Promise<{ out: string; err: string; code: number | undefined; result: unknown }> {
  let out = "";
  let err = "";
  const o = vi.spyOn(process.stdout, "write").mockImplementation((s) => {
    out += String(s);
    return true;
  });
  const e = vi.spyOn(process.stderr, "write").mockImplementation((s) => {
    err += String(s);
    return true;
  });
  // oclif prints through console.log.
  const l = vi.spyOn(console, "log").mockImplementation((...args) => {
    out += `${args.map(String).join(" ")}\n`;
  });
  process.exitCode = undefined;
  let result: unknown;
  try {
    result = await CoverageCommand.run(argv, root);
  } catch (error) {
    if (!(error instanceof Error && "oclif" in error)) throw error;
  } finally {
    o.mockRestore();
    l.mockRestore();
    e.mockRestore();
  }
  const code = process.exitCode as number | undefined;
  process.exitCode = undefined;
  return { out, err, code, result };
}

describe("apptwin coverage", () => {
  it("prints a readable table with hints, warnings and the next step", async () => {
    const { out, code } = await run(["--evidence", boards]);
    expect(code ?? 0).toBe(0);
    const lines = out.split("\n");
    expect(lines[0]).toBe(
      "Coverage: partial — 6 reads (and 1 inferred, never recorded), 4 writes served, 2 withheld (19 API records of 20)",
    );
    expect(lines).toContain(
      "post_boards_archive_by_board_id         POST    /api/boards/{board_id}/archive        withheld  not_read_back",
    );
    expect(out).toContain(
      "  records[9].response.status: POST /api/boards/{board_id}/cards answered 422; a failed write teaches no write rule, only a validation (see validations) when it differs from the successes in one respect the recording confirms (a field left out, a value of another type, range or kind, one another entity holds)",
    );
    expect(lines.at(-2)).toBe(
      "Next: Record a GET /api/boards/{id} after POST /api/boards/{board_id}/archive to confirm its effect",
    );
  });

  it("answers --json with the coverage object", async () => {
    const { out } = await run(["--evidence", items, "--json"]);
    const json = JSON.parse(out);
    expect(json.status).toBe("complete");
    expect(json.writes.withheld).toEqual([]);
    expect(json.sign_in).toEqual([
      {
        tool_name: "post_login",
        method: "POST",
        template: "/api/login",
        observations: 1,
        explain: "POST /api/login replays the recorded sign-in answer; the twin does not check credentials.",
      },
    ]);
  });

  it("shows a sign-in as a replayed row of the table", async () => {
    const { out } = await run(["--evidence", items]);
    expect(out.split("\n")).toContain("post_login          POST    /api/login       replay   sign-in");
  });

  it("reports empty with a hint for static assets only", async () => {
    const { out } = await run(["--evidence", statics, "--json"]);
    const json = JSON.parse(out);
    expect(json.status).toBe("empty");
    expect(json.counts).toEqual({ records: 50, api_records: 0, assets: 50, ignored: 0 });
    expect(json.next).toBe(EMPTY_HINT);
  });

  it("merges several evidence files of one app", async () => {
    const { out } = await run(["--evidence", items, "--evidence", statics, "--json"]);
    expect(JSON.parse(out).counts).toEqual({ records: 69, api_records: 17, assets: 52, ignored: 0 });
  });

  it("exits 2 naming a missing file", async () => {
    const missing = join(dir, "nope.json");
    const { err, code } = await run(["--evidence", missing]);
    expect(code).toBe(2);
    expect(err).toContain(`${missing}: no such evidence file`);
  });

  it("exits 2 on a file that is not evidence", async () => {
    const bad = write("bad.json", "{ not json");
    const { err, code } = await run(["--evidence", bad]);
    expect(code).toBe(2);
    expect(err).toContain(`${bad}: is not valid JSON`);
  });
});
