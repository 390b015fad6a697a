/**
 * vitest globalSetup (vite.config.ts): the run's folder for the demo templates (tests/helpers/demo-template.ts),
 * given to the test files as inject("demoTemplates"). Nothing is built here: a run of files that need no demo
 * pays nothing. When the run ends, the template databases built on DATABASE_URL are dropped and the folder removed.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";

/** The file in the run's folder that lists the template databases, one name a line, for the run's end to drop. */
export const TEMPLATE_DATABASES = "databases.txt";

export default function setup(project: TestProject) {
  const root = mkdtempSync(path.join(tmpdir(), "flowlens-demo-templates-"));
  project.provide("demoTemplates", root);
  return async () => {
    const serverUrl = process.env.DATABASE_URL;
    let names: string[] = [];
    try {
      names = readFileSync(path.join(root, TEMPLATE_DATABASES), "utf8").split("\n").filter(Boolean);
    } catch {
      // no template was built on a server
    }
    if (serverUrl && names.length) {
      const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
      try {
        for (const name of names) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    }
    rmSync(root, { recursive: true, force: true });
  };
}
