/**
 * The `intent` field of a POST to /site-settings/routing-data, which says which of the screen's
 * forms was sent, read without consuming the body: a URL-encoded form is read whole (within the
 * form size limit; the fields come back with it, checked as every form's); a
 * multipart form (an upload, streamed as it arrives) must carry `intent` as its first part, which
 * is read from the stream's first bytes, and the request handed on replays them. No `intent` (the
 * MRT upload, which came first) gives null.
 */

import { readFormBody } from "~/server/request-body.server";

/** The first part's headers and value are looked for in at most this many bytes. */
const PEEK_BYTES = 16 * 1024;

/** A field's value from the start of a multipart body, when its first part is that (non-file) field. */
export function firstMultipartField(head: Buffer, boundary: string, name: string): string | null {
  const delimiter = `--${boundary}`;
  const text = head.toString("latin1");
  if (!text.startsWith(delimiter)) return null;
  const headersEnd = text.indexOf("\r\n\r\n");
  if (headersEnd < 0) return null;
  const headers = text.slice(delimiter.length, headersEnd);
  const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(headers)?.[1] ?? "";
  if (/\bfilename\*?=/i.test(disposition)) return null;
  const fieldName = /\bname="([^"]*)"/i.exec(disposition)?.[1];
  if (fieldName !== name) return null;
  const end = text.indexOf(`\r\n${delimiter}`, headersEnd + 4);
  if (end < 0) return null;
  return Buffer.from(text.slice(headersEnd + 4, end), "latin1").toString("utf8");
}

/** Throws BodyProblem for a URL-encoded form that is too large (413) or unreadable (400). */
export async function formIntent(
  request: Request,
  formLimit: number,
): Promise<{ intent: string | null; request: Request; form: FormData | null }> {
  const type = request.headers.get("Content-Type") ?? "";
  if (/^application\/x-www-form-urlencoded/i.test(type)) {
    const form = await readFormBody(request.clone(), formLimit);
    const intent = form.get("intent");
    return { intent: typeof intent === "string" ? intent : null, request, form };
  }
  const boundary = /^multipart\/form-data;.*\bboundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (!boundary || !request.body) return { intent: null, request, form: null };
  const reader = request.body.getReader();
  const seen: Uint8Array[] = [];
  let size = 0;
  let done = false;
  let intent: string | null = null;
  while (size < PEEK_BYTES) {
    const next = await reader.read();
    if (next.done) {
      done = true;
      break;
    }
    seen.push(next.value);
    size += next.value.byteLength;
    intent = firstMultipartField(Buffer.concat(seen), boundary[1] ?? boundary[2], "intent");
    if (intent !== null) break;
  }
  // The body again from its first byte: what was read, then the rest of the stream.
  const replay = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of seen) controller.enqueue(chunk);
      if (done) controller.close();
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const replayed = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: replay,
    duplex: "half",
  } as RequestInit);
  return { intent, request: replayed, form: null };
}
