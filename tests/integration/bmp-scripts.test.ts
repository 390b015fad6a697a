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
import {
  endOfRib,
  evpnRoute,
  initiation,
  peer,
  peerDown,
  peerUp,
  routeMonitoring,
  routeMonitoringRaw,
  termination,
} from "../helpers/bmp-builder";
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

    // Large enough that the station's close is seen: before the last byte leaves, or (a busy machine's
    // socket buffers took it all) as the reset of a connection closed with bytes unread.
    const big = capture("big.pcap", segments(ROUTER, join(messages(200, 8, 60_000)), 1, 60_000));
    const closing = await station("127.0.0.1", "close at once");
    try {
      const result = await replay(["--to", `127.0.0.1:${closing.port}`, big]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `127\\.0\\.0\\.1:${closing.port} (closed the connection after [\\d,]+ of [\\d,]+ bytes had been sent|` +
            `reset the connection after all [\\d,]+ bytes had been sent, before reading them all)`,
        ),
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

const decode = (args: string[]) => runScript("bmp-decode.ts", args);
const lines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));

/** A printed route with the fields a test does not set at their defaults. */
const printed = (route: Record<string, unknown>) => ({
  route_distinguisher: "",
  path_id: 0,
  labels: [],
  as_path_set: [],
  as_confed_seq: [],
  origin: "IGP",
  local_pref: null,
  med: null,
  communities: [],
  large_communities: [],
  extended_communities: [],
  ...route,
});

describe("npm run -s bmp:decode", () => {
  const A = peer({ address: "192.0.2.1", asn: 64501 });
  const B = peer({ address: "2001:db8::2", asn: 4200000001, view: "pre-policy" });
  const C = peer({ address: "192.0.2.3", asn: 64503 });
  const L = peer({ view: "loc-rib", rd: "64499:11", asn: 64499, bgpId: "192.0.2.61" });

  it("prints the routes replaying the files in order on one session would leave, the session's state going from file to file", async () => {
    const first = [
      initiation({ sysName: "edge1", sysDescr: "Test router" }),
      peerUp({ peer: A, addPath: ["1/1"] }),
      peerUp({ peer: B }),
      peerUp({ peer: C }),
      peerUp({ peer: L }),
      routeMonitoring({
        peer: A,
        announce: [
          { prefix: "198.51.100.0/24", pathId: 1, nextHop: "192.0.2.1" },
          { prefix: "198.51.100.0/24", pathId: 2, nextHop: "192.0.2.1" },
        ],
        asPath: [64501, 64496],
        localPref: 150,
        med: 20,
        communities: ["64501:100"],
        largeCommunities: ["64501:1:2"],
        extendedCommunities: ["RT:64501:7"],
      }),
      routeMonitoring({
        peer: A,
        announce: [{ prefix: "10.1.0.0/16", rd: "65000:1", labels: [16001], nextHop: "192.0.2.1" }],
        asPath: [64501],
      }),
      routeMonitoring({ peer: B, announce: [{ prefix: "2001:db8:100::/48", nextHop: "2001:db8::2" }], asPath: [4200000001, 64496] }),
      routeMonitoring({ peer: C, announce: [{ prefix: "192.0.2.128/25", nextHop: "192.0.2.3" }], asPath: [64503] }),
      routeMonitoring({ peer: L, announce: [{ prefix: "203.0.113.0/24", nextHop: "192.0.2.9" }], asPath: [64510], origin: "INCOMPLETE" }),
      evpnRoute({ peer: A }),
    ];
    const second = [
      // Routes of the first file withdrawn (by path id: ADD-PATH as A's Peer Up negotiated it), replaced, and gone with their peer.
      routeMonitoring({ peer: A, withdraw: [{ prefix: "198.51.100.0/24", pathId: 1 }] }),
      routeMonitoring({ peer: B, announce: [{ prefix: "2001:db8:100::/48", nextHop: "2001:db8::22" }], asPath: [4200000001] }),
      peerDown({ peer: C, reason: 2 }),
      endOfRib({ peer: A, afi: 1, safi: 1 }),
      termination(0),
    ];
    // The first file's segments reordered and one retransmitted.
    const one = segments(ROUTER, join(first), 3_000_000_000, 200);
    [one[2], one[3]] = [one[3], one[2]];
    one.push(one[4]);
    const files = [capture("session-1.pcap", one), capture("session-2.pcap", segments(ROUTER, join(second), 5, 1_000))];
    const result = await decode(files);
    expect(result.code, result.stderr).toBe(0);
    const router = ROUTER.srcAddr;
    expect(lines(result.stdout)).toEqual([
      printed({
        router,
        view: "post-policy",
        peer_address: "192.0.2.1",
        peer_as: 64501,
        prefix: "198.51.100.0/24",
        afi: 1,
        safi: 1,
        path_id: 2,
        as_path: [64501, 64496],
        next_hop: "192.0.2.1",
        local_pref: 150,
        med: 20,
        communities: ["64501:100"],
        large_communities: ["64501:1:2"],
        extended_communities: ["RT:64501:7"],
      }),
      printed({
        router,
        view: "post-policy",
        peer_address: "192.0.2.1",
        peer_as: 64501,
        prefix: "10.1.0.0/16",
        afi: 1,
        safi: 128,
        route_distinguisher: "65000:1",
        labels: [16001],
        as_path: [64501],
        next_hop: "192.0.2.1",
      }),
      // Loc-RIB: the router is the peer, the instance's distinguisher the RD.
      printed({
        router,
        view: "loc-rib",
        peer_address: router,
        peer_as: 64499,
        prefix: "203.0.113.0/24",
        afi: 1,
        safi: 1,
        route_distinguisher: "64499:11",
        as_path: [64510],
        next_hop: "192.0.2.9",
        origin: "INCOMPLETE",
      }),
      printed({
        router,
        view: "pre-policy",
        peer_address: "2001:db8::2",
        peer_as: 4200000001,
        prefix: "2001:db8:100::/48",
        afi: 2,
        safi: 1,
        as_path: [4200000001],
        next_hop: "2001:db8::22",
      }),
    ]);
    const report = result.stderr.trim().split("\n");
    expect(report[0]).toBe(`session-1.pcap: ${one.length} packets, ${one.length} TCP segments, 1 stream with data`);
    expect(report[1]).toContain("1 segment out of order, put in order");
    expect(report[2]).toBe("session-2.pcap: 2 packets, 2 TCP segments, 1 stream with data");
    expect(report.at(-1)).toMatch(
      new RegExp(
        "^16 BMP messages \\(1 initiation, 4 peer-up, 9 route-monitoring, 1 peer-down, 1 termination\\), 0 decode errors; " +
          "7 announcements, 1 withdrawal, 1 route removed by Peer Down; skipped address families: 1 of 25/70: [^;]+; " +
          "4 routes left, from 3 peers, 2 route distinguishers$",
      ),
    );
  }, 60_000);

  it("decodes a capture over IPv6 whose stream lost a segment: the whole messages before the gap, a decode error counted", async () => {
    const router6 = { ...ROUTER6, srcAddr: "2001:db8::61" };
    const messagesSent = [
      peerUp({ peer: L }),
      routeMonitoringRaw({ peer: A, message: Buffer.concat([Buffer.alloc(16, 0xff), Buffer.from([0, 25, 2, 0, 9])]) }),
      routeMonitoring({ peer: L, announce: [{ prefix: "2001:db8:5::/48", nextHop: "2001:db8::9" }], asPath: [64510] }),
      routeMonitoring({ peer: L, announce: [{ prefix: "2001:db8:6::/48", nextHop: "2001:db8::9" }], asPath: [64510] }),
    ];
    const stream = join(messagesSent);
    const all = segments(router6, stream, 1, 40);
    // A segment inside the last message lost.
    const lostAt = stream.length - messagesSent[3].length + 45;
    const kept = all.filter((s) => s.syn || s.seq - 2 !== Math.floor(lostAt / 40) * 40);
    const result = await decode([capture("v6.pcap", kept)]);
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stdout)).toEqual([
      printed({
        router: "2001:db8::61",
        view: "loc-rib",
        peer_address: "2001:db8::61",
        peer_as: 64499,
        prefix: "2001:db8:5::/48",
        afi: 2,
        safi: 1,
        route_distinguisher: "64499:11",
        as_path: [64510],
        next_hop: "2001:db8::9",
      }),
    ]);
    expect(result.stderr).toContain("the stream stops at the first gap");
    expect(result.stderr).toMatch(/v6\.pcap: \[2001:db8::61\]:50000: message 2 of the stream \(BMP type 0\): /);
    expect(result.stderr).toMatch(
      /3 BMP messages \(1 peer-up, 2 route-monitoring\), 1 decode error; .*1 route left, from 1 peer, 1 route distinguisher$/m,
    );
  }, 60_000);

  it("exits 1 naming an unreadable file, with nothing on stdout; 2 without a file", async () => {
    const good = capture("good-decode.pcap", segments(ROUTER, join([initiation()]), 1, 500));
    const missing = await decode([good, path.join(dir, "absent.pcap")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`${path.join(dir, "absent.pcap")}: cannot be read (ENOENT)`);
    expect(missing.stdout).toBe("");
    const none = await decode([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no capture file given; usage: npm run -s bmp:decode -- FILE.pcap [FILE.pcap …]");
  }, 60_000);
});
