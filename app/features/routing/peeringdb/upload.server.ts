/**
 * The PeeringDB section's upload on /site-settings/routing-data (staff and superusers; intent
 * "peeringdb-import"): a multipart form whose file is streamed into importPeeringDb — a
 * full dump (~100 MB) never sits in memory whole — up to MAX_PEERINGDB_UPLOAD. The importer writes
 * inside one transaction that first removes the previous import, so a bad file, a truncated or too
 * large one, leaves the previous import whole. Refusals come back as 400 (413 for a file too
 * large) with the reason and the objects at fault. The file is spooled to a temporary file as it
 * arrives (spool.server.ts), so the import's transaction does not wait on the network.
 */
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { CSRF_FIELD, verifyCsrfForm } from "~/server/auth/csrf.server";
import { clientAddress } from "~/server/auth/session.server";
import { BODY_TEXTS, BodyProblem, checkDeclaredLength, limitedStream } from "~/server/request-body.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { importPeeringDb, PeeringDbFileError, type PeeringDbImportSummary } from "./import.server";
import { PEERINGDB_INTENT, PEERINGDB_UPLOAD_FIELD } from "./forms";
import { withSpooledFile } from "./spool.server";
import { bodyProblemIn, readField, UploadProblem } from "../upload-fields.server";

/** Room for the form's other fields beside the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const CHOOSE = "Choose a PeeringDB JSON file to upload.";

export const megabytes = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const tooLarge = (limit: number) => `The file is larger than ${megabytes(limit)} MB (MAX_PEERINGDB_UPLOAD).`;

/** What the screen shows after a POST of the PeeringDB section. */
export type PeeringDbActionResult = {
  peeringdb:
    | {
        summary: Omit<PeeringDbImportSummary, "dumpDate"> & { dumpDate: string | null };
        error: null;
        problems: string[];
        problemCount: number;
      }
    | {
        summary: null;
        error: string;
        /** The objects at fault of a refused file (the first ones), and how many there were. */
        problems: string[];
        problemCount: number;
      };
  status: 200 | 400 | 413;
};

const refused = (error: string, status: 400 | 413 = 400, problems: string[] = [], problemCount = 0): PeeringDbActionResult => ({
  peeringdb: { summary: null, error, problems, problemCount },
  status,
});

export const isPeeringDbIntent = (intent: string | null) => intent === PEERINGDB_INTENT;

/** The upload of a PeeringDB JSON file (multipart/form-data: intent, CSRF field, then the file). CSRF failures throw the usual 403. */
export async function handlePeeringDbUpload(
  request: Request,
  services: Pick<Services, "pg" | "config">,
  user: UserContext,
): Promise<PeeringDbActionResult> {
  if (!/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? ""))
    return refused("Upload the file with the form (multipart/form-data).");
  const fileLimit = services.config.MAX_PEERINGDB_UPLOAD;
  const limit = fileLimit + FORM_OVERHEAD_BYTES;
  try {
    checkDeclaredLength(request, limit);
  } catch (error) {
    if (error instanceof BodyProblem) return refused(error.status === 413 ? tooLarge(fileLimit) : error.message, error.status);
    throw error;
  }
  if (!request.body) return refused(CHOOSE);
  let overLimit: BodyProblem | null = null;
  const body = limitedStream(request.body, limit, (problem) => (overLimit = problem));
  const limited = new Request(request.url, { method: request.method, headers: request.headers, body, duplex: "half" } as RequestInit);
  const fields = new FormData();
  let summary: PeeringDbImportSummary | null = null;
  let fileName: string | null = null;
  let handlerFailed = false;
  const handler: UploadHandler = async ({ name, filename, data }) => {
    try {
      if (filename === undefined) {
        const value = await readField(data);
        fields.set(name, value);
        return value;
      }
      if (name !== PEERINGDB_UPLOAD_FIELD || fileName !== null) {
        for await (const chunk of data) void chunk; // only one file is read
        return undefined;
      }
      if (!fields.has(CSRF_FIELD)) throw new UploadProblem("The form's fields must come before the file; reload the page and try again.");
      verifyCsrfForm(request, fields);
      if (!filename) throw new UploadProblem(CHOOSE);
      fileName = filename;
      summary = await withSpooledFile(data, ({ chunks }) =>
        importPeeringDb(services, {
          sources: [{ name: filename, chunks }],
          actor: { id: user.id, email: user.email },
          clientAddress: clientAddress(request),
        }),
      );
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
    const sizeProblem = overLimit ?? bodyProblemIn(error);
    if (sizeProblem) return refused(sizeProblem.status === 413 ? tooLarge(fileLimit) : sizeProblem.message, sizeProblem.status);
    if (!handlerFailed) return refused(BODY_TEXTS.unreadableForm);
    if (error instanceof UploadProblem) return refused(error.message);
    if (error instanceof PeeringDbFileError)
      return refused(`${error.message} Nothing was changed: the previous import stays.`, 400, error.problems, error.problemCount);
    throw error;
  }
  const done = summary as PeeringDbImportSummary | null;
  if (!done) return refused(CHOOSE);
  return {
    peeringdb: { summary: { ...done, dumpDate: done.dumpDate?.toISOString() ?? null }, error: null, problems: [], problemCount: 0 },
    status: 200,
  };
}
