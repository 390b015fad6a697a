/**
 * Ping and traceroute run on this server (vantage points without an SSH configuration): Debian's
 * iputils-ping and traceroute, started without a shell, with bounded probes and a hard time limit.
 */
import type { NetcommandQueryType } from "~db/postgres/schema";
import { normalizeAddressTerm, type IpAddress } from "~/lib/ip";
import { MESSAGES } from "~/lib/messages";
import { MAX_OUTPUT_BYTES, outputCutNote, type CommandOutcome } from "./outcome";
import { defaultSpawn, runProcess, type SpawnFn } from "./process.server";

type Tool = { file: string; pkg: string; timeoutMs: number; args: (address: IpAddress, text: string) => string[] };

/**
 * ping: 4 echo requests, 2 s to wait for each reply, 10 s at most in all (-w). traceroute: one
 * probe per hop, 2 s per probe, at most 20 hops. -n everywhere: no DNS lookups from the server.
 * The hard limits stop the process if the tool itself overruns them.
 */
export const LOCAL_TOOLS: Record<NetcommandQueryType, Tool> = {
  PingQuery: {
    file: "ping",
    pkg: "iputils-ping",
    timeoutMs: 15_000,
    args: (address, text) => [address.version === 6 ? "-6" : "-4", "-n", "-c", "4", "-W", "2", "-w", "10", text],
  },
  TracerouteQuery: {
    file: "traceroute",
    pkg: "traceroute",
    timeoutMs: 60_000,
    args: (address, text) => [address.version === 6 ? "-6" : "-4", "-n", "-q", "1", "-w", "2", "-m", "20", text],
  },
};

/** The program and arguments for a command, or null when the target is not an IP address. */
export function localCommand(queryType: NetcommandQueryType, target: string): { file: string; args: string[] } | null {
  const address = normalizeAddressTerm(target);
  if (!address.ok) return null;
  const tool = LOCAL_TOOLS[queryType];
  return { file: tool.file, args: tool.args(address.address, address.value) };
}

/**
 * Runs ping or traceroute here. The target is checked again before anything is started, so no
 * caller can hand the program something other than an address.
 */
export async function runLocalCommand(
  queryType: NetcommandQueryType,
  target: string,
  options: { spawn?: SpawnFn; timeoutMs?: number } = {},
): Promise<CommandOutcome> {
  const command = localCommand(queryType, target);
  if (!command) return { ok: false, message: MESSAGES.invalidIpAddress, transient: false };
  const tool = LOCAL_TOOLS[queryType];
  const timeoutMs = options.timeoutMs ?? tool.timeoutMs;
  const outcome = await runProcess(options.spawn ?? defaultSpawn, command.file, command.args, {
    timeoutMs,
    maxOutputBytes: MAX_OUTPUT_BYTES,
  });
  switch (outcome.kind) {
    case "missing":
      return { ok: false, message: `${tool.file} is not installed on the server (install ${tool.pkg}).`, transient: false };
    case "error":
      // e.g. EAGAIN when the process table is full: worth one more try.
      return { ok: false, message: `${tool.file} could not be started: ${outcome.message}`, transient: true };
    case "timeout":
      return {
        ok: false,
        message: `${tool.file} did not finish within ${Math.round(timeoutMs / 1000)} s.\n${outcome.output}`.trimEnd(),
        transient: false,
      };
    case "exited": {
      const output = outcome.output + (outcome.truncated ? outputCutNote : "");
      // ping exits with 1 when no reply came: a valid answer ("100% packet loss"), not a failure.
      const answered = outcome.code === 0 || (queryType === "PingQuery" && outcome.code === 1);
      if (answered) return { ok: true, output };
      return { ok: false, message: output.trim() || `${tool.file} failed (exit code ${outcome.code}).`, transient: false };
    }
  }
}
