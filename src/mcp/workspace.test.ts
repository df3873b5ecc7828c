import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { idStem, Workspace } from "./workspace.js";

let dir: string;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("Workspace", () => {
  it("is APPTWIN_WORKSPACE, else ./.apptwin", () => {
    expect(Workspace.fromEnv({ APPTWIN_WORKSPACE: "ws" }, "/p").root).toBe("/p/ws");
    expect(Workspace.fromEnv({}, "/p").root).toBe("/p/.apptwin");
  });

  it("writes its own .gitignore, claims fresh ids and lists only landed captures", async () => {
    dir = await mkdtemp(join(tmpdir(), "apptwin-ws-"));
    const ws = new Workspace(dir);
    expect(await ws.claimCapture("Items Full!")).toBe("items-full-1");
    expect(await ws.claimCapture("Items Full!")).toBe("items-full-2");
    expect(await readFile(join(dir, ".gitignore"), "utf8")).toContain("\n*\n");
    expect(await ws.captures()).toEqual([]);
    const meta = {
      schema_version: 1 as const,
      id: "items-full-2",
      kind: "capture" as const,
      name: "Items Full!",
      evidence_id: "ev_1",
      verdict: "passed" as const,
      coverage_status: "complete" as const,
      created_at: "2026-01-01T00:00:00.000Z",
    };
    await ws.landCapture(meta, { status: "complete" });
    expect(await ws.captures()).toEqual([meta]);
    expect(await ws.capture("../etc-1")).toBeNull();
    await ws.recordBundle({ name: "b", path: "/x/b" });
    await ws.recordBundle({ name: "b", path: "/y/b" });
    expect(await ws.bundles()).toEqual([{ name: "b", path: "/y/b" }]);
  });

  it("makes ids safe for a folder and a URI", () => {
    expect(idStem("../Wp Posts / 2")).toBe("wp-posts-2");
    expect(idStem("***")).toBe("capture");
  });
});
