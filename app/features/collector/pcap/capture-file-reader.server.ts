import { readFileSync } from "node:fs";
import { CaptureFormatError, readCapture, type Capture } from "./pcap-reader";
import { readTcpCapture, type TcpCapture } from "./tcp-streams";

/** A capture file that cannot be used, with a message that names the file and why (scripts print it as is). */
export class CaptureFileError extends Error {}

/** A capture file from disk, read whole (support captures are small), or a CaptureFileError. */
export function readCaptureFile(file: string): Capture {
  return readWith(file, readCapture);
}

/** The TCP streams of a capture file from disk (tcp-streams.ts), or a CaptureFileError. */
export function readTcpCaptureFile(file: string): TcpCapture {
  return readWith(file, readTcpCapture);
}

function readWith<T>(file: string, read: (bytes: Uint8Array) => T): T {
  try {
    return read(readFileSync(file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof CaptureFormatError) throw new CaptureFileError(`${file}: ${error.message}`);
    if (code === "ENOENT" || code === "EISDIR" || code === "EACCES") throw new CaptureFileError(`${file}: cannot be read (${code})`);
    throw error;
  }
}
