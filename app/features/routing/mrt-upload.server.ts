/**
 * The administrators' MRT upload (/site-settings/routing-data): a multipart form streamed straight
 * into importMrt, so a full table never sits in memory or on disk. The fields before the file (CSRF
 * token, vantage point) are read first — the form puts them first — and checked before one byte of
 * the file is decoded.
 */
import { Readable } from "node:stream";
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { asc } from "drizzle-orm";
import { vantagePoints } from "~db/postgres/schema";
import { verifyCsrfForm, CSRF_FIELD } from "~/server/auth/csrf.server";
import { BODY_TEXTS, BodyProblem, checkDeclaredLength, limitedStream } from "~/server/request-body.server";
import type { Services } from "~/server/services.server";
import { DecompressionError } from "./mrt/decompress";
import { MrtFormatError } from "./mrt/errors";
import { importMrt, UnknownVantagePointError, type MrtImportSummary } from "./rib-import.server";
import { UPLOAD_FIELD } from "./mrt-upload";
import { bodyProblemIn, readField, UploadProblem } from "./upload-fields.server";

/** `status`: the HTTP status of a refused upload (400 unless said otherwise, 413 above MAX_UPLOAD_BODY). */
export type MrtUploadResult = { summary: MrtImportSummary; error: null } | { summary: null; error: string; status?: 400 | 413 };

/**
 * Parses the upload and imports the file; CSRF failures throw the usual 403 response. The body is
 * counted while it streams: beyond MAX_UPLOAD_BODY (or a larger declared Content-Length) the upload
 * stops with 413; a malformed multipart body is a 400.
 */
export async function handleMrtUpload(request: Request, services: Pick<Services, "pg" | "ch" | "config">): Promise<MrtUploadResult> {
  if (!/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) {
    return { summary: null, error: "Upload the file with the form (multipart/form-data)." };
  }
  const limit = services.config.MAX_UPLOAD_BODY;
  try {
    checkDeclaredLength(request, limit);
  } catch (error) {
    if (error instanceof BodyProblem) return { summary: null, error: error.message, status: error.status };
    throw error;
  }
  if (!request.body) return { summary: null, error: "Choose an MRT file to upload." };
  let tooLarge: BodyProblem | null = null;
  const body = limitedStream(request.body, limit, (problem) => (tooLarge = problem));
  const limited = new Request(request.url, { method: request.method, headers: request.headers, body, duplex: "half" } as RequestInit);
  let handlerFailed = false;
  const fields = new FormData();
  let result: MrtUploadResult | null = null;
  const readPart: UploadHandler = async ({ name, filename, data }) => {
    if (filename === undefined) {
      const value = await readField(data);
      fields.set(name, value);
      return value;
    }
    if (name !== UPLOAD_FIELD || result) {
      for await (const chunk of data) void chunk; // drain: only one file is imported
      return undefined;
    }
    if (!fields.has(CSRF_FIELD)) throw new UploadProblem("The form's fields must come before the file; reload the page and try again.");
    verifyCsrfForm(request, fields);
    const vantagePoint = String(fields.get("vantagePoint") ?? "").trim();
    if (!vantagePoint) throw new UploadProblem("Choose a vantage point.");
    if (!filename) throw new UploadProblem("Choose an MRT file to upload.");
    const summary = await importMrt(services, { vantagePoint, source: Readable.from(data), fileName: filename });
    if (summary.records === 0 && summary.stoppedEarly === null)
      result = { summary: null, error: `${filename} holds no MRT records (empty file?).` };
    else result = { summary, error: null };
    return filename;
  };
  const handler: UploadHandler = async (part) => {
    try {
      return await readPart(part);
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
    if (sizeProblem) return { summary: null, error: sizeProblem.message, status: sizeProblem.status };
    // Not from reading a part: the multipart framing itself is broken.
    if (!handlerFailed) return { summary: null, error: BODY_TEXTS.unreadableForm, status: 400 };
    if (
      error instanceof UploadProblem ||
      error instanceof UnknownVantagePointError ||
      error instanceof MrtFormatError ||
      error instanceof DecompressionError
    ) {
      return { summary: null, error: error.message };
    }
    throw error;
  }
  // The importer ends a file at a read error and reports what it read: past the limit, that is a 413.
  const sizeProblem = tooLarge as BodyProblem | null;
  if (sizeProblem) return { summary: null, error: sizeProblem.message, status: sizeProblem.status };
  return result ?? { summary: null, error: "Choose an MRT file to upload." };
}

/** The vantage points an upload may go to, by key, for the form's choice. */
export async function uploadVantagePoints(services: Pick<Services, "pg">) {
  return services.pg.db
    .select({ key: vantagePoints.key, router: vantagePoints.router, city: vantagePoints.city })
    .from(vantagePoints)
    .orderBy(asc(vantagePoints.key));
}
