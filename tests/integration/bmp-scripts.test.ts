/**
 * npm run bmp:replay and npm run -s bmp:decode, run as a support engineer runs them, on captures
 * written here: TCP streams with reordered, retransmitted and overlapping segments and lost ones,
 * over IPv4 and IPv6, replayed to a local TCP server (port 0).
 */
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "../helpers/run-script";
import { writeTcpPcap, type SegmentToWrite } from "~/features/collector/pcap/pcap-writer";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "flowlens-bmp-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0);
const ROUTER = { srcAddr: "192.0.2.61", srcPort: 40123, dstAddr: "198.51.100.6", dstPort: 1790 };
const ROUTER6 = { srcAddr: "2001:db8::61", srcPort: 50000, dstAddr: "2001:db8:1::6", dstPort: 11019 };

/** A BMP v3 frame (common header) of `type` around `body`; framing is all the replay looks at. */
function frame(type: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(6 + body.length);
  out[0] = 3;
  new DataView(out.buffer).setUint32(1, out.length);
  out[5] = type;
  out.set(body, 6);
  return out;
}

/** `count` messages of various sizes with distinct content. */
const messages = (count: number, seed: number, size = 300) =>
  Array.from({ length: count }, (_, i) =>
    frame(
      i % 7,
      Uint8Array.from({ length: 20 + ((i * 97) % size) }, (_, j) => (seed + i * 31 + j) & 0xff),
    ),
  );

const join = (parts: Uint8Array[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));

type Ends = typeof ROUTER;

/** The stream cut into segments of `size` bytes from sequence number `first`, with the SYN before them. */
function segments(ends: Ends, data: Uint8Array, isn: number, size: number): SegmentToWrite[] {
  const out: SegmentToWrite[] = [{ ...ends, timestampMs: T0, seq: isn, syn: true }];
  for (let at = 0; at < data.length; at += size)
    out.push({ ...ends, timestampMs: T0 + at, seq: isn + 1 + at, ack: 1, payload: data.subarray(at, at + size) });
  return out;
}

function capture(name: string, content: SegmentToWrite[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, writeTcpPcap(content));
  return file;
}

type Station = { server: Server; port: number; connections: Buffer[][]; closed: () => Promise<void> };

/** A TCP server that keeps what each connection sent and closes its side when the sender does (as a station does). */
async function station(host = "127.0.0.1", behaviour: "read" | "close at once" = "read"): Promise<Station> {
  const connections: Buffer[][] = [];
  let ended = 0;
  const server = createServer((socket) => {
    if (behaviour === "close at once") {
      socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    connections.push(chunks);
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", () => {
      ended += 1;
      socket.end();
    });
  });
  server.listen(0, host);
  await once(server, "listening");
  const closed = async () => {
    const deadline = Date.now() + 10_000;
    while (ended < connections.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  };
  return { server, port: (server.address() as AddressInfo).port, connections, closed };
}

const replay = (args: string[]) => runScript("bmp-replay.ts", args);
const USAGE = "usage: npm run bmp:replay -- --to HOST:PORT [--per-stream] [--rate N/s] FILE.pcap…";

describe("npm run bmp:replay", () => {
  it("sends the reassembled streams of the files in file order on one connection, byte-identical", async () => {
    const first = messages(30, 1);
    const second = messages(12, 2);
    const firstBytes = join(first);
    const secondBytes = join(second);
    // File 1 (IPv4, sequence numbers wrapping): segments 3 and 4 swapped, 6 retransmitted, 900 bytes from byte 4,000 sent again.
    const isn = 2 ** 32 - 2_000;
    const v4 = segments(ROUTER, firstBytes, isn, 536);
    [v4[3], v4[4]] = [v4[4], v4[3]];
    v4.splice(7, 0, v4[6]);
    v4.splice(10, 0, { ...ROUTER, seq: isn + 1 + 4_000, ack: 1, payload: firstBytes.subarray(4_000, 4_900) });
    // The station's acknowledgements: a direction without payload.
    v4.push({
      ...ROUTER,
      srcAddr: ROUTER.dstAddr,
      srcPort: ROUTER.dstPort,
      dstAddr: ROUTER.srcAddr,
      dstPort: ROUTER.srcPort,
      seq: 5,
      ack: 99,
    });
    const files = [capture("router-1.pcap", v4), capture("router-2.pcap", segments(ROUTER6, secondBytes, 1_000, 1_200))];
    const target = await station();
    try {
      const result = await replay(["--to", `127.0.0.1:${target.port}`, ...files]);
      expect(result.code, result.stderr).toBe(0);
      await target.closed();
      expect(target.connections).toHaveLength(1);
      expect(Buffer.concat(target.connections[0])).toEqual(Buffer.concat([firstBytes, secondBytes]));
      const bytes = (firstBytes.length + secondBytes.length).toLocaleString("en-US");
      expect(result.stdout).toMatch(
        new RegExp(
          `^sent 42 BMP messages, ${bytes} bytes of 2 streams from 2 files on 1 connection to 127\\.0\\.0\\.1:${target.port} in \\d+\\.\\d\\d s\\n$`,
        ),
      );
      const lines = result.stderr.trim().split("\n");
      expect(lines[0]).toBe(`router-1.pcap: ${v4.length} packets, ${v4.length} TCP segments, 1 stream with data`);
      expect(lines[1]).toMatch(
        /^ {2}192\.0\.2\.61:40123 → 198\.51\.100\.6:1790: [\d,]+ bytes in \d+ segments from the SYN; 30 BMP messages \([\d,]+ bytes\); /,
      );
      expect(lines[1]).toContain("bytes retransmitted or overlapping, kept once; 1 segment out of order, put in order");
      expect(lines[3]).toBe(
        `  [2001:db8::61]:50000 → [2001:db8:1::6]:11019: ${secondBytes.length.toLocaleString("en-US")} bytes in ${Math.ceil(secondBytes.length / 1_200)} segments from the SYN; 12 BMP messages (${secondBytes.length.toLocaleString("en-US")} bytes)`,
      );
    } finally {
      target.server.close();
    }
  }, 60_000);

  it("with --per-stream opens one connection per captured stream, in order; over IPv6 and paced", async () => {
    const a = join(messages(5, 3));
    const b = join(messages(4, 4));
    const c = join(messages(3, 5));
    const other = { ...ROUTER, srcPort: 40124 };
    // Two interleaved streams in one file, a third in another.
    const [synA, ...restA] = segments(ROUTER, a, 10, 400);
    const [synB, ...restB] = segments(other, b, 77_000, 400);
    const files = [
      capture("two.pcap", [synA, synB, ...restA.flatMap((s, i) => [s, ...(restB[i] ? [restB[i]] : [])]), ...restB.slice(restA.length)]),
      capture("three.pcap", segments(ROUTER6, c, 5, 700)),
    ];
    const target = await station("::1");
    try {
      const result = await replay(["--to", `[::1]:${target.port}`, "--per-stream", "--rate", "2000/s", ...files]);
      expect(result.code, result.stderr).toBe(0);
      await target.closed();
      expect(target.connections.map((chunks) => Buffer.concat(chunks))).toEqual([a, b, c]);
      expect(result.stdout).toMatch(/^sent 12 BMP messages, [\d,]+ bytes of 3 streams from 2 files on 3 connections to \[::1\]:\d+ in/);
    } finally {
      target.server.close();
    }
  }, 60_000);

  it("sends only the whole messages before a gap and says what was left out", async () => {
    const sent = messages(10, 6, 900);
    const bytes = join(sent);
    const all = segments(ROUTER, bytes, 1, 1_000);
    // The segment with bytes 3,000–3,999 was lost.
    const lost = all.filter((s) => s.seq !== 3_002);
    const wholeBefore = sent.reduce(
      (acc, m) => (acc.total + m.length <= 3_000 ? { total: acc.total + m.length, count: acc.count + 1 } : acc),
      { total: 0, count: 0 },
    );
    const target = await station();
    try {
      const result = await replay(["--to", `127.0.0.1:${target.port}`, capture("lost.pcap", lost)]);
      expect(result.code, result.stderr).toBe(0);
      await target.closed();
      expect(Buffer.concat(target.connections[0])).toEqual(bytes.subarray(0, wholeBefore.total));
      expect(result.stderr).toContain("1 gap (lost segments): 1,000 bytes missing at byte 3,000; the stream stops at the first gap");
      expect(result.stderr).toContain(
        `${(3_000 - wholeBefore.total).toLocaleString("en-US")} bytes from byte ${wholeBefore.total.toLocaleString("en-US")} left out: a message of`,
      );
      expect(result.stdout).toContain(`sent ${wholeBefore.count} BMP messages`);
    } finally {
      target.server.close();
    }
  }, 60_000);

  it("says so and exits 1 when the connection is refused, or the station closes it", async () => {
    const file = capture("small.pcap", segments(ROUTER, join(messages(3, 7)), 1, 500));
    const unused = await station();
    const port = unused.port;
    unused.server.close();
    await once(unused.server, "close");
    const refused = await replay(["--to", `127.0.0.1:${port}`, file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `127.0.0.1:${port}: connection refused: nothing listens there (is the BMP station on, BMP_LISTEN set to this port?)`,
    );
    expect(refused.stdout).toBe("");

    // Large enough that the station's close is seen before the last byte leaves.
    const big = capture("big.pcap", segments(ROUTER, join(messages(200, 8, 60_000)), 1, 60_000));
    const closing = await station("127.0.0.1", "close at once");
    try {
      const result = await replay(["--to", `127.0.0.1:${closing.port}`, big]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(`127\\.0\\.0\\.1:${closing.port} closed the connection after [\\d,]+ of [\\d,]+ bytes had been sent`),
      );
      expect(result.stderr).toContain("a station refuses a source address that is not a router of its inventory");
    } finally {
      closing.server.close();
    }
  }, 60_000);

  it("names the file that is not a capture and exits 1 before connecting", async () => {
    const garbage = path.join(dir, "garbage.pcap");
    writeFileSync(garbage, "not a capture");
    const target = await station();
    try {
      const result = await replay([
        "--to",
        `127.0.0.1:${target.port}`,
        capture("good.pcap", segments(ROUTER, join(messages(2, 9)), 1, 500)),
        garbage,
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`${garbage}: not a readable capture at byte 0: unknown magic number`);
      const missing = await replay(["--to", `127.0.0.1:${target.port}`, path.join(dir, "missing.pcap")]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain(`${path.join(dir, "missing.pcap")}: cannot be read (ENOENT)`);
      // A capture of something else than BMP: nothing to send.
      const other = capture("http.pcap", segments(ROUTER, new TextEncoder().encode("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), 1, 500));
      const notBmp = await replay(["--to", `127.0.0.1:${target.port}`, other]);
      expect(notBmp.code).toBe(1);
      expect(notBmp.stderr).toContain(
        "the stream does not start with a BMP message (did the capture begin in the middle of it?): version 71, not 3",
      );
      expect(notBmp.stderr).toContain("no BMP message in the captures: nothing to send");
      expect(target.connections).toEqual([]);
    } finally {
      target.server.close();
    }
  }, 60_000);

  it.each([
    [[], /--to is required/],
    [["--to", "127.0.0.1"], /--to 127\.0\.0\.1: expected HOST:PORT or \[IPv6\]:PORT/],
    [["--to", "127.0.0.1:1790", "--rate", "fast", "x.pcap"], /--rate fast: expected BMP messages per second/],
    [["--to", "127.0.0.1:1790"], /no capture file given/],
    [["--to", "127.0.0.1:1790", "--loop", "2", "x.pcap"], /unknown option --loop/],
  ])(
    "answers bad arguments %j with the usage and exit code 2",
    async (args, message) => {
      const result = await replay(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toContain(USAGE);
    },
    60_000,
  );
});
