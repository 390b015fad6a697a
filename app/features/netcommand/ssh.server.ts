/**
 * Ping and traceroute run on a router vantage point over SSH (settings from the inventory or
 * NETCOMMAND_SSH): the system's `ssh` in batch mode (key authentication, never a prompt) or, for a
 * router with a stored password, with the password handed over by an askpass program; host keys
 * always checked, and the vendor's own ping or traceroute command. The router's CLI reads the command line, so only a
 * validated, normalised address is ever placed into it.
 */
import type { NetcommandQueryType } from "~db/postgres/schema";
import { normalizeAddressTerm, type IpAddress } from "~/lib/ip";
import { MESSAGES } from "~/lib/messages";
import type { NetcommandSshTarget } from "~/server/env.server";
import { MAX_OUTPUT_BYTES, outputCutNote, type CommandOutcome } from "./outcome";
import { defaultSpawn, runProcess, type SpawnFn } from "./process.server";

export const SSH_CONNECT_TIMEOUT_S = 10;
/** Connection plus the router's own ping (4 probes) or traceroute (20 hops, 2 s each) with room to spare. */
export const SSH_TIMEOUT_MS = 90_000;
/** ssh's own exit code for a connection or authentication failure (the remote command never ran). */
const SSH_CONNECTION_FAILED = 255;

/** The router CLI command: Junos or Cisco IOS XR syntax, 4 pings or 20 hops with 2 s per probe, no DNS. */
export function routerCommand(
  vendor: NetcommandSshTarget["vendor"],
  queryType: NetcommandQueryType,
  address: IpAddress,
  text: string,
): string {
  const six = address.version === 6;
  if (vendor === "juniper") {
    return queryType === "PingQuery"
      ? `ping ${six ? "inet6 " : ""}${text} count 4 wait 2`
      : `traceroute ${six ? "inet6 " : ""}${text} no-resolve wait 2 ttl 20`;
  }
  return queryType === "PingQuery"
    ? `ping ${six ? "ipv6" : "ipv4"} ${text} count 4 timeout 2`
    : `traceroute ${six ? "ipv6" : "ipv4"} ${text} numeric timeout 2 maxttl 20`;
}

/**
 * A password login: ssh runs `askpassFile` for the password (SSH_ASKPASS_REQUIRE=force) instead of
 * asking a terminal, once; batch mode stays off only for this, and host keys are still checked.
 */
export type SshPasswordLogin = { askpassFile: string };

/** ssh's arguments: options, then "--", the host and the remote command as one argument. */
export function sshArgs(target: NetcommandSshTarget, remoteCommand: string, password?: SshPasswordLogin): string[] {
  return [
    "-T",
    "-o",
    password ? "BatchMode=no" : "BatchMode=yes",
    ...(password ? ["-o", "NumberOfPasswordPrompts=1"] : []),
    "-o",
    `ConnectTimeout=${SSH_CONNECT_TIMEOUT_S}`,
    "-o",
    "StrictHostKeyChecking=yes",
    ...(target.knownHostsFile ? ["-o", `UserKnownHostsFile=${target.knownHostsFile}`] : []),
    ...(target.identityFile ? ["-i", target.identityFile, "-o", "IdentitiesOnly=yes"] : []),
    "-p",
    String(target.port),
    "-l",
    target.user,
    "--",
    target.host,
    remoteCommand,
  ];
}

export async function runSshCommand(
  target: NetcommandSshTarget,
  queryType: NetcommandQueryType,
  targetAddress: string,
  options: { spawn?: SpawnFn; timeoutMs?: number; password?: SshPasswordLogin } = {},
): Promise<CommandOutcome> {
  const address = normalizeAddressTerm(targetAddress);
  if (!address.ok) return { ok: false, message: MESSAGES.invalidIpAddress, transient: false };
  const args = sshArgs(target, routerCommand(target.vendor, queryType, address.address, address.value), options.password);
  const timeoutMs = options.timeoutMs ?? SSH_TIMEOUT_MS;
  const askpass: Record<string, string> = options.password
    ? { SSH_ASKPASS: options.password.askpassFile, SSH_ASKPASS_REQUIRE: "force" }
    : {};
  const outcome = await runProcess(options.spawn ?? defaultSpawn, "ssh", args, { timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES }, askpass);
  switch (outcome.kind) {
    case "missing":
      return { ok: false, message: "ssh is not installed on the server (install openssh-client).", transient: false };
    case "error":
      return { ok: false, message: `ssh could not be started: ${outcome.message}`, transient: true };
    case "timeout":
      return {
        ok: false,
        message: `The router did not answer within ${Math.round(timeoutMs / 1000)} s.\n${outcome.output}`.trimEnd(),
        transient: false,
      };
    case "exited": {
      if (outcome.code === SSH_CONNECTION_FAILED) {
        // Unreachable router or a refused login: possibly passing, so the job is retried once.
        return {
          ok: false,
          message: `Could not connect to the router ${target.host} over SSH.\n${outcome.output}`.trimEnd(),
          transient: true,
        };
      }
      const output = outcome.output + (outcome.truncated ? outputCutNote : "");
      if (outcome.code === 0) return { ok: true, output };
      return { ok: false, message: output.trim() || `The router's command failed (exit code ${outcome.code}).`, transient: false };
    }
  }
}
