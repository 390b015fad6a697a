import { spawn, spawnSync, type ChildProcessByStdio } from "node:child_process";
import { EventEmitter } from "node:events";
import type { Readable, Writable } from "node:stream";
import unbzip2 from "unbzip2-stream";

/**
 * bzip2 decompression by the system's `bzip2` program in a child process: libbz2 is several times
 * faster than unbzip2-stream (pure JavaScript, most of an import's time before), and it runs on the
 * other core while this process decodes the records.
 *
 * One difference is made up for: on a cut file `bzip2 -d` stops without writing the last piece
 * (< 5,000 bytes, its output buffer) of the last complete block, which unbzip2-stream delivers. The
 * last compressed megabytes are kept, and on that failure the complete blocks among them are
 * decoded again here to recover the missing bytes, so both decoders yield the same bytes.
 */

let available: boolean | null = null;

/** Whether `bzip2` runs here (looked up once). */
export function bzip2ProgramAvailable(): boolean {
  if (available === null) {
    const probe = spawnSync("bzip2", ["--help"], { stdio: "ignore" });
    available = !probe.error && probe.status === 0;
  }
  return available;
}

/** The stream was cut inside a block: what unbzip2-stream reports as a TypeError. */
export class Bzip2CutError extends Error {}

/** Compressed bytes kept for the recovery: more than two blocks of the largest size (900 kB each before compression). */
const KEPT_INPUT_BYTES = 3 << 20;
/** Decompressed bytes kept to find where the program's output stopped inside the recovered block. */
const KEPT_OUTPUT_BYTES = 1 << 16;
/** The program writes in pieces of this size; at most one piece short of the complete blocks is missing. */
const PROGRAM_PIECE_BYTES = 5_000;

/** The last `limit` bytes of a stream of chunks. */
class Tail {
  private chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly limit: number) {}
  add(chunk: Buffer) {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.chunks.length > 1 && this.size - this.chunks[0].length >= this.limit) this.size -= this.chunks.shift()!.length;
  }
  bytes(): Buffer {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.limit));
  }
}

/**
 * A Writable-like decoder with the events decompress.ts listens to (data, end, error, drain), like
 * the streams of zlib and unbzip2-stream.
 */
export class Bzip2Process extends EventEmitter {
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private readonly input = new Tail(KEPT_INPUT_BYTES);
  private readonly output = new Tail(KEPT_OUTPUT_BYTES);
  private head: Buffer | null = null;
  private stderr = "";

  constructor() {
    super();
    this.child = spawn("bzip2", ["-dc"], { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdin.on("error", () => {}); // EPIPE after the program gave up: its exit status says why.
    this.child.stdin.on("drain", () => this.emit("drain"));
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.output.add(chunk);
      this.emit("data", chunk);
    });
    this.child.stderr.on("data", (chunk: Buffer) => {
      if (this.stderr.length < 4096) this.stderr += chunk.toString("utf8");
    });
    this.child.on("error", (error) => this.emit("error", error));
    this.child.on("close", (code) => void this.closed(code));
  }

  write(chunk: Buffer): boolean {
    if (!this.head) this.head = chunk.subarray(0, 4);
    this.input.add(chunk);
    return this.child.stdin.write(chunk);
  }

  end(): void {
    this.child.stdin.end();
  }

  /** The consumer lags: the program's output waits in its pipe (and the program then waits too). */
  pause(): void {
    this.child.stdout.pause();
  }

  resume(): void {
    this.child.stdout.resume();
  }

  /** The consumer stopped early: the program is not needed any more. */
  destroy(): void {
    this.child.stdin.destroy();
    this.child.kill();
  }

  private async closed(code: number | null) {
    if (code === 0) {
      this.emit("end");
      return;
    }
    if (/ends unexpectedly/.test(this.stderr)) {
      const missing = await recoverLastBlocks(this.head, this.input.bytes(), this.output.bytes()).catch(() => null);
      if (missing?.length) this.emit("data", missing);
      this.emit("error", new Bzip2CutError("cut inside a block"));
      return;
    }
    const reason = this.stderr.split("\n").find((l) => l.trim() && !/^\s*(bzip2: )?$/.test(l)) ?? `bzip2 exited with ${code}`;
    this.emit("error", new Error(reason.replace(/^bzip2: /, "").trim()));
  }
}

const BLOCK_MAGIC_HIGH = 0x3141; // 0x314159265359: the start of every compressed block
const BLOCK_MAGIC_LOW = 0x59265359;

/** Bit offsets of the last `count` block headers in `bytes`, in order (blocks are not byte-aligned). */
function lastBlockStarts(bytes: Buffer, count: number): number[] {
  const starts: number[] = [];
  const bits = (byte: number, shift: number, length: number) => {
    let value = 0;
    for (let i = shift; i < shift + length; i++) value = ((value << 1) | ((bytes[byte + (i >> 3)] >> (7 - (i & 7))) & 1)) >>> 0;
    return value;
  };
  for (let byte = bytes.length - 7; byte >= 0 && starts.length < count; byte--) {
    const window = (bytes[byte] << 16) | (bytes[byte + 1] << 8) | bytes[byte + 2];
    for (let shift = 7; shift >= 0; shift--) {
      if (((window >> (8 - shift)) & 0xffff) !== BLOCK_MAGIC_HIGH) continue;
      if (bits(byte, shift + 16, 32) === BLOCK_MAGIC_LOW) starts.unshift(byte * 8 + shift);
    }
  }
  return starts.slice(-count);
}

/** `bytes` from bit `start` on, shifted to a byte boundary. */
function fromBit(bytes: Buffer, start: number): Buffer {
  const first = start >> 3;
  const shift = start & 7;
  if (!shift) return bytes.subarray(first);
  const out = Buffer.alloc(bytes.length - first - 1);
  for (let i = 0; i < out.length; i++) out[i] = ((bytes[first + i] << shift) | (bytes[first + i + 1] >> (8 - shift))) & 0xff;
  return out;
}

/** What unbzip2-stream decodes of `stream` before it ends or fails. */
function decodeWithJavaScript(stream: Buffer): Promise<Buffer> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    const decoder = unbzip2() as unknown as NodeJS.ReadWriteStream;
    decoder.on("data", (chunk: Buffer) => parts.push(chunk));
    decoder.on("end", () => resolve(Buffer.concat(parts)));
    decoder.on("error", () => resolve(Buffer.concat(parts)));
    decoder.end(stream);
  });
}

/**
 * The bytes of the complete blocks that the program decoded but did not write: the blocks from the
 * second-to-last block header of the kept input decoded again, and the part of them after the
 * program's last output (found by its last bytes; null when they are not found exactly once).
 */
async function recoverLastBlocks(head: Buffer | null, input: Buffer, output: Buffer): Promise<Buffer | null> {
  if (!head || head.length < 4) return null;
  // The last header starts the cut block; the one before, the last complete block.
  const starts = lastBlockStarts(input, 2);
  if (starts.length < 2) return null;
  const blocks = await decodeWithJavaScript(Buffer.concat([head.subarray(0, 4), fromBit(input, starts[0])]));
  if (!blocks.length) return null;
  // The program's output ends `missing` bytes before the end of these blocks, missing < one piece.
  const probe = output.subarray(Math.max(0, output.length - 4096));
  let found: number | null = null;
  for (let missing = 0; missing < PROGRAM_PIECE_BYTES && missing + probe.length <= blocks.length; missing++) {
    const end = blocks.length - missing;
    if (blocks.subarray(end - probe.length, end).equals(probe)) {
      if (found !== null) return null;
      found = missing;
    }
  }
  return found === null ? null : blocks.subarray(blocks.length - found);
}
