/** Maps a scenario target (`testid=…`, `role=button[name="…"]`, …) to a Playwright locator. */
import type { Locator, Page } from "playwright-core";
import { parseTarget } from "../scenario/parse-target.js";

type AriaRole = Parameters<Page["getByRole"]>[0];

/** The locator a target names on this page; the scenario was validated, so the target parses. */
export function locatorFor(page: Page, target: string): Locator {
  const t = parseTarget(target);
  switch (t.kind) {
    case "testid":
      return page.getByTestId(t.value);
    case "text":
      return page.getByText(t.value);
    case "label":
      return page.getByLabel(t.value);
    case "role":
      return page.getByRole(t.role as AriaRole, t.name !== undefined ? { name: t.name } : {});
    case "css":
      return page.locator(t.value);
  }
}
