/**
 * A real Net-SNMP agent (Debian's `snmpd`) for the SNMP poller's tests: started on a free loopback
 * UDP port with a generated configuration — a v2c community, a v3 user with SHA authentication
 * and AES privacy — and its own interface tables switched off; IF-MIB's ifTable, ifXTable and
 * ifStackTable are served by the `pass` directive from a small script that reads a data file the
 * test writes, so the test chooses every counter. sysUpTime is the agent's own: a restart of
 * snmpd sets it back. `npm test` installs snmpd when it is missing (scripts/test.mjs); without it
 * the tests skip with the reason printed, except in CI (CI=true), where they fail.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createSocket } from "node:dgram";
import { existsSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { withSnmpSession } from "~/features/collector/snmp/client.server";

export const SNMPD_COMMUNITY = "flowlens-test";
export const SNMPD_V3 = {
  user: "flowlens",
  authProtocol: "SHA",
  authPassword: "auth-secret-1",
  privProtocol: "AES-128",
  privPassword: "priv-secret-1",
};

export function findSnmpd(): string | null {
  for (const candidate of ["/usr/sbin/snmpd", "/usr/local/sbin/snmpd"]) if (existsSync(candidate)) return candidate;
  const which = spawnSync("sh", ["-c", "command -v snmpd"], { encoding: "utf8" });
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null;
}

/** Null when snmpd is here; else why the tests cannot run (and in CI that is a failure, thrown). */
export function snmpdMissing(): string | null {
  if (findSnmpd()) return null;
  const reason = "snmpd (Debian package snmpd) is not installed: `npm test` installs it when run as root";
  if (process.env.CI === "true") throw new Error(`${reason}; in CI the SNMP poller tests must run`);
  console.warn(`SNMP poller tests skipped: ${reason}.`);
  return reason;
}

export type AgentInterface = {
  ifIndex: number;
  name: string;
  alias?: string;
  inOctets: bigint;
  outOctets: bigint;
  /** ifHighSpeed, Mbit/s. */
  speedMbps: number;
  /** 1 up, 2 down. */
  oper?: number;
};

const PASS_SCRIPT = `#!/bin/sh
# snmpd pass: -g OID (get) or -n OID (get next); answers OID, type, value from the data file.
awk -v mode="$1" -v req="$2" '
function cmp(a, b,   x, y, n, m, i) {
  n = split(substr(a, 2), x, "."); m = split(substr(b, 2), y, ".");
  for (i = 1; i <= n && i <= m; i++) { if (x[i] + 0 < y[i] + 0) return -1; if (x[i] + 0 > y[i] + 0) return 1 }
  return n < m ? -1 : (n > m ? 1 : 0)
}
{ oid = $1; type = $2; $1 = ""; $2 = ""; value = substr($0, 3)
  if (mode == "-g" && oid == req) { print oid; print type; print value; found = 1; exit }
  if (mode == "-n" && cmp(oid, req) > 0 && (best == "" || cmp(oid, best) < 0)) { best = oid; bt = type; bv = value }
}
END { if (mode == "-n" && best != "") { print best; print bt; print bv } }' "$(dirname "$0")/data.txt"
`;

/**
 * The same data through `pass_persist`: one long-running script (Node) instead of one run per
 * object, for the bench, where the agent should not be what is measured.
 */
const PASS_PERSIST_SCRIPT = `
const fs = require("node:fs");
const path = require("node:path");
const file = path.join(__dirname, "data.txt");
let cache = { key: "", rows: [] };
const parse = (oid) => oid.replace(/^\\./, "").split(".").map(Number);
const cmp = (a, b) => { for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i] - b[i]; return a.length - b.length; };
function rows() {
  const st = fs.statSync(file);
  const key = st.mtimeMs + ":" + st.size;
  if (cache.key !== key) {
    const list = fs.readFileSync(file, "utf8").split("\\n").filter(Boolean).map((line) => {
      const [oid, type, ...rest] = line.split(" ");
      return { oid, parts: parse(oid), type, value: rest.join(" ") };
    });
    list.sort((a, b) => cmp(a.parts, b.parts));
    cache = { key, rows: list };
  }
  return cache.rows;
}
let pending = null;
let buffer = "";
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let at;
  while ((at = buffer.indexOf("\\n")) >= 0) {
    const line = buffer.slice(0, at).trim();
    buffer = buffer.slice(at + 1);
    if (pending === "set") { pending = null; process.stdout.write("not-writable\\n"); continue; }
    if (pending === "set-oid") { pending = "set"; continue; }
    if (pending) {
      const want = parse(line);
      const list = rows();
      const hit = pending === "get" ? list.find((r) => cmp(r.parts, want) === 0) : list.find((r) => cmp(r.parts, want) > 0);
      pending = null;
      process.stdout.write(hit ? hit.oid + "\\n" + hit.type + "\\n" + hit.value + "\\n" : "NONE\\n");
      continue;
    }
    if (line === "PING") process.stdout.write("PONG\\n");
    else if (line === "get" || line === "getnext") pending = line;
    else if (line === "set") pending = "set-oid";
  }
});
`;

export type Snmpd = {
  port: number;
  dir: string;
  /** Replaces what the agent serves. */
  serve(interfaces: AgentInterface[], stack?: { higher: number; lower: number }[]): void;
  restart(): Promise<void>;
  stop(): Promise<void>;
};

async function freeUdpPort(): Promise<number> {
  const socket = createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

export async function startSnmpd(options: { persist?: boolean } = {}): Promise<Snmpd> {
  const binary = findSnmpd();
  if (!binary) throw new Error("snmpd is not installed");
  const dir = mkdtempSync(path.join(tmpdir(), "flowlens-snmpd-"));
  const port = await freeUdpPort();
  writeFileSync(path.join(dir, "pass.sh"), PASS_SCRIPT);
  chmodSync(path.join(dir, "pass.sh"), 0o755);
  writeFileSync(path.join(dir, "pass-persist.cjs"), PASS_PERSIST_SCRIPT);
  writeFileSync(path.join(dir, "data.txt"), "");
  const script = options.persist ? `${process.execPath} ${path.join(dir, "pass-persist.cjs")}` : path.join(dir, "pass.sh");
  const directive = options.persist ? "pass_persist" : "pass";
  writeFileSync(
    path.join(dir, "snmpd.conf"),
    [
      `agentAddress udp:127.0.0.1:${port}`,
      `rocommunity ${SNMPD_COMMUNITY} 127.0.0.1`,
      `createUser ${SNMPD_V3.user} SHA "${SNMPD_V3.authPassword}" AES "${SNMPD_V3.privPassword}"`,
      `rouser ${SNMPD_V3.user} priv`,
      `${directive} .1.3.6.1.2.1.2.2.1 ${script}`,
      `${directive} .1.3.6.1.2.1.31.1.1.1 ${script}`,
      `${directive} .1.3.6.1.2.1.31.1.2.1 ${script}`,
      "",
    ].join("\n"),
  );
  let child: ChildProcess | null = null;
  // An agent must not outlive a test run that ends without stopping it.
  process.once("exit", () => child?.kill("SIGTERM"));

  const launch = async () => {
    child = spawn(
      binary,
      [
        "-f",
        "-Lf",
        path.join(dir, "snmpd.log"),
        "-C",
        "-c",
        path.join(dir, "snmpd.conf"),
        "-I",
        "-ifTable,ifXTable,ifStackTable,interfaces",
        `--persistentDir=${path.join(dir, "persist")}`,
      ],
      { env: { ...process.env, MIBS: "", MIBDIRS: path.join(dir, "no-mibs") }, stdio: "ignore" },
    );
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await withSnmpSession(
          {
            host: "127.0.0.1",
            port,
            version: "2c",
            community: SNMPD_COMMUNITY,
            user: null,
            authProtocol: null,
            authPassword: null,
            privProtocol: null,
            privPassword: null,
            timeoutMs: 300,
            retries: 0,
          },
          (s) => s.get(["1.3.6.1.2.1.1.3.0"]),
        );
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`snmpd did not answer on 127.0.0.1:${port}: ${String(error)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const halt = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve());
      running.kill("SIGTERM");
    });
  };

  await launch();
  return {
    port,
    dir,
    serve(interfaces, stack = []) {
      const lines: string[] = [];
      for (const i of interfaces) {
        lines.push(`.1.3.6.1.2.1.2.2.1.8.${i.ifIndex} integer ${i.oper ?? 1}`);
        lines.push(`.1.3.6.1.2.1.31.1.1.1.1.${i.ifIndex} string ${i.name}`);
        lines.push(`.1.3.6.1.2.1.31.1.1.1.6.${i.ifIndex} counter64 ${i.inOctets}`);
        lines.push(`.1.3.6.1.2.1.31.1.1.1.10.${i.ifIndex} counter64 ${i.outOctets}`);
        lines.push(`.1.3.6.1.2.1.31.1.1.1.15.${i.ifIndex} gauge ${i.speedMbps}`);
        lines.push(`.1.3.6.1.2.1.31.1.1.1.18.${i.ifIndex} string ${i.alias ?? ""}`);
      }
      for (const s of stack) lines.push(`.1.3.6.1.2.1.31.1.2.1.3.${s.higher}.${s.lower} integer 1`);
      writeFileSync(path.join(dir, "data.txt"), `${lines.join("\n")}\n`);
    },
    async restart() {
      await halt();
      await launch();
    },
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
