/**
 * The items fixture app's real UI in Chromium (playwright-core): sign in
 * through the form, see the seed, add, toggle and delete through the page's
 * own script; and the cross-origin page really attempts its POST.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ADMIN_EMAIL,
  ITEMS_SEED,
  type ItemsApp,
  startItemsApp,
} from "../scripts/fixtures/items-app/server.mjs";
import { launchTestBrowser } from "./support/launch-test-browser.js";

const PASSWORD = "ui-test-password";

let browser: Browser;
let app: ItemsApp;
let page: Page;

beforeAll(async () => {
  browser = await launchTestBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  app = await startItemsApp({ port: 0, password: PASSWORD });
  page = await (await browser.newContext()).newPage();
});
afterEach(async () => {
  await page.context().close();
  await app.close();
});

/** Titles the page currently lists, in order. */
const listedTitles = () =>
  page.getByRole("list", { name: "Items" }).getByRole("listitem").locator("label").allTextContents();

/** The server's own view of the items, read over the API with the page's bearer. */
async function serverItems() {
  const auth = JSON.parse((await page.evaluate(() => localStorage.getItem("auth"))) ?? "{}") as {
    token: string;
  };
  const res = await fetch(`${app.url}/api/items`, { headers: { authorization: `Bearer ${auth.token}` } });
  return ((await res.json()) as { data: Array<{ id: number; title: string; done: boolean }> }).data;
}

async function signIn(password = PASSWORD) {
  await page.goto(`${app.url}/login`);
  await page.getByLabel("Email").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

describe("items app UI in Chromium", () => {
  it("signs in through the form, keeps the token in localStorage and lists the seed", async () => {
    await signIn();
    await page.waitForURL(`${app.url}/items`);
    await expect.poll(listedTitles).toEqual(ITEMS_SEED.map((i) => i.title));
    await expect.poll(() => page.getByRole("status").textContent()).toBe("5 items, 2 done");
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem("auth"))) ?? "null");
    expect(Object.keys(stored)).toEqual(["token"]);
    expect(stored.token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite]).sort()).toEqual([
      ["csrftoken", false, "Lax"],
      ["session", true, "Lax"],
    ]);
    expect(await page.getByRole("checkbox", { name: "Renew passport" }).isChecked()).toBe(true);
    expect(await page.getByRole("checkbox", { name: "Buy coffee beans" }).isChecked()).toBe(false);
  });

  it("shows a wrong password and stays on the sign-in page", async () => {
    await signIn("wrong");
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Wrong email or password.");
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(await page.evaluate(() => localStorage.getItem("auth"))).toBeNull();
  });

  it("adds, toggles and deletes items through the page's own API calls", async () => {
    await signIn();
    await page.waitForURL(`${app.url}/items`);
    await expect.poll(listedTitles).toHaveLength(5);

    await page.getByLabel("New item").fill("Milk");
    await page.getByRole("button", { name: "Add" }).click();
    await expect.poll(listedTitles).toEqual([...ITEMS_SEED.map((i) => i.title), "Milk"]);
    expect(await page.getByLabel("New item").inputValue()).toBe("");
    expect((await serverItems()).at(-1)).toMatchObject({ id: 6, title: "Milk", done: false });

    await page.getByRole("checkbox", { name: "Milk" }).check();
    await expect.poll(async () => (await serverItems()).find((i) => i.id === 6)?.done).toBe(true);
    await expect.poll(() => page.getByRole("status").textContent()).toBe("6 items, 3 done");

    await page.getByRole("button", { name: "Delete Milk" }).click();
    await expect.poll(listedTitles).toEqual(ITEMS_SEED.map((i) => i.title));
    expect((await serverItems()).map((i) => i.id)).toEqual([1, 2, 3, 4, 5]);

    const writes = app.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.url}`);
    expect(writes).toEqual([
      "POST /api/login",
      "POST /api/items",
      "PATCH /api/items/6",
      "DELETE /api/items/6",
    ]);
    expect(await page.getByRole("alert").textContent()).toBe("");
  });

  it("sends an unsigned-in visitor of /items to /login", async () => {
    await page.goto(`${app.url}/`);
    await page.waitForURL(`${app.url}/login`);
    expect(app.requests.map((r) => r.url).slice(0, 2)).toEqual(["/", "/items"]);
  });

  it("loads documents, scripts and styles, and the cross-origin page attempts its POST", async () => {
    const types = new Set<string>();
    page.on("request", (r) => types.add(r.resourceType()));
    await page.goto(`${app.url}/cross-origin`);
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Cross-origin POST sent.");
    expect([...types].sort()).toEqual(["document", "fetch", "script", "stylesheet"]);
    const posts = app.other.requests.filter((r) => r.method === "POST");
    expect(posts.map((r) => [r.url, r.body, r.headers.origin])).toEqual([
      ["/collect", "posted by the items app's cross-origin page", app.origin],
    ]);
  });
});
