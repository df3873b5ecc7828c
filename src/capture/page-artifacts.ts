/** What a capture asks of the page besides its steps: the browser's version and per-step screenshots. */
import { join } from "node:path";
import createDebug from "debug";
import type { Page } from "playwright-core";
import type { Evidence } from "../evidence/evidence-schema.js";

const debug = createDebug("apptwin:capture");

/** The browser's product and version, from Chromium itself; null when it cannot say. */
export async function browserVersion(page: Page): Promise<Evidence["browser"]> {
  try {
    const cdp = await page.context().newCDPSession(page);
    const v = (await cdp.send("Browser.getVersion")) as { product: string };
    await cdp.detach();
    const [product = "Chromium", version = "unknown"] = v.product.split("/");
    return { product, version };
  } catch {
    return null;
  }
}

/** Writes `<nn>-<step_id>.png` into `dir`; a screenshot that cannot be taken is skipped, never fails the run. */
export async function screenshot(page: Page, dir: string, index: number, stepId: string): Promise<void> {
  const name = `${String(index + 1).padStart(2, "0")}-${stepId}.png`;
  // A screenshot taken mid-navigation can stall; let the page settle and try again with a short timeout.
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.waitForLoadState("load", { timeout: 5000 }).catch(() => undefined);
    const ok = await page.screenshot({ path: join(dir, name), timeout: 1500 }).then(
      () => true,
      (e) => debug("screenshot %s (attempt %d): %s", name, attempt + 1, e),
    );
    if (ok) return;
  }
}
