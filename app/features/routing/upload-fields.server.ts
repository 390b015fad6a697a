/**
 * What the routing data page's streamed uploads (MRT, ROA, PeeringDB) share: their small form fields read within
 * a bound, the refusal of a malformed form, and the size problem behind a failed read.
 */
import { BodyProblem } from "~/server/request-body.server";

/** The longest small field (intent, CSRF token, vantage point) of an upload form. */
export const MAX_FIELD_BYTES = 4096;

/** A form the upload refuses with its message (400). */
export class UploadProblem extends Error {}

/** A small form field of a multipart stream, at most MAX_FIELD_BYTES. */
export async function readField(data: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of data) {
    size += chunk.length;
    if (size > MAX_FIELD_BYTES) throw new UploadProblem("A form field is too long.");
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The size problem behind a failure, when the limited stream caused it (parsers may wrap the error). */
export function bodyProblemIn(error: unknown): BodyProblem | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof BodyProblem) return e;
  }
  return null;
}
