// Start-up with a bad configuration: one clear message naming the problem, exit code 1, no stack trace.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

function startServer(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "flowlens-badstart-"));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["server.mjs", "build/server/index.js"], {
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: dataDir, DEMO_DATA: "off", ...env },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, output });
    });
  });
}

const STACK_LINE = /^\s+at .+\(.+:\d+:\d+\)$/m;

describe("start-up errors", () => {
  it("stops on a malformed DATABASE_URL, naming the variable", async () => {
    const { code, output } = await startServer({ DATABASE_URL: "mysql://db.example/flows", SESSION_SECRET: "s".repeat(40) });
    expect(code).toBe(1);
    expect(output).toContain("flowlens cannot start.");
    expect(output).toContain("DATABASE_URL: must be a URL starting with postgres:// or postgresql://");
    expect(output).not.toMatch(STACK_LINE);
  });

  it("stops when PostgreSQL cannot be reached", async () => {
    const { code, output } = await startServer({
      DATABASE_URL: "postgres://flowlens:pw@127.0.0.1:1/flowlens",
      SESSION_SECRET: "s".repeat(40),
    });
    expect(code).toBe(1);
    expect(output).toContain("PostgreSQL is not available: cannot connect to postgres://flowlens:***@127.0.0.1:1/flowlens");
    expect(output).not.toMatch(STACK_LINE);
  });

  it("stops when ClickHouse cannot be reached", async () => {
    const { code, output } = await startServer({ CLICKHOUSE_URL: "http://127.0.0.1:1" });
    expect(code).toBe(1);
    expect(output).toContain("ClickHouse is not available: cannot reach http://127.0.0.1:1");
    expect(output).not.toMatch(STACK_LINE);
  });

  it("stops on a bad PORT", async () => {
    const { code, output } = await startServer({ PORT: "http" });
    expect(code).toBe(1);
    expect(output).toMatch(/PORT: /);
  });
});
