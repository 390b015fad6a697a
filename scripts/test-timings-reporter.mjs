// A vitest reporter that writes each test file's wall-clock time (import, hooks and tests) to the JSON file named by
// TEST_TIMINGS_FILE: `npm test` (scripts/test.mjs) prints the slowest files of all its vitest runs from these.
// Used beside the default and JSON reporters: --reporter=./scripts/test-timings-reporter.mjs

import fs from "node:fs";
import path from "node:path";
import { fileTimings } from "./test-timing.mjs";

export default class TestTimingsReporter {
  onInit(ctx) {
    this.root = ctx.config.root;
  }

  onFinished(files = []) {
    const out = process.env.TEST_TIMINGS_FILE;
    if (!out) return;
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify({ files: fileTimings(files, this.root ?? process.cwd()) }, null, 1));
  }
}
