/**
 * Runs one external program for a network command: an argument array and never a shell (the
 * target cannot be read as shell syntax), a hard time limit (SIGKILL) and a cap on the output
 * kept, so neither a hanging router nor a flood of output can tie up the server.
 */
import { spawn as nodeSpawn, type ChildProcess, type SpawnOptions } from "node:child_process";

/** The part of node:child_process.spawn the executors use; tests pass their own. */
export type SpawnFn = (file: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

export const defaultSpawn: SpawnFn = (file, args, options) => nodeSpawn(file, [...args], options);

export type ProcessLimits = { timeoutMs: number; maxOutputBytes: number };

export type ProcessOutcome =
  | { kind: "exited"; code: number; output: string; truncated: boolean }
  | { kind: "timeout"; output: string; truncated: boolean }
  | { kind: "missing" }
  | { kind: "error"; message: string };

/**
 * Runs `file` with `args`; stdout and stderr are kept together, in arrival order. The program sees
 * only a fixed environment plus `extraEnv` (e.g. ssh's askpass settings).
 */
export function runProcess(
  spawn: SpawnFn,
  file: string,
  args: readonly string[],
  limits: ProcessLimits,
  extraEnv: Record<string, string> = {},
): Promise<ProcessOutcome> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(file, args, {
        shell: false,
        stdio: ["ignore", "pipe", "pipe"],
        // A fixed locale: the output is shown to users and read by tests ("0% packet loss").
        env: {
          NODE_ENV: process.env.NODE_ENV,
          PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
          LC_ALL: "C",
          LANG: "C",
          ...extraEnv,
        },
      });
    } catch (error) {
      resolve(spawnFailure(error));
      return;
    }
    const chunks: Buffer[] = [];
    let kept = 0;
    let truncated = false;
    let timedOut = false;
    let settled = false;
    const collect = (chunk: Buffer) => {
      if (kept >= limits.maxOutputBytes) {
        truncated = true;
        return;
      }
      const part = chunk.subarray(0, limits.maxOutputBytes - kept);
      if (part.length < chunk.length) truncated = true;
      chunks.push(part);
      kept += part.length;
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, limits.timeoutMs);
    const finish = (outcome: ProcessOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    child.on("error", (error) => finish(spawnFailure(error)));
    child.on("close", (code) => {
      const output = Buffer.concat(chunks).toString("utf8");
      if (timedOut) finish({ kind: "timeout", output, truncated });
      else finish({ kind: "exited", code: code ?? -1, output, truncated });
    });
  });
}

function spawnFailure(error: unknown): ProcessOutcome {
  if ((error as NodeJS.ErrnoException)?.code === "ENOENT") return { kind: "missing" };
  return { kind: "error", message: error instanceof Error ? error.message : String(error) };
}
