/**
 * A generated TABLE_DUMP_V2 RIB dump for bench:routing, bzip2-compressed as route collectors publish
 * them: BENCH_MRT_PREFIXES prefixes (default 1,000,000) × BENCH_MRT_PEERS peers (default 8) with
 * 4-byte ASNs, communities and large communities: the records of syntheticRibSlice
 * (tests/fixtures/mrt.ts), byte for byte (tests/unit/mrt-generator.test.ts), written straight into
 * one buffer per slice — the fixtures' encoders join small buffers, minutes for 8 M entries. Written once to <BENCH_DATA_DIR>/mrt/ and reused while its name (the
 * sizes) matches; never part of the repository.
 *
 *   npx tsx bench/mrt-generator.ts   # writes the file and prints its path
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  ipBytes,
  prefixBytes,
  syntheticEntries,
  syntheticPeerIndex,
  syntheticPeers,
  syntheticPrefix,
  type AttributeSpec,
  type SyntheticRibOptions,
} from "../tests/fixtures/mrt";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Prefixes encoded per write: a few MB, so bzip2 keeps working while the next slice is made. */
const SLICE = 5_000;

export function generatedDumpOptions(): Omit<SyntheticRibOptions, "from"> {
  return { prefixes: Number(process.env.BENCH_MRT_PREFIXES ?? 1_000_000), peers: Number(process.env.BENCH_MRT_PEERS ?? 8) };
}

const SEGMENT_CODES = { set: 1, sequence: 2, "confed-sequence": 3, "confed-set": 4 } as const;

/** Writes big-endian fields at a moving offset into a buffer that grows when full. */
class Writer {
  buffer = Buffer.allocUnsafe(1 << 24);
  at = 0;
  room(size: number) {
    if (this.at + size <= this.buffer.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + size));
    this.buffer.copy(bigger, 0, 0, this.at);
    this.buffer = bigger;
  }
  u8(n: number) {
    this.room(1);
    this.buffer[this.at++] = n;
  }
  u16(n: number) {
    this.room(2);
    this.buffer.writeUInt16BE(n, this.at);
    this.at += 2;
  }
  u32(n: number) {
    this.room(4);
    this.buffer.writeUInt32BE(n >>> 0, this.at);
    this.at += 4;
  }
  bytes(b: Buffer) {
    this.room(b.length);
    b.copy(this.buffer, this.at);
    this.at += b.length;
  }
  /** Reserves a length field of `size` bytes; the returned function writes it, counting from after the field. */
  length(size: 1 | 2 | 4): () => void {
    this.room(size);
    const field = this.at;
    this.at += size;
    return () => {
      const n = this.at - field - size;
      if (size === 1) this.buffer[field] = n;
      else if (size === 2) this.buffer.writeUInt16BE(n, field);
      else this.buffer.writeUInt32BE(n, field);
    };
  }
}

const addresses = new Map<string, Buffer>();
const address = (text: string) => addresses.get(text) ?? addresses.set(text, ipBytes(text)).get(text)!;

/** One path attribute: the extended-length form when the value may exceed 255 bytes, as attributes() chooses. */
function attribute(w: Writer, flags: number, type: number, valueBytes: number, value: () => void) {
  if (valueBytes > 255) {
    w.u8(flags | 0x10);
    w.u8(type);
    w.u16(valueBytes);
  } else {
    w.u8(flags);
    w.u8(type);
    w.u8(valueBytes);
  }
  value();
}

/** The attributes of a synthetic entry, in the order and forms of attributes() of tests/fixtures/mrt.ts. */
function writeAttributes(w: Writer, a: AttributeSpec) {
  if (
    a.asnBytes === 2 ||
    a.as4Path ||
    a.as4Aggregator ||
    a.originatorId ||
    a.extendedCommunities ||
    a.mpUnreach ||
    (a.mpReach && !a.mpReach.short)
  )
    throw new Error("fastSyntheticRibSlice writes only what syntheticEntries uses");
  if (a.origin !== undefined) attribute(w, 0x40, 1, 1, () => w.u8(a.origin!));
  if (a.asPath) {
    const size = a.asPath.reduce((n, s) => n + 2 + 4 * s.asns.length, 0);
    attribute(w, 0x40, 2, size, () => {
      for (const s of a.asPath!) {
        w.u8(SEGMENT_CODES[s.type]);
        w.u8(s.asns.length);
        for (const asn of s.asns) w.u32(asn);
      }
    });
  }
  if (a.nextHop) attribute(w, 0x40, 3, 4, () => w.bytes(address(a.nextHop!)));
  if (a.med !== undefined) attribute(w, 0x80, 4, 4, () => w.u32(a.med!));
  if (a.localPref !== undefined) attribute(w, 0x40, 5, 4, () => w.u32(a.localPref!));
  if (a.aggregator)
    attribute(w, 0xc0, 7, 8, () => {
      w.u32(a.aggregator!.asn);
      w.bytes(address(a.aggregator!.ip));
    });
  if (a.communities)
    attribute(w, 0xc0, 8, 4 * a.communities.length, () => {
      for (const [x, y] of a.communities!) {
        w.u16(x);
        w.u16(y);
      }
    });
  if (a.mpReach) {
    const nextHop = address(a.mpReach.nextHop);
    attribute(w, 0x80, 14, 1 + nextHop.length, () => {
      w.u8(nextHop.length);
      w.bytes(nextHop);
    });
  }
  if (a.largeCommunities)
    attribute(w, 0xc0, 32, 12 * a.largeCommunities.length, () => {
      for (const c of a.largeCommunities!) for (const n of c) w.u32(n);
    });
}

/** syntheticRibSlice of tests/fixtures/mrt.ts, written without intermediate buffers. */
export function fastSyntheticRibSlice(options: SyntheticRibOptions, count: number): Buffer {
  const peers = syntheticPeers(options.peers);
  const from = options.from ?? 0;
  const w = new Writer();
  if (from === 0) w.bytes(syntheticPeerIndex(peers));
  const end = Math.min(options.prefixes, from + count);
  for (let i = from; i < end; i++) {
    const prefix = syntheticPrefix(i);
    w.u32(1_700_000_000);
    w.u16(13);
    w.u16(prefix.includes(":") ? 4 : 2);
    const recordLength = w.length(4);
    w.u32(i);
    w.bytes(prefixBytes(prefix));
    const entries = syntheticEntries(i, peers);
    w.u16(entries.length);
    for (const e of entries) {
      w.u16(e.peerIndex);
      w.u32(e.originatedTime);
      const attributesLength = w.length(2);
      writeAttributes(w, e.attributes);
      attributesLength();
    }
    recordLength();
  }
  return Buffer.from(w.buffer.subarray(0, w.at));
}

/** The path of the generated dump, made first when it is not there yet (minutes for the default size). */
export async function generatedDump(options = generatedDumpOptions(), log: (line: string) => void = console.log): Promise<string> {
  const dir = path.resolve(ROOT, process.env.BENCH_DATA_DIR?.trim() || "data-bench", "mrt");
  const file = path.join(dir, `synthetic-rib.${options.prefixes}x${options.peers}.bz2`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const partial = `${file}.partial`;
  log(`  generating ${options.prefixes.toLocaleString("en-US")} prefixes × ${options.peers} peers → ${file} …`);
  const started = performance.now();
  const bzip2 = spawn("bzip2", ["-c"], { stdio: ["pipe", openSync(partial, "w"), "inherit"] });
  const exited = new Promise<number | null>((resolve, reject) => {
    bzip2.on("error", reject);
    bzip2.on("close", resolve);
  });
  const input = bzip2.stdin;
  if (!input) throw new Error("bzip2 has no standard input");
  for (let from = 0; from < options.prefixes; from += SLICE) {
    const slice = fastSyntheticRibSlice({ ...options, from }, SLICE);
    if (!input.write(slice)) await new Promise((resolve) => input.once("drain", resolve));
  }
  input.end();
  const code = await exited;
  if (code !== 0) throw new Error(`bzip2 exited with ${code} while writing ${partial}`);
  renameSync(partial, file);
  log(`  generated in ${((performance.now() - started) / 1000).toFixed(0)} s (${statSync(file).size.toLocaleString("en-US")} B)`);
  return file;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  generatedDump().then(
    (file) => console.log(file),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
