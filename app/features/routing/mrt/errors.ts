/** A file that is not MRT, or whose bytes break the format: the import stops with this message. */
export class MrtFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MrtFormatError";
  }
}

/**
 * The stream ended inside a record (a dump cut short by a copy, a crash of the collector, or a
 * compressed stream without its end). Records before it were decoded and stay valid.
 */
export class MrtTruncatedError extends MrtFormatError {
  constructor(
    readonly offset: number,
    readonly needed: number,
    readonly present: number,
    cause?: string,
  ) {
    super(`truncated MRT record at byte offset ${offset}: it needs ${needed} bytes, ${present} present${cause ? ` (${cause})` : ""}`);
    this.name = "MrtTruncatedError";
  }
}

/** A record whose framing is intact but whose content is malformed: skipped, the next one is read. */
export class MrtRecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MrtRecordError";
  }
}
