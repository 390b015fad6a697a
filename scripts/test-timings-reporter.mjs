// A vitest reporter that writes each test file's wall-clock time (import, hooks and tests), and the tests that failed or
// passed only on a retry, to the JSON file named by TEST_TIMINGS_FILE: `npm test` (scripts/test.mjs) prints the slowest
// files of all its vitest runs and those tests from these.
// Used beside the default and JSON reporters: --reporter=./scripts/test-timings-reporter.mjs

import fs from "node:fs";
import path from "node:path";
import { fileTimings, notableTests } from "./test-timing.mjs";

export default class TestTimingsReporter {
  onInit(ctx) {
    this.root = ctx.config.root;
  }

  onFinished(files = []) {
    const out = process.env.TEST_TIMINGS_FILE;
    if (!out) return;
    const root = this.root ?? process.cwd();
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify({ files: fileTimings(files, root), tests: notableTests(files, root) }, null, 1));
  }
}
