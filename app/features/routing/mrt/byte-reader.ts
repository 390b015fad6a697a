import { DecompressionError } from "./decompress";
import { MrtFormatError, MrtTruncatedError } from "./errors";

/**
 * Pulls exact byte counts out of an async sequence of chunks (a Readable's async iterator), so the
 * decoder holds one record at a time. Asking for the next chunk only when the buffered bytes run
 * out is what keeps back-pressure: the Readable is not read ahead of the decoder.
 */
export class ByteReader {
  private buffer: Buffer = Buffer.alloc(0);
  private position = 0;
  private ended = false;
  /** Why the input ended early, when the decompressor or the source failed. */
  private streamError: DecompressionError | null = null;
  /** Bytes consumed from the start of the (decompressed) stream. */
  offset = 0;

  constructor(private readonly chunks: AsyncIterator<Buffer | string>) {}

  private get available(): number {
    return this.buffer.length - this.position;
  }

  /** Fills the buffer to at least `size` bytes; false when the stream ends first. */
  private async fill(size: number): Promise<boolean> {
    while (this.available < size && !this.ended) {
      let next: IteratorResult<Buffer | string>;
      try {
        next = await this.chunks.next();
      } catch (error) {
        if (!(error instanceof DecompressionError)) throw error;
        // Bytes decoded before the failure are kept; the caller reports where the records stop.
        this.streamError = error;
        this.ended = true;
        break;
      }
      if (next.done) {
        this.ended = true;
        break;
      }
      const chunk = typeof next.value === "string" ? Buffer.from(next.value, "latin1") : next.value;
      if (chunk.length === 0) continue;
      // Keep only the unread tail: memory stays bounded by one record plus one chunk.
      this.buffer = this.available ? Buffer.concat([this.buffer.subarray(this.position), chunk]) : chunk;
      this.position = 0;
    }
    return this.available >= size;
  }

  /** True when every byte has been read. */
  async atEnd(): Promise<boolean> {
    if (await this.fill(1)) return false;
    if (this.streamError) throw new MrtFormatError(`${this.streamError.message} after ${this.offset} decoded bytes`);
    return true;
  }

  /**
   * The next `size` bytes. At the end of the stream, a short read raises MrtTruncatedError naming
   * `recordOffset` (where the record began) and the bytes it needed from there.
   */
  async read(size: number, recordOffset: number, alreadyRead: number): Promise<Buffer> {
    if (!(await this.fill(size))) {
      throw new MrtTruncatedError(recordOffset, alreadyRead + size, alreadyRead + this.available, this.streamError?.message);
    }
    const out = this.buffer.subarray(this.position, this.position + size);
    this.position += size;
    this.offset += size;
    return out;
  }
}
