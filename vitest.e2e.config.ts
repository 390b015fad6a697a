import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// End-to-end browser tests: `node scripts/test.mjs --e2e-only` (or `npm test`).
// tests/e2e/global-setup.ts starts the *built* app (remix-serve ./build/server/index.js) once for the whole run (once per
// shard under `npm test`) and provides its URL as inject("baseURL"); the test files drive Debian's Chromium via
// playwright-core (CHROME_PATH).
export default defineConfig({
  resolve: {
    alias: {
      "~db": fileURLToPath(new URL("./db", import.meta.url)),
      "~": fileURLToPath(new URL("./app", import.meta.url)),
    },
  },
  test: {
    environment: "node",
    include: ["tests/e2e/**/*.e2e.ts"],
    globalSetup: ["tests/e2e/global-setup.ts"],
    testTimeout: 120_000,
    // expect.poll waits for what a page shows after a navigation or a fetch: 1 s (vitest's default) is too short on a
    // loaded machine, where one round trip can take that long (a delegated account's form was seen to need 1.4 s).
    expect: { poll: { timeout: 15_000 } },
    // The first server start loads the demo network into the embedded stores; global-setup waits up to 10 minutes.
    hookTimeout: 900_000,
    teardownTimeout: 60_000,
    // One file at a time per app server (tests share the server's state). `npm test` runs several such runs at the same
    // time instead, each with a server of its own and a share of the files (E2E_SHARDS, scripts/test.mjs).
    fileParallelism: false,
    // Under CI a failed browser test runs once more: a journey that fails only when the machine is loaded passes on its
    // second run, and `npm test` names it among the tests that passed only on a retry, so the flake is seen and fixed.
    // A test that fails twice fails the run. Locally nothing is retried.
    retry: process.env.CI ? 1 : 0,
    pool: "forks",
  },
});
