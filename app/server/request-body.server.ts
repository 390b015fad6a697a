/**
 * Reading request bodies with a size cap, and the checks every form field gets. Bodies are read
 * into memory, so each kind of request has a limit (MAX_JSON_BODY, MAX_FORM_BODY; the MRT upload
 * is streamed and counted against MAX_UPLOAD_BODY): a declared Content-Length above it is refused
 * before a byte is read, and a body without one (chunked) is counted while it streams.
 */

/** Why a body or a field was refused: 413 for size, 400 for anything unreadable; `field` when one is to blame. */
export class BodyProblem extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
    readonly field: string | null = null,
  ) {
    super(message);
    this.name = "BodyProblem";
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3} GB`;
  if (bytes >= 1024 ** 2) return `${Math.round((bytes / 1024 ** 2) * 10) / 10} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}

export const BODY_TEXTS = {
  tooLarge: (limit: number) => `The request is too large: at most ${formatBytes(limit)} are accepted.`,
  unreadableForm: "The form could not be read. Please reload the page and try again.",
  fieldTooLong: (max: number) => `At most ${max} characters.`,
  fieldControlCharacter: "Must not contain control characters such as NUL.",
} as const;

/** Refuses a declared Content-Length above the limit (or a malformed one) before reading anything. */
export function checkDeclaredLength(request: Request, limit: number): void {
  const declared = request.headers.get("Content-Length");
  if (declared === null) return;
  if (!/^\d+$/.test(declared.trim())) throw new BodyProblem(400, "The Content-Length header is not a number.");
  if (Number(declared) > limit) throw new BodyProblem(413, BODY_TEXTS.tooLarge(limit));
}

/**
 * A byte stream that passes the body through and fails with a 413 BodyProblem once more than
 * `limit` bytes went by: for bodies that are parsed as they stream (the MRT upload). Parsers may
 * wrap the stream's error in their own, so `onTooLarge` hears of it directly.
 */
export function limitedStream(
  body: ReadableStream<Uint8Array>,
  limit: number,
  onTooLarge?: (problem: BodyProblem) => void,
): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) {
          const problem = new BodyProblem(413, BODY_TEXTS.tooLarge(limit));
          onTooLarge?.(problem);
          controller.error(problem);
        } else controller.enqueue(chunk);
      },
    }),
  );
}

/** The whole body, at most `limit` bytes (413 beyond); reading stops at the first byte too many. */
export async function readBodyBytes(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  checkDeclaredLength(request, limit);
  if (!request.body) return new Uint8Array(new ArrayBuffer(0));
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      throw new BodyProblem(400, "The request body could not be read.");
    }
    if (next.done) break;
    size += next.value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new BodyProblem(413, BODY_TEXTS.tooLarge(limit));
    }
    chunks.push(next.value);
  }
  const body = new Uint8Array(new ArrayBuffer(size));
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

export async function readBodyText(request: Request, limit: number): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request, limit));
}

/**
 * Length limits of form fields by name, whatever the form: the input boundary for values that end
 * up in indexed columns or in a hash (a 10 MB e-mail must not reach the database). E-mail: RFC 5321's
 * 254; names as the accounts table; passwords as the password rules.
 */
export const FIELD_MAX_LENGTH: Record<string, number> = {
  email: 254,
  username: 254,
  password: 1024,
  current_password: 1024,
  new_password: 1024,
  new_password_repeat: 1024,
  first_name: 150,
  last_name: 150,
  code: 64,
};

/** Any text field not listed above (free text such as a site's imprint can be long). */
const DEFAULT_FIELD_MAX_LENGTH = 100_000;

// NUL and the other C0 controls except tab, line feed and carriage return, which textareas send.

const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * Destinations the forms carry along: checked where they are used (safeNext), which falls back
 * to a safe default instead of refusing the whole form.
 */
const REDIRECT_FIELDS = new Set(["next", "hash", "back"]);

/**
 * Throws a 400 BodyProblem naming the first field that is too long or holds a control character:
 * of a posted form, or of a screen's GET parameters (a search form sent with method="get"), which
 * reach the same stores.
 */
export function checkFormFields(fields: FormData | URLSearchParams): void {
  for (const [name, value] of fields.entries()) {
    if (typeof value !== "string") continue;
    const max = FIELD_MAX_LENGTH[name] ?? DEFAULT_FIELD_MAX_LENGTH;
    if (value.length > max) throw new BodyProblem(400, BODY_TEXTS.fieldTooLong(max), name);
    if (!REDIRECT_FIELDS.has(name) && FORBIDDEN_CONTROL.test(value)) throw new BodyProblem(400, BODY_TEXTS.fieldControlCharacter, name);
  }
}

/**
 * A form post (urlencoded or multipart) read within `limit` bytes and parsed; a malformed body
 * (a broken multipart boundary, another content type) is a 400, never a 500. Fields are checked
 * with checkFormFields.
 */
export async function readFormBody(request: Request, limit: number): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type)) throw new BodyProblem(400, BODY_TEXTS.unreadableForm);
  const bytes = await readBodyBytes(request, limit);
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "Content-Type": type } }).formData();
  } catch {
    throw new BodyProblem(400, BODY_TEXTS.unreadableForm);
  }
  checkFormFields(form);
  return form;
}
