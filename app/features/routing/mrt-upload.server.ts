/**
 * The administrators' MRT upload (/site-settings/routing-data): a multipart form streamed straight
 * into importMrt, so a full table never sits in memory or on disk. The fields before the file (CSRF
 * token, vantage point) are read first — the form puts them first — and checked before one byte of
 * the file is decoded.
 */
import { Readable } from "node:stream";
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { verifyCsrfForm, CSRF_FIELD } from "~/server/auth/csrf.server";
import type { Services } from "~/server/services.server";
import { DecompressionError } from "./mrt/decompress";
import { MrtFormatError } from "./mrt/errors";
import { importMrt, UnknownVantagePointError, type MrtImportSummary } from "./rib-import.server";
import { UPLOAD_FIELD } from "./mrt-upload";

const MAX_FIELD_BYTES = 4096;

export type MrtUploadResult = { summary: MrtImportSummary; error: null } | { summary: null; error: string };

async function readField(data: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of data) {
    size += chunk.length;
    if (size > MAX_FIELD_BYTES) throw new UploadProblem("A form field is too long.");
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString("utf8");
}

class UploadProblem extends Error {}

/** Parses the upload and imports the file; CSRF failures throw the usual 403 response. */
export async function handleMrtUpload(request: Request, services: Pick<Services, "pg" | "ch">): Promise<MrtUploadResult> {
  if (!/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) {
    return { summary: null, error: "Upload the file with the form (multipart/form-data)." };
  }
  const fields = new FormData();
  let result: MrtUploadResult | null = null;
  const handler: UploadHandler = async ({ name, filename, data }) => {
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
    if (summary.records === 0 && summary.stoppedEarly === null) result = { summary: null, error: `${filename} holds no MRT records (empty file?).` };
    else result = { summary, error: null };
    return filename;
  };
  try {
    await unstable_parseMultipartFormData(request, handler);
  } catch (error) {
    if (error instanceof Response) throw error;
    if (error instanceof UploadProblem || error instanceof UnknownVantagePointError || error instanceof MrtFormatError || error instanceof DecompressionError) {
      return { summary: null, error: error.message };
    }
    throw error;
  }
  return result ?? { summary: null, error: "Choose an MRT file to upload." };
}
