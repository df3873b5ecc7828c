/**
 * The one way tests start a Chromium of their own: found and launched with
 * the product's resolution and process options (src/capture/launch-browser.ts),
 * so the tests prove what a capture would run, not a copy of it.
 */
import { type Browser, chromium } from "playwright-core";
import { browserLaunchOptions, findBrowser } from "../../src/capture/launch-browser.js";

/** Launches a headless Chromium the way a capture would (APPTWIN_BROWSER, Playwright's, then the system's). */
export async function launchTestBrowser(): Promise<Browser> {
  const env = process.env;
  const executable = findBrowser(undefined, env);
  return chromium.launch(
    browserLaunchOptions({ executablePath: executable.path, isRoot: process.getuid?.() === 0, env }),
  );
}
