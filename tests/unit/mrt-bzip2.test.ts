/**
 * bzip2 through the system program (bzip2-process.ts) and through unbzip2-stream yield the same
 * bytes: whole files, and files cut anywhere, where the program alone would drop the end of the last
 * complete block.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bzip2ProgramAvailable } from "~/features/routing/mrt/bzip2-process";
import { decompressedChunks, DecompressionError } from "~/features/routing/mrt/decompress";

const SAMPLE = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "mrt-sample.bz2"));

async function decompress(input: Buffer, decoder: "program" | "js"): Promise<{ bytes: Buffer; error: string | null }> {
  const parts: Buffer[] = [];
  // Small chunks, as a file or an upload delivers them.
  const chunks = Array.from({ length: Math.ceil(input.length / 16_384) }, (_, i) => input.subarray(i * 16_384, (i + 1) * 16_384));
  try {
    for await (const chunk of decompressedChunks(Readable.from(chunks), undefined, decoder === "program")) parts.push(chunk);
    return { bytes: Buffer.concat(parts), error: null };
  } catch (error) {
    if (!(error instanceof DecompressionError)) throw error;
    return { bytes: Buffer.concat(parts), error: error.message };
  }
}

describe.skipIf(!bzip2ProgramAvailable())("bzip2 by the system program", () => {
  it("decodes a whole file as unbzip2-stream does", async () => {
    const program = await decompress(SAMPLE, "program");
    const js = await decompress(SAMPLE, "js");
    expect(program.error).toBeNull();
    expect(program.bytes.length).toBeGreaterThan(250_000);
    expect(program.bytes.equals(js.bytes)).toBe(true);
  });

  it.each([0.5, 0.75, 0.95])("delivers every complete block of a file cut at %s of its size, and the same error", async (share) => {
    const cut = SAMPLE.subarray(0, Math.floor(SAMPLE.length * share));
    const program = await decompress(cut, "program");
    const js = await decompress(cut, "js");
    expect(js.error).toBe("the bzip2 stream is damaged or ends early");
    expect(program.error).toBe(js.error);
    expect(js.bytes.length).toBeGreaterThan(0);
    expect(program.bytes.length).toBe(js.bytes.length);
    expect(program.bytes.equals(js.bytes)).toBe(true);
  });
});
