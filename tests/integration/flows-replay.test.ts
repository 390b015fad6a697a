import { createSocket, type Socket } from "node:dgram";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "../helpers/run-script";
import { parseReplayTarget, replayDatagrams } from "~/features/collector/pcap/replay.server";
import { writePcap, type DatagramToWrite } from "~/features/collector/pcap/pcap-writer";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "flowlens-replay-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Distinct payloads (the index in the first two bytes) of various sizes, from both IP versions. */
function datagrams(count: number, first = 0): DatagramToWrite[] {
  return Array.from({ length: count }, (_, i) => {
    const n = first + i;
    const payload = Uint8Array.from({ length: 20 + ((n * 37) % 1200) }, (_, j) => (j < 2 ? (n >> (8 * (1 - j))) & 0xff : (n + j) & 0xff));
    const v6 = n % 3 === 0;
    return {
      timestampMs: 1_700_000_000_000 + n,
      srcAddr: v6 ? "2001:db8::1" : "192.0.2.1",
      srcPort: 40000,
      dstAddr: v6 ? "2001:db8::2" : "192.0.2.2",
      dstPort: 2055,
      payload,
    };
  });
}

function writeCapture(name: string, content: DatagramToWrite[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, writePcap(content));
  return file;
}

async function receiver(): Promise<{ socket: Socket; port: number; received: Buffer[]; arrived: (n: number) => Promise<void> }> {
  const socket = createSocket("udp4");
  const received: Buffer[] = [];
  socket.on("message", (message) => received.push(message));
  socket.bind(0, "127.0.0.1");
  await once(socket, "listening");
  const arrived = async (n: number) => {
    const deadline = Date.now() + 10_000;
    while (received.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  };
  return { socket, port: socket.address().port, received, arrived };
}

const run = (args: string[]) => runScript("flows-replay.ts", args);

describe("npm run flows:replay", () => {
  it("sends every UDP payload of the files, in file order and byte-identical, --loop times", async () => {
    const first = datagrams(40);
    const second = datagrams(25, 40);
    const files = [writeCapture("first.pcap", first), writeCapture("second.pcap", second)];
    const { socket, port, received, arrived } = await receiver();
    try {
      // Paced: unpaced, a busy machine's receiver (this test's own event loop) can fall behind and the
      // kernel drops datagrams from its full socket buffer, which is UDP, not a fault of the replay.
      const result = await run(["--to", `127.0.0.1:${port}`, "--loop", "2", "--rate", "1000/s", ...files]);
      expect(result.code, result.stderr).toBe(0);
      const payloads = [...first, ...second].map((d) => Buffer.from(d.payload));
      await arrived(payloads.length * 2);
      // Loopback does not reorder; at this pace nothing is dropped, so a loss would show as a shorter list.
      expect(received).toEqual([...payloads, ...payloads]);
      const bytes = payloads.reduce((n, p) => n + p.length, 0) * 2;
      expect(result.stdout).toMatch(
        new RegExp(`^sent 130 datagrams, ${bytes.toLocaleString("en-US")} bytes to 127\\.0\\.0\\.1:${port} in \\d+\\.\\d\\d s\\n$`),
      );
      expect(result.stderr).toBe("first.pcap: 40 packets, 40 UDP datagrams\nsecond.pcap: 25 packets, 25 UDP datagrams\n");
    } finally {
      socket.close();
    }
  }, 60_000);

  it.each([
    [[], /--to is required/],
    [["--to", "127.0.0.1"], /--to 127\.0\.0\.1: expected HOST:PORT or \[IPv6\]:PORT/],
    [["--to", "127.0.0.1:2055", "--rate", "fast", "x.pcap"], /--rate fast: expected datagrams per second/],
    [["--to", "127.0.0.1:2055", "--loop", "0", "x.pcap"], /--loop 0: expected a whole number of passes/],
    [["--to", "127.0.0.1:2055"], /no capture file given/],
    [["--to", "127.0.0.1:2055", "--speed", "2", "x.pcap"], /unknown option --speed/],
  ])(
    "answers bad arguments %j with the usage and exit code 2",
    async (args, message) => {
      const result = await run(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toContain("usage: npm run flows:replay -- --to HOST:PORT [--rate N/s] [--loop N] FILE.pcap…");
    },
    60_000,
  );

  it("names the file that is not a capture and exits 1 before sending anything", async () => {
    const garbage = path.join(dir, "garbage.pcap");
    writeFileSync(garbage, "not a capture");
    const { socket, port, received } = await receiver();
    try {
      const result = await run(["--to", `127.0.0.1:${port}`, writeCapture("good.pcap", datagrams(3)), garbage]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`${garbage}: not a readable capture at byte 0: unknown magic number`);
      await new Promise((r) => setTimeout(r, 100));
      expect(received).toEqual([]);
    } finally {
      socket.close();
    }
  }, 60_000);
});

describe("replayDatagrams", () => {
  it("paces to the rate asked for", async () => {
    const { socket, port, received, arrived } = await receiver();
    try {
      const payloads = datagrams(11).map((d) => d.payload);
      const summary = await replayDatagrams(payloads, parseReplayTarget(`127.0.0.1:${port}`)!, { ratePerSecond: 50 });
      await arrived(11);
      expect(received).toHaveLength(11);
      // Datagram 11 leaves 10 intervals of 20 ms after the first.
      expect(summary.seconds).toBeGreaterThanOrEqual(0.19);
      expect(summary).toMatchObject({ datagrams: 11, bytes: payloads.reduce((n, p) => n + p.length, 0) });
    } finally {
      socket.close();
    }
  });

  it.each([
    ["127.0.0.1:2055", { host: "127.0.0.1", port: 2055, family: 4 }],
    ["collector.example.net:6343", { host: "collector.example.net", port: 6343, family: 4 }],
    ["[2001:db8::1]:4739", { host: "2001:db8::1", port: 4739, family: 6 }],
    ["[192.0.2.1]:4739", null],
    ["2001:db8::1:4739", null],
    ["127.0.0.1:0", null],
    ["127.0.0.1:70000", null],
  ])("reads the target %s", (text, target) => {
    expect(parseReplayTarget(text)).toEqual(target);
  });
});
