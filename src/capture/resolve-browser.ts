/**
 * Finds the Chromium to drive, in a fixed order, so a capture behaves the
 * same on a laptop and in CI: --browser, APPTWIN_BROWSER, Playwright's own
 * installed Chromium, then the system's. The file system and PATH lookups are
 * injected so the order and the message can be unit-tested.
 */
import { UserError } from "../errors/user-error.js";

/** The well-known system locations tried after Playwright's own Chromium. */
export const SYSTEM_BROWSER_PATHS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
] as const;

/** Executable names looked up on the PATH when no well-known location exists. */
export const SYSTEM_BROWSER_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

/** What the resolver may look at; everything is injected so tests control it. */
export interface BrowserLookup {
  /** The `--browser` flag, if given. */
  flag?: string | undefined;
  /** The environment (only APPTWIN_BROWSER and PATH are read). */
  env: Record<string, string | undefined>;
  /** Playwright's own Chromium path (may not exist), or undefined when Playwright cannot name one. */
  playwrightPath: string | undefined;
  /** True when the file exists and is a file. */
  exists: (path: string) => boolean;
}

/** Where the browser came from, for the output and the evidence. */
export type BrowserSource = "flag" | "env" | "playwright" | "system" | "path";

/** The chosen executable and how it was found. */
export interface ResolvedBrowser {
  path: string;
  source: BrowserSource;
}

/** Returns the first usable browser in the documented order, or throws a UserError listing every path tried. */
export function resolveBrowser(lookup: BrowserLookup): ResolvedBrowser {
  const tried: string[] = [];
  if (lookup.flag !== undefined && lookup.flag !== "") {
    if (lookup.exists(lookup.flag)) return { path: lookup.flag, source: "flag" };
    throw new UserError(
      "browser_not_found",
      `--browser ${lookup.flag}: no such file; give the path of a Chromium executable`,
      ["Leave out --browser to let apptwin look for Chromium itself."],
    );
  }
  const fromEnv = lookup.env["APPTWIN_BROWSER"];
  if (fromEnv !== undefined && fromEnv !== "") {
    if (lookup.exists(fromEnv)) return { path: fromEnv, source: "env" };
    throw new UserError(
      "browser_not_found",
      `APPTWIN_BROWSER=${fromEnv}: no such file; set it to the path of a Chromium executable or unset it`,
    );
  }
  if (lookup.playwrightPath !== undefined) {
    tried.push(`${lookup.playwrightPath} (Playwright's Chromium)`);
    if (lookup.exists(lookup.playwrightPath)) return { path: lookup.playwrightPath, source: "playwright" };
  }
  for (const p of SYSTEM_BROWSER_PATHS) {
    tried.push(p);
    if (lookup.exists(p)) return { path: p, source: "system" };
  }
  const dirs = (lookup.env["PATH"] ?? "").split(":").filter((d) => d !== "");
  for (const name of SYSTEM_BROWSER_NAMES) {
    for (const dir of dirs) {
      const p = `${dir.replace(/\/+$/, "")}/${name}`;
      if (lookup.exists(p)) return { path: p, source: "path" };
    }
  }
  if (dirs.length > 0) tried.push(`${SYSTEM_BROWSER_NAMES.join(", ")} on the PATH`);
  throw new UserError(
    "browser_not_found",
    `no Chromium found; tried:\n${tried.map((t) => `  - ${t}`).join("\n")}`,
    [
      "Install Playwright's Chromium: npx playwright install chromium",
      "or the system's: apt-get install -y chromium",
      "or point apptwin at one: --browser /path/to/chromium or APPTWIN_BROWSER=/path/to/chromium",
    ],
  );
}
