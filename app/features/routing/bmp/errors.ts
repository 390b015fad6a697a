import type { BmpMessage } from "./types";

/**
 * The byte stream is not BMP v3, or not any more (a wrong version, an impossible length): nothing
 * after it can be framed, so the session is closed. `decoded` holds the messages of the same chunk
 * that came before the bad bytes, whole and valid.
 */
export class BmpFramingError extends Error {
  decoded: BmpMessage[] = [];

  constructor(
    message: string,
    /** Byte offset in the session's stream where the bad message starts. */
    readonly offset: number,
  ) {
    super(message);
    this.name = "BmpFramingError";
  }
}

/** The stream ended inside a message (the router or the network cut it short). */
export class BmpTruncatedError extends BmpFramingError {
  constructor(offset: number, needed: number, present: number) {
    super(`the BMP stream ended inside a message at byte offset ${offset}: it needs ${needed} bytes, ${present} arrived`, offset);
    this.name = "BmpTruncatedError";
  }
}

/** A well-framed message whose content cannot be decoded: it becomes a `bad` message, the session goes on. */
export class BmpMessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BmpMessageError";
  }
}
