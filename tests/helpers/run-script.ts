import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");

export type ScriptRun = { code: number | null; stdout: string; stderr: string };

/** Runs one of scripts/*.ts as `npm run` would (tsx, from the project root) and collects its output; `env` adds variables. */
export function runScript(script: string, args: string[], env?: Record<string, string>): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [path.join("scripts", script), ...args], { cwd: ROOT, env: env ? { ...process.env, ...env } : undefined });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
