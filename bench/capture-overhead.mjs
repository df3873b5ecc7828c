// Capture overhead: the same sign-in-and-CRUD steps as a plain playwright-core
// script versus `runCapture` (recorder, confinement, redaction), median of N
// runs each, in the same process against the same items app. Target: ratio
// at most 1.25. Run after `npm run build`: node bench/capture-overhead.mjs [N]
// Not part of `npm test`: timings are reported, never asserted.
import { chromium } from "playwright-core";
import { BROWSER_ARGS, findBrowser } from "../dist/capture/launch-browser.js";
import { runCapture } from "../dist/capture/run-capture.js";
import { startItemsApp } from "../scripts/fixtures/items-app/server.mjs";

const N = Math.min(Math.max(Number(process.argv[2] ?? 5), 1), 15);
const PASSWORD = "bench-password-123";
// The product's own resolution and switches, so both sides drive the same Chromium the same way.
const BROWSER = findBrowser(undefined, process.env).path;

const bearer = { local_storage: "auth", pointer: "/token", prefix: "Bearer " };
const writeHeaders = { "x-csrf-token": { cookie: "csrftoken" }, authorization: bearer };
const steps = [
  { step_id: "login-page", action: "navigate", path: "/login" },
  { step_id: "email", action: "fill", target: "label=Email", value: "admin@example.test" },
  { step_id: "password", action: "fill", target: "label=Password", value: { secret: "password" } },
  { step_id: "submit", action: "click", target: 'role=button[name="Sign in"]' },
  { step_id: "landed", action: "expect-url", pattern: "^/items" },
  { step_id: "listed", action: "expect-text", text: "Buy coffee beans" },
  {
    step_id: "create",
    action: "request",
    method: "POST",
    path: "/api/items",
    headers: writeHeaders,
    json: { title: "Bench" },
    expected_status: [201],
  },
  {
    step_id: "read",
    action: "request",
    method: "GET",
    path: "/api/items/6",
    headers: { authorization: bearer },
  },
  {
    step_id: "update",
    action: "request",
    method: "PUT",
    path: "/api/items/6",
    headers: writeHeaders,
    json: { title: "Bench 2", done: true },
  },
  { step_id: "delete", action: "request", method: "DELETE", path: "/api/items/6", headers: writeHeaders },
  {
    step_id: "gone",
    action: "request",
    method: "GET",
    path: "/api/items/6",
    headers: { authorization: bearer },
    expected_status: [404],
  },
];

async function plain(url) {
  const context = await chromium.launchPersistentContext("", {
    executablePath: BROWSER,
    args: [...BROWSER_ARGS],
    chromiumSandbox: process.getuid?.() !== 0,
    serviceWorkers: "block",
  });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${url}/login`);
  await page.getByLabel("Email").fill("admin@example.test");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname.startsWith("/items"));
  await page.getByText("Buy coffee beans").first().waitFor();
  const statuses = await page.evaluate(async () => {
    const csrf = document.cookie.match(/csrftoken=([^;]+)/)[1];
    const auth = `Bearer ${JSON.parse(localStorage.getItem("auth")).token}`;
    const w = { "x-csrf-token": csrf, authorization: auth, "content-type": "application/json" };
    const out = [];
    const send = async (method, path, body) => {
      const r = await fetch(path, {
        method,
        headers: body || method !== "GET" ? w : { authorization: auth },
        body: body && JSON.stringify(body),
        redirect: "manual",
      });
      await r.arrayBuffer();
      out.push(r.status);
    };
    await send("POST", "/api/items", { title: "Bench" });
    await send("GET", "/api/items/6");
    await send("PUT", "/api/items/6", { title: "Bench 2", done: true });
    await send("DELETE", "/api/items/6");
    await send("GET", "/api/items/6");
    return out;
  });
  await context.close();
  if (statuses.join() !== "201,200,200,204,404") throw new Error(`plain run went wrong: ${statuses}`);
}

async function captured(url) {
  const { evidence } = await runCapture({
    scenario: {
      schema_version: 1,
      name: "bench",
      start_url: `${url}/`,
      secrets: [{ id: "password", env: "ITEMS_PASSWORD" }],
      steps,
    },
    env: { ...process.env, ITEMS_PASSWORD: PASSWORD, APPTWIN_BROWSER: BROWSER },
  });
  if (evidence.verdict !== "passed")
    throw new Error(`capture went wrong: ${JSON.stringify(evidence.steps.filter((s) => s.error))}`);
}

async function time(fn) {
  // Each run gets a fresh app so item 6 is always the new one.
  const app = await startItemsApp({ port: 0, password: PASSWORD });
  try {
    const t0 = performance.now();
    await fn(app.url);
    return performance.now() - t0;
  } finally {
    await app.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const plainMs = [];
const captureMs = [];
await time(plain); // warm-up: first launch pays for disk caches
for (let i = 0; i < N; i++) {
  plainMs.push(await time(plain));
  captureMs.push(await time(captured));
}
const ratio = median(captureMs) / median(plainMs);
console.log(
  `plain playwright-core: median ${median(plainMs).toFixed(0)} ms over ${N} runs (${plainMs.map((x) => x.toFixed(0)).join(", ")})`,
);
console.log(
  `apptwin capture:       median ${median(captureMs).toFixed(0)} ms over ${N} runs (${captureMs.map((x) => x.toFixed(0)).join(", ")})`,
);
console.log(`ratio ${ratio.toFixed(2)} (target <= 1.25): ${ratio <= 1.25 ? "met" : "NOT met"}`);
