import { vitePlugin as remix } from "@remix-run/dev";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

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
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
