import { describe, expect, it } from "vitest";
import { UserError } from "../errors/user-error.js";
import { resolveBrowser } from "./resolve-browser.js";

const has =
  (...paths: string[]) =>
  (p: string) =>
    paths.includes(p);

describe("resolveBrowser", () => {
  it("prefers --browser, then APPTWIN_BROWSER, then Playwright's, then the system's", () => {
    const all = has("/flag", "/env", "/pw", "/usr/bin/chromium");
    const env = { APPTWIN_BROWSER: "/env" };
    expect(resolveBrowser({ flag: "/flag", env, playwrightPath: "/pw", exists: all })).toEqual({
      path: "/flag",
      source: "flag",
    });
    expect(resolveBrowser({ env, playwrightPath: "/pw", exists: all }).source).toBe("env");
    expect(resolveBrowser({ env: {}, playwrightPath: "/pw", exists: all }).source).toBe("playwright");
    expect(resolveBrowser({ env: {}, playwrightPath: "/missing", exists: all })).toEqual({
      path: "/usr/bin/chromium",
      source: "system",
    });
  });

  it("looks the names up on the PATH last", () => {
    const r = resolveBrowser({
      env: { PATH: "/opt/a:/opt/b/" },
      playwrightPath: undefined,
      exists: has("/opt/b/google-chrome"),
    });
    expect(r).toEqual({ path: "/opt/b/google-chrome", source: "path" });
  });

  it("refuses a --browser or APPTWIN_BROWSER that does not exist instead of falling back", () => {
    expect(() =>
      resolveBrowser({ flag: "/nope", env: {}, playwrightPath: undefined, exists: has() }),
    ).toThrow("--browser /nope: no such file; give the path of a Chromium executable");
    expect(() =>
      resolveBrowser({ env: { APPTWIN_BROWSER: "/nope" }, playwrightPath: undefined, exists: has() }),
    ).toThrow("APPTWIN_BROWSER=/nope: no such file; set it to the path of a Chromium executable or unset it");
  });

  it("lists every path tried and how to install one when nothing is found", () => {
    let error: unknown;
    try {
      resolveBrowser({ env: { PATH: "/bin" }, playwrightPath: "/pw/chrome", exists: has() });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UserError);
    const e = error as UserError;
    expect(e.message).toBe(
      [
        "no Chromium found; tried:",
        "  - /pw/chrome (Playwright's Chromium)",
        "  - /usr/bin/chromium",
        "  - /usr/bin/chromium-browser",
        "  - /usr/bin/google-chrome",
        "  - /usr/bin/google-chrome-stable",
        "  - chromium, chromium-browser, google-chrome, google-chrome-stable on the PATH",
      ].join("\n"),
    );
    expect(e.suggestions[0]).toBe("Install Playwright's Chromium: npx playwright install chromium");
    expect(e.suggestions[1]).toBe("or the system's: apt-get install -y chromium");
  });
});
