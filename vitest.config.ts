import { defineConfig } from "vitest/config";

// Unit tests sit beside the code (src/**/*.test.ts); cross-stage and real-browser
// tests live in test/. Two cores here: keep the pool small so Chromium-backed
// tests do not starve each other.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
