/**
 * A PeeringDB file as it arrives (an upload, the sync's download), written to a temporary file
 * first: the import's transaction — on embedded stores the one PostgreSQL connection — then lasts
 * as long as reading the file from disk, not as long as the network takes. Nothing is held in
 * memory whole.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";

/** Runs `read` with the chunks read back from disk; the temporary file is removed afterwards, whatever happens. */
export async function withSpooledFile<T>(
  chunks: AsyncIterable<Uint8Array>,
  read: (spooled: { chunks: AsyncIterable<Uint8Array>; bytes: number }) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), "flowlens-peeringdb-"));
  try {
    const file = path.join(dir, "upload.json");
    let bytes = 0;
    await pipeline(
      Readable.from(chunks),
      async function* (source: AsyncIterable<Uint8Array>) {
        for await (const chunk of source) {
          bytes += chunk.byteLength;
          yield chunk;
        }
      },
      createWriteStream(file),
    );
    return await read({ chunks: createReadStream(file, { highWaterMark: 1 << 20 }), bytes });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
