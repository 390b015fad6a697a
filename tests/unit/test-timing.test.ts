import { describe, expect, it } from "vitest";
import {
  addCounts,
  expectedTimes,
  fileTimings,
  formatDuration,
  notableTestLines,
  notableTests,
  partitionFiles,
  slowestFiles,
  timingReport,
} from "../../scripts/test-timing.mjs";

describe("formatDuration", () => {
  it("says milliseconds, seconds, or minutes and seconds", () => {
    expect(formatDuration(850)).toBe("850 ms");
    expect(formatDuration(12_345)).toBe("12.3 s");
    expect(formatDuration(245_000)).toBe("4 min 05 s");
    expect(formatDuration(2_916_000)).toBe("48 min 36 s");
    expect(formatDuration(Number.NaN)).toBe("?");
  });
});

describe("fileTimings", () => {
  it("counts a file's import, setup and hooks, not only its tests, with repository-relative paths", () => {
    const timings = fileTimings(
      [
        {
          filepath: "/repo/tests/integration/a.test.ts",
          collectDuration: 4_000.4,
          setupDuration: 100,
          result: { duration: 17_000, state: "pass" },
        },
        { filepath: "/repo/tests/unit/b.test.ts", prepareDuration: 50, environmentLoad: 10, result: { state: "fail" } },
        { filepath: "/elsewhere/c.test.ts" },
      ],
      "/repo",
    );
    expect(timings).toEqual([
      { file: "tests/integration/a.test.ts", ms: 21_100 },
      { file: "tests/unit/b.test.ts", ms: 60, failed: true },
      { file: "/elsewhere/c.test.ts", ms: 0 },
    ]);
  });
});

describe("slowestFiles", () => {
  it("lists the slowest files of all phases, slowest first, ties by path", () => {
    const slowest = slowestFiles(
      [
        {
          phase: "unit",
          files: [
            { file: "u1", ms: 5 },
            { file: "u2", ms: 30 },
            { file: "u3", ms: 20 },
          ],
        },
        {
          phase: "e2e",
          files: [
            { file: "e2", ms: 20 },
            { file: "e1", ms: 40 },
          ],
        },
      ],
      4,
    );
    expect(slowest.map((f) => `${f.phase}:${f.file}`)).toEqual(["e2e:e1", "unit:u2", "e2e:e2", "unit:u3"]);
  });
});

describe("addCounts", () => {
  it("adds the shards' counts and ignores a shard without a report", () => {
    expect(addCounts([{ total: 3, passed: 2, failed: 1, skipped: 0 }, null, { total: 5, passed: 4, failed: 0, skipped: 1 }])).toEqual({
      total: 8,
      passed: 6,
      failed: 1,
      skipped: 1,
    });
    expect(addCounts([null])).toBeNull();
  });
});

describe("partitionFiles", () => {
  it("gives each shard about the same time, the slowest files first", () => {
    const weights: Record<string, number> = { a: 10, b: 9, c: 6, d: 5, e: 4, f: 2 };
    const shards = partitionFiles(Object.keys(weights), 2, (f) => weights[f]);
    // a → 1st, b → 2nd, c → 2nd (15), d → 1st (15), e → 1st (19), f → 2nd (17); one shard of all would take 36.
    expect(shards).toEqual([
      ["a", "d", "e"],
      ["b", "c", "f"],
    ]);
    expect(shards.flat().sort()).toEqual(["a", "b", "c", "d", "e", "f"]);
  });

  it("keeps the files' order inside a shard and drops empty shards", () => {
    expect(partitionFiles(["x", "y"], 3, () => 1)).toEqual([["x"], ["y"]]);
    expect(partitionFiles(["p", "q", "r"], 1, (f) => (f === "r" ? 9 : 1))).toEqual([["p", "q", "r"]]);
  });
});

describe("expectedTimes", () => {
  it("uses the last run's time and scales the stand-in of a new file to it", () => {
    const size: Record<string, number> = { old1: 100, old2: 300, fresh: 200 };
    const expected = expectedTimes(
      [
        { file: "old1", ms: 1_000 },
        { file: "old2", ms: 3_000 },
      ],
      (f) => size[f] ?? 0,
    );
    expect(expected("old2")).toBe(3_000);
    expect(expected("fresh")).toBe(2_000);
  });

  it("falls back to the stand-in alone without a previous run", () => {
    expect(expectedTimes([], () => 42)("any")).toBe(42);
  });
});

describe("timingReport", () => {
  it("prints each phase, the total, and the slowest files with their phase", () => {
    const lines = timingReport({
      phases: [
        { name: "unit + integration", ms: 600_000 },
        { name: "e2e", ms: 540_000, note: "e2e 1/2: 12 files in 9 min 00 s" },
      ],
      files: [{ phase: "e2e", files: [{ file: "tests/e2e/flow-explorer.e2e.ts", ms: 200_000, failed: true }] }],
      totalMs: 1_200_000,
    });
    expect(lines).toEqual([
      "Time by phase (wall clock; a phase run beside another says so):",
      "  unit + integration   10 min 00 s",
      "  e2e                   9 min 00 s  e2e 1/2: 12 files in 9 min 00 s",
      "  total                20 min 00 s",
      "The 1 slowest test files (import, hooks and tests):",
      "    3 min 20 s  tests/e2e/flow-explorer.e2e.ts (e2e) FAILED",
    ]);
  });
});

describe("notableTests and notableTestLines", () => {
  const files = [
    {
      filepath: "/repo/tests/e2e/a.e2e.ts",
      tasks: [
        {
          type: "suite",
          name: "journey (JavaScript on)",
          tasks: [
            { type: "test", name: "saves", result: { state: "pass", retryCount: 1 } },
            { type: "test", name: "lists", result: { state: "pass", retryCount: 0 } },
            { type: "test", name: "deletes", result: { state: "fail", retryCount: 1 } },
            { type: "test", name: "skipped", mode: "skip" },
          ],
        },
      ],
    },
    { filepath: "/repo/tests/e2e/b.e2e.ts", tasks: [{ type: "test", name: "top level", result: { state: "fail" } }] },
  ];

  it("names the failed tests and those that passed only on a retry, with their suites and relative paths", () => {
    expect(notableTests(files, "/repo")).toEqual([
      { file: "tests/e2e/a.e2e.ts", name: "journey (JavaScript on) > saves", state: "passed on a retry", retries: 1 },
      { file: "tests/e2e/a.e2e.ts", name: "journey (JavaScript on) > deletes", state: "failed", retries: 1 },
      { file: "tests/e2e/b.e2e.ts", name: "top level", state: "failed", retries: 0 },
    ]);
  });

  it("prints the failed ones first, then the flaky ones; nothing when there are none", () => {
    expect(notableTestLines(notableTests(files, "/repo"))).toEqual([
      "Failed tests:",
      "  tests/e2e/a.e2e.ts > journey (JavaScript on) > deletes (1 retry)",
      "  tests/e2e/b.e2e.ts > top level",
      "Tests that passed only on a retry (flaky: they failed once in this run):",
      "  tests/e2e/a.e2e.ts > journey (JavaScript on) > saves (1 retry)",
    ]);
    expect(notableTestLines([])).toEqual([]);
  });
});
