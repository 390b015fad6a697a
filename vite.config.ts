import { vitePlugin as remix } from "@remix-run/dev";
import { build as esbuild } from "esbuild";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * The flow collector decodes in worker threads, and a thread starts from a file: the server bundle
 * has none to offer, so the thread's entry is bundled on its own beside it
 * (build/server/collector-worker.js, found by app/features/collector/runtime/thread-pool.server.ts).
 * Part of the server build, so `npm run build`, `npm start` and the tests' build all write it.
 */
function collectorWorker(): Plugin {
  let ssr = false;
  return {
    name: "flowlens-collector-worker",
    apply: "build",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    async writeBundle(options) {
      if (!ssr || !options.dir) return;
      await esbuild({
        entryPoints: [fileURLToPath(new URL("./app/features/collector/runtime/decode-worker.ts", import.meta.url))],
        outfile: path.join(options.dir, "collector-worker.js"),
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        logLevel: "warning",
        alias: { "~db": fileURLToPath(new URL("./db", import.meta.url)), "~": fileURLToPath(new URL("./app", import.meta.url)) },
      });
    },
  };
}

/**
 * Test files run side by side in this many worker processes, each file with stores of its own (tests/helpers/stores.ts).
 * vitest's default, one less than the cores, is a single worker on a 2-core machine such as CI's, though much of a
 * store-backed file's time is spent waiting for PostgreSQL, snmpd or a socket. TEST_WORKERS overrides it.
 */
const TEST_WORKERS = Number(process.env.TEST_WORKERS) || Math.max(2, os.availableParallelism());

// This file takes the role of remix.config.js (see docs/decisions/001-vite-config-replaces-remix-config.md).
export default defineConfig({
  plugins: [
    !process.env.VITEST &&
      remix({
        ignoredRouteFiles: ["**/*.test.*", "**/*.css"],
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
        },
      }),
    !process.env.VITEST && collectorWorker(),
  ],
  resolve: {
    alias: {
      "~db": fileURLToPath(new URL("./db", import.meta.url)),
      "~": fileURLToPath(new URL("./app", import.meta.url)),
    },
  },
  build: {
    // The server bundle awaits the store bootstrap at import time (top-level await).
    target: "es2022",
    chunkSizeWarningLimit: 1500,
  },
  optimizeDeps: {
    include: [
      "@mantine/core",
      "@mantine/hooks",
      "@mantine/dates",
      "@mantine/notifications",
      "mantine-react-table",
      "@tabler/icons-react",
      "@nivo/sankey",
      "@nivo/line",
      "@nivo/heatmap",
      "dayjs",
      "clsx",
      "zod",
    ],
    exclude: ["chdb", "@electric-sql/pglite", "postgres", "@clickhouse/client"],
  },
  ssr: {
    external: ["chdb", "@electric-sql/pglite", "postgres"],
  },
  test: {
    environment: "node",
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts", "app/**/*.test.{ts,tsx}", "db/**/*.test.ts"],
    // The run's folder for the demo network built once per period and copied into each file's stores.
    globalSetup: ["tests/helpers/demo-templates.global.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    maxWorkers: TEST_WORKERS,
    minWorkers: 1,
  },
});
