import { describe, expect, it } from "vitest";
import { BROWSER_ARGS, persistentContextOptions } from "./launch-browser.js";

const base = {
  executablePath: "/usr/bin/chromium",
  isRoot: false,
  env: { PATH: "/bin", ITEMS_PASSWORD: "x" },
};

describe("persistentContextOptions", () => {
  it("launches headless unless --headed, which reaches the launch options", () => {
    expect(persistentContextOptions(base).headless).toBe(true);
    expect(persistentContextOptions({ ...base, headed: false }).headless).toBe(true);
    expect(persistentContextOptions({ ...base, headed: true }).headless).toBe(false);
  });

  it("blocks service workers and downloads, turns the sandbox off only as root, passes allow-listed env only", () => {
    const o = persistentContextOptions(base);
    expect(o).toMatchObject({
      executablePath: "/usr/bin/chromium",
      serviceWorkers: "block",
      acceptDownloads: false,
      chromiumSandbox: true,
      args: BROWSER_ARGS,
      env: { PATH: "/bin" },
    });
    expect(persistentContextOptions({ ...base, isRoot: true }).chromiumSandbox).toBe(false);
  });
});
