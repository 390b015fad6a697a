import type { Readable, Writable } from "node:stream";
import { createGunzip } from "node:zlib";
import unbzip2 from "unbzip2-stream";
import { Bzip2CutError, Bzip2Process, bzip2ProgramAvailable } from "./bzip2-process";

export type Compression = "gzip" | "bzip2" | "none";

/** By the magic bytes, not the file name: an upload or a pipe has no trustworthy name. */
export function detectCompression(head: Buffer): Compression {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return "gzip";
  // "BZh" followed by the block size digit 1–9.
  if (head.length >= 4 && head[0] === 0x42 && head[1] === 0x5a && head[2] === 0x68 && head[3] >= 0x31 && head[3] <= 0x39) return "bzip2";
  return "none";
}

/** The decompressor or the source failed; bytes delivered before it are valid. */
export class DecompressionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DecompressionError";
  }
}

// Decoded bytes waiting for the consumer before the source is paused (a few records' worth).
const HIGH_WATER_BYTES = 1 << 20;
const LOW_WATER_BYTES = 1 << 18;

/**
 * The decompressed bytes of `source` as chunks, for `ByteReader`. The source is paused while the
 * consumer lags (or the decompressor's input buffer is full), so a large dump is never held in
 * memory. A failure of the decompressor ends the sequence with DecompressionError only after every
 * byte decoded before it was delivered: a truncated .bz2 still yields all its complete blocks.
 *
 * bzip2 uses the system's `bzip2` program in a child process when there is one (bzip2-process.ts:
 * several times faster, and beside this thread), else `unbzip2-stream` (pure JavaScript); both
 * yield the same bytes, a cut file's too. unbzip2-stream is an old-style stream whose error
 * discards buffered output when wrapped as a modern Readable, hence this event-level adapter,
 * which serves zlib, the program and plain input the same way.
 */
export async function* decompressedChunks(
  source: Readable,
  onDetect?: (compression: Compression) => void,
  /** false: unbzip2-stream even where the program is installed (the tests compare both). */
  useBzip2Program = true,
): AsyncGenerator<Buffer> {
  const queue: Buffer[] = [];
  let queuedBytes = 0;
  let finished = false;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  let decoder: Writable | null = null;
  // The program's output is held back too while the consumer lags (a library's follows its input).
  let output = null as Bzip2Process | null;
  let head: Buffer | null = Buffer.alloc(0);
  let decoderFull = false;

  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const push = (chunk: Buffer | string) => {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk, "latin1") : chunk;
    if (!buffer.length) return;
    queue.push(buffer);
    queuedBytes += buffer.length;
    if (queuedBytes > HIGH_WATER_BYTES) {
      source.pause();
      output?.pause();
    }
    notify();
  };
  const finish = (error: Error | null) => {
    if (finished) return;
    finished = true;
    failure = error;
    notify();
  };
  const feed = (chunk: Buffer) => {
    if (!decoder) return push(chunk);
    if (!decoder.write(chunk)) {
      decoderFull = true;
      source.pause();
    }
  };
  const startDecoder = (compression: Compression) => {
    onDetect?.(compression);
    if (compression === "none") return;
    const label = compression;
    const program = compression === "bzip2" && useBzip2Program && bzip2ProgramAvailable() ? new Bzip2Process() : null;
    output = program;
    const stream = (program ?? (compression === "gzip" ? createGunzip() : unbzip2())) as unknown as Writable & NodeJS.EventEmitter;
    stream.on("data", push);
    stream.on("end", () => finish(null));
    stream.on("error", (error: Error) => {
      // unbzip2-stream fails on a cut stream with an internal TypeError whose text means nothing to a reader.
      const detail = error instanceof TypeError || error instanceof Bzip2CutError ? "" : ` (${error.message})`;
      finish(new DecompressionError(`the ${label} stream is damaged or ends early${detail}`));
    });
    stream.on("drain", () => {
      decoderFull = false;
      if (queuedBytes < HIGH_WATER_BYTES) source.resume();
    });
    decoder = stream;
  };

  const onData = (chunk: Buffer | string) => {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk, "latin1") : chunk;
    if (head) {
      head = Buffer.concat([head, buffer]);
      if (head.length < 4) return;
      const first = head;
      head = null;
      startDecoder(detectCompression(first));
      feed(first);
      return;
    }
    feed(buffer);
  };
  const onEnd = () => {
    if (head) {
      // Shorter than any magic number: passed on as it is, the record decoder reports it.
      const first = head;
      head = null;
      startDecoder("none");
      push(first);
    }
    if (decoder) decoder.end();
    else finish(null);
  };
  const onError = (error: Error) => finish(new DecompressionError(`cannot read the input (${error.message})`));
  source.on("data", onData);
  source.on("end", onEnd);
  source.on("error", onError);

  try {
    for (;;) {
      if (queue.length) {
        const chunk = queue.shift()!;
        queuedBytes -= chunk.length;
        if (queuedBytes < LOW_WATER_BYTES && !finished) {
          output?.resume();
          if (!decoderFull) source.resume();
        }
        yield chunk;
        continue;
      }
      if (finished) {
        if (failure) throw failure;
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    source.off("data", onData);
    source.off("end", onEnd);
    source.off("error", onError);
    // The consumer stopped early (or failed): release the file.
    if (!finished) {
      source.destroy();
      output?.destroy();
    }
  }
}
