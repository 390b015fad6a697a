import type { ChildProcess, SpawnOptions } from "node:child_process";
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { LOCAL_TOOLS, runLocalCommand } from "~/features/netcommand/local.server";
import { MAX_OUTPUT_BYTES } from "~/features/netcommand/outcome";
import { defaultSpawn, runProcess, type SpawnFn } from "~/features/netcommand/process.server";
import { routerCommand, runSshCommand, sshArgs } from "~/features/netcommand/ssh.server";
import { MESSAGES } from "~/lib/messages";
import { parseIpAddress } from "~/lib/ip";
import type { NetcommandSshTarget } from "~/server/env.server";

type Call = { file: string; args: readonly string[]; options: SpawnOptions };
type Script = { output?: string; code?: number; error?: NodeJS.ErrnoException };

/** A spawn that records its calls and plays a script instead of starting a process. */
function fakeSpawn(script: Script = {}): SpawnFn & { calls: Call[] } {
  const calls: Call[] = [];
  const spawn = ((file: string, args: readonly string[], options: SpawnOptions) => {
    calls.push({ file, args, options });
    const child = new EventEmitter() as ChildProcess;
    const stdout = new PassThrough();
    Object.assign(child, { stdout, stderr: new PassThrough(), kill: () => true });
    setImmediate(() => {
      if (script.error) {
        child.emit("error", script.error);
        return;
      }
      if (script.output) stdout.write(script.output);
      stdout.end();
      setImmediate(() => child.emit("close", script.code ?? 0));
    });
    return child;
  }) as SpawnFn & { calls: Call[] };
  spawn.calls = calls;
  return spawn;
}

const INVALID = [
  "",
  "localhost",
  "127.0.0.1; id",
  "127.0.0.1 && reboot",
  "-c 100000 127.0.0.1",
  "$(id)",
  "10.0.0.0/8",
  "::1::",
  "1.2.3.4.5",
];

describe("local executor", () => {
  it.each(INVALID)("never starts a process for the invalid target %j", async (target) => {
    for (const type of ["PingQuery", "TracerouteQuery"] as const) {
      const spawn = fakeSpawn();
      expect(await runLocalCommand(type, target, { spawn })).toEqual({ ok: false, message: MESSAGES.invalidIpAddress, transient: false });
      expect(spawn.calls).toHaveLength(0);
    }
  });

  it("runs ping with bounded count and time, as an argument array without a shell", async () => {
    const spawn = fakeSpawn({ output: "4 packets transmitted, 4 received, 0% packet loss\n" });
    expect(await runLocalCommand("PingQuery", " 127.0.0.1 ", { spawn })).toEqual({
      ok: true,
      output: "4 packets transmitted, 4 received, 0% packet loss\n",
    });
    expect(spawn.calls).toHaveLength(1);
    expect(spawn.calls[0].file).toBe("ping");
    expect(spawn.calls[0].args).toEqual(["-4", "-n", "-c", "4", "-W", "2", "-w", "10", "127.0.0.1"]);
    expect(spawn.calls[0].options.shell).toBe(false);
    expect(spawn.calls[0].options.env?.LC_ALL).toBe("C");
  });

  it("runs traceroute with one probe per hop and at most 20 hops; IPv6 normalised and with -6", async () => {
    const spawn = fakeSpawn({ output: " 1  2001:db8::1  0.1 ms\n" });
    expect((await runLocalCommand("TracerouteQuery", "2001:DB8:0::1", { spawn })).ok).toBe(true);
    expect(spawn.calls[0].file).toBe("traceroute");
    expect(spawn.calls[0].args).toEqual(["-6", "-n", "-q", "1", "-w", "2", "-m", "20", "2001:db8::1"]);
  });

  it("treats a ping without replies (exit 1) as an answer, other exits as failures with the tool's text", async () => {
    expect(await runLocalCommand("PingQuery", "192.0.2.1", { spawn: fakeSpawn({ output: "100% packet loss\n", code: 1 }) })).toEqual({
      ok: true,
      output: "100% packet loss\n",
    });
    expect(
      await runLocalCommand("PingQuery", "192.0.2.1", { spawn: fakeSpawn({ output: "ping: connect: Network is unreachable\n", code: 2 }) }),
    ).toEqual({
      ok: false,
      message: "ping: connect: Network is unreachable",
      transient: false,
    });
    expect(await runLocalCommand("TracerouteQuery", "192.0.2.1", { spawn: fakeSpawn({ code: 1 }) })).toEqual({
      ok: false,
      message: "traceroute failed (exit code 1).",
      transient: false,
    });
  });

  it("says which package to install when the tool is missing", async () => {
    const enoent = Object.assign(new Error("spawn ping ENOENT"), { code: "ENOENT" });
    expect(await runLocalCommand("PingQuery", "192.0.2.1", { spawn: fakeSpawn({ error: enoent }) })).toEqual({
      ok: false,
      message: "ping is not installed on the server (install iputils-ping).",
      transient: false,
    });
    expect((await runLocalCommand("TracerouteQuery", "192.0.2.1", { spawn: fakeSpawn({ error: enoent }) })).ok).toBe(false);
    const missing = await runLocalCommand("TracerouteQuery", "192.0.2.1", { spawn: fakeSpawn({ error: enoent }) });
    expect(missing).toMatchObject({ message: "traceroute is not installed on the server (install traceroute)." });
    // A resource shortage is worth one more try.
    const eagain = Object.assign(new Error("spawn EAGAIN"), { code: "EAGAIN" });
    expect(await runLocalCommand("PingQuery", "192.0.2.1", { spawn: fakeSpawn({ error: eagain }) })).toMatchObject({
      ok: false,
      transient: true,
    });
  });

  it("reports a missing program through the real spawn", async () => {
    expect(await runProcess(defaultSpawn, "flowlens-no-such-program", [], { timeoutMs: 5_000, maxOutputBytes: 100 })).toEqual({
      kind: "missing",
    });
  });

  it("kills a process that overruns its time limit and keeps what it printed", async () => {
    const started = Date.now();
    const outcome = await runProcess(defaultSpawn, process.execPath, ["-e", "console.log('hop 1'); setTimeout(() => {}, 30000)"], {
      timeoutMs: 1_000,
      maxOutputBytes: 1000,
    });
    expect(outcome).toEqual({ kind: "timeout", output: "hop 1\n", truncated: false });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("caps the output kept", async () => {
    const outcome = await runProcess(defaultSpawn, process.execPath, ["-e", "process.stdout.write('x'.repeat(300000))"], {
      timeoutMs: 10_000,
      maxOutputBytes: MAX_OUTPUT_BYTES,
    });
    expect(outcome).toMatchObject({ kind: "exited", code: 0, truncated: true });
    expect(outcome.kind === "exited" && outcome.output.length).toBe(MAX_OUTPUT_BYTES);
  });

  it("has hard time limits above the tools' own bounds", () => {
    expect(LOCAL_TOOLS.PingQuery.timeoutMs).toBeGreaterThan(10_000);
    expect(LOCAL_TOOLS.TracerouteQuery.timeoutMs).toBeGreaterThan(20 * 2_000);
  });
});

describe("SSH executor", () => {
  const router: NetcommandSshTarget = {
    host: "192.0.2.10",
    user: "lg",
    port: 2222,
    identityFile: "/etc/flowlens/lg_key",
    vendor: "juniper",
  };

  it("builds each vendor's command from the normalised address", () => {
    const v4 = parseIpAddress("192.0.2.1")!;
    const v6 = parseIpAddress("2001:db8::1")!;
    expect(routerCommand("juniper", "PingQuery", v4, "192.0.2.1")).toBe("ping 192.0.2.1 count 4 wait 2");
    expect(routerCommand("juniper", "TracerouteQuery", v6, "2001:db8::1")).toBe("traceroute inet6 2001:db8::1 no-resolve wait 2 ttl 20");
    expect(routerCommand("cisco", "PingQuery", v6, "2001:db8::1")).toBe("ping ipv6 2001:db8::1 count 4 timeout 2");
    expect(routerCommand("cisco", "TracerouteQuery", v4, "192.0.2.1")).toBe("traceroute ipv4 192.0.2.1 numeric timeout 2 maxttl 20");
  });

  it("runs ssh in batch mode with a connect timeout, checked host keys and the command as one argument", async () => {
    const spawn = fakeSpawn({ output: "4 packets received\n" });
    expect(await runSshCommand(router, "PingQuery", "192.0.2.1", { spawn })).toEqual({ ok: true, output: "4 packets received\n" });
    const { file, args, options } = spawn.calls[0];
    expect(file).toBe("ssh");
    expect(options.shell).toBe(false);
    expect(args).toEqual(sshArgs(router, "ping 192.0.2.1 count 4 wait 2"));
    expect(args).toEqual(
      expect.arrayContaining([
        "BatchMode=yes",
        "ConnectTimeout=10",
        "StrictHostKeyChecking=yes",
        "-i",
        "/etc/flowlens/lg_key",
        "-p",
        "2222",
        "-l",
        "lg",
      ]),
    );
    expect(args.slice(-3)).toEqual(["--", "192.0.2.10", "ping 192.0.2.1 count 4 wait 2"]);
  });

  it("never connects for an invalid target", async () => {
    for (const target of INVALID) {
      const spawn = fakeSpawn();
      expect(await runSshCommand(router, "TracerouteQuery", target, { spawn })).toMatchObject({
        ok: false,
        message: MESSAGES.invalidIpAddress,
      });
      expect(spawn.calls).toHaveLength(0);
    }
  });

  it("marks a failed connection (exit 255) as transient, and names a missing ssh", async () => {
    expect(
      await runSshCommand(router, "PingQuery", "192.0.2.1", {
        spawn: fakeSpawn({ output: "ssh: connect to host 192.0.2.10 port 2222: Connection refused\n", code: 255 }),
      }),
    ).toEqual({
      ok: false,
      message: "Could not connect to the router 192.0.2.10 over SSH.\nssh: connect to host 192.0.2.10 port 2222: Connection refused",
      transient: true,
    });
    const enoent = Object.assign(new Error("spawn ssh ENOENT"), { code: "ENOENT" });
    expect(await runSshCommand(router, "PingQuery", "192.0.2.1", { spawn: fakeSpawn({ error: enoent }) })).toEqual({
      ok: false,
      message: "ssh is not installed on the server (install openssh-client).",
      transient: false,
    });
  });
});
