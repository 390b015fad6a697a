/**
 * The RPKI section's forms on /site-settings/routing-data (staff and superusers): the upload of a
 * VRP file (multipart, intent "rpki-import"; the file is read into memory up to MAX_ROA_FILE_BYTES,
 * checked whole, and only then replaces the file's set) and the removal of the file's set (intent
 * "rpki-clear"). Works without JavaScript; refusals come back as 400 (413 for a file too large)
 * with the problems listed, and nothing changed.
 */
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { CSRF_FIELD, verifyCsrfForm } from "~/server/auth/csrf.server";
import { clientAddress } from "~/server/auth/session.server";
import { BODY_TEXTS, BodyProblem, checkDeclaredLength, limitedStream } from "~/server/request-body.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { importRoaFile, MAX_ROA_FILE_BYTES, RoaFileError, type RoaImportSummary } from "./roa-import.server";
import { clearFileVrps } from "./vrp-store.server";
import { ROA_UPLOAD_FIELD, RPKI_INTENTS, type RpkiIntent } from "./forms";
import { bodyProblemIn, readField, UploadProblem } from "../upload-fields.server";

/** Room for the form's other fields beside the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const TOO_LARGE = `The file is larger than ${MAX_ROA_FILE_BYTES / 1024 / 1024} MB.`;

/** What the screen shows after a POST of the RPKI section. */
export type RpkiActionResult = {
  rpki: {
    intent: RpkiIntent;
    summary: RoaImportSummary | null;
    /** rpki-clear: the VRPs removed. */
    removed: number | null;
    error: string | null;
    /** The problems of a refused file, one per entry or line (the first ones), and how many there were. */
    problems: string[];
    problemCount: number;
  };
  status: 200 | 400 | 413;
};

const refused = (
  intent: RpkiIntent,
  error: string,
  status: 400 | 413 = 400,
  problems: string[] = [],
  problemCount = 0,
): RpkiActionResult => ({
  rpki: { intent, summary: null, removed: null, error, problems, problemCount },
  status,
});

export function isRpkiIntent(intent: string | null): intent is RpkiIntent {
  return (RPKI_INTENTS as readonly (string | null)[]).includes(intent);
}

async function readFile(data: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of data) {
    size += chunk.length;
    if (size > MAX_ROA_FILE_BYTES) throw new BodyProblem(413, TOO_LARGE);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** The upload of a VRP file (multipart/form-data; CSRF field before the file). CSRF failures throw the usual 403. */
export async function handleRoaUpload(request: Request, services: Pick<Services, "pg">, user: UserContext): Promise<RpkiActionResult> {
  const intent = "rpki-import";
  if (!/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? ""))
    return refused(intent, "Upload the file with the form (multipart/form-data).");
  const limit = MAX_ROA_FILE_BYTES + FORM_OVERHEAD_BYTES;
  try {
    checkDeclaredLength(request, limit);
  } catch (error) {
    if (error instanceof BodyProblem) return refused(intent, error.status === 413 ? TOO_LARGE : error.message, error.status);
    throw error;
  }
  if (!request.body) return refused(intent, "Choose a ROA file to upload.");
  let tooLarge: BodyProblem | null = null;
  const body = limitedStream(request.body, limit, (problem) => (tooLarge = problem));
  const limited = new Request(request.url, { method: request.method, headers: request.headers, body, duplex: "half" } as RequestInit);
  const fields = new FormData();
  let file: { name: string; bytes: Uint8Array } | null = null;
  let handlerFailed = false;
  const handler: UploadHandler = async ({ name, filename, data }) => {
    try {
      if (filename === undefined) {
        const value = await readField(data);
        fields.set(name, value);
        return value;
      }
      if (name !== ROA_UPLOAD_FIELD || file) {
        for await (const chunk of data) void chunk; // only one file is read
        return undefined;
      }
      if (!fields.has(CSRF_FIELD)) throw new UploadProblem("The form's fields must come before the file; reload the page and try again.");
      verifyCsrfForm(request, fields);
      if (!filename) throw new UploadProblem("Choose a ROA file to upload.");
      file = { name: filename, bytes: await readFile(data) };
      return filename;
    } catch (error) {
      handlerFailed = !(error instanceof BodyProblem);
      throw error;
    }
  };
  try {
    await unstable_parseMultipartFormData(limited, handler);
  } catch (error) {
    if (error instanceof Response) throw error;
    const sizeProblem = tooLarge ?? bodyProblemIn(error);
    if (sizeProblem) return refused(intent, sizeProblem.status === 413 ? TOO_LARGE : sizeProblem.message, sizeProblem.status);
    if (!handlerFailed) return refused(intent, BODY_TEXTS.unreadableForm);
    if (error instanceof UploadProblem) return refused(intent, error.message);
    throw error;
  }
  const upload = file as { name: string; bytes: Uint8Array } | null;
  if (!upload) return refused(intent, "Choose a ROA file to upload.");
  if (upload.bytes.byteLength === 0) return refused(intent, `${upload.name} is empty.`);
  try {
    const summary = await importRoaFile(services, {
      bytes: upload.bytes,
      fileName: upload.name,
      actor: { id: user.id, email: user.email },
      clientAddress: clientAddress(request),
    });
    return { rpki: { intent, summary, removed: null, error: null, problems: [], problemCount: 0 }, status: 200 };
  } catch (error) {
    if (error instanceof RoaFileError)
      return refused(intent, `${upload.name} was not imported: nothing was changed.`, 400, error.problems, error.problemCount);
    throw error;
  }
}

/** Removes the file's VRPs (a URL-encoded form with the CSRF field); the RTR cache's stay. */
export async function handleRoaClear(form: FormData, request: Request, services: Pick<Services, "pg">, user: UserContext) {
  verifyCsrfForm(request, form);
  const { removed } = await clearFileVrps(services, { actor: { id: user.id, email: user.email }, clientAddress: clientAddress(request) });
  const result: RpkiActionResult = {
    rpki: { intent: "rpki-clear", summary: null, removed, error: null, problems: [], problemCount: 0 },
    status: 200,
  };
  return result;
}
