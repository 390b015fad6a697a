/**
 * Importing a VRP file (rpki-client or Routinator JSON, Routinator or RIPE validator CSV): the
 * whole file is checked first, then the file's set is replaced in one transaction — a file with
 * any bad entry replaces nothing. Used by the routing data screen and `npm run rpki:import`.
 */
import type { Services } from "~/server/services.server";
import { parseRoaFile, ROA_FILE_FORMAT_LABELS, roaFileErrorText, type RoaFileFormat } from "./roa-file";
import { replaceFileVrps, type FileChangeBy } from "./vrp-store.server";

/** The largest VRP file accepted: a full RPKI set (about 550,000 VRPs) is 30–60 MB as JSON. */
export const MAX_ROA_FILE_BYTES = 256 * 1024 * 1024;

export type RoaImportSummary = {
  fileName: string;
  format: RoaFileFormat;
  formatLabel: string;
  /** Entries in the file, VRPs stored (entries repeated in the file count once), and the repeats. */
  entries: number;
  vrps: number;
  duplicates: number;
  ipv4: number;
  ipv6: number;
  /** VRPs of the previous file, replaced. */
  replaced: number;
  seconds: number;
};

/** A file refused: what is wrong, naming the entries or lines at fault; nothing was replaced. */
export class RoaFileError extends Error {
  constructor(
    message: string,
    readonly problems: string[] = [message],
    readonly problemCount = problems.length,
  ) {
    super(message);
    this.name = "RoaFileError";
  }
}

/** UTF-8 text, or the refusal: a VRP file is JSON or CSV text. */
export function roaFileText(bytes: Uint8Array, fileName: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new RoaFileError(`${fileName} is not a text file (UTF-8 JSON or CSV).`);
  }
}

export async function importRoaFile(
  services: Pick<Services, "pg">,
  input: FileChangeBy & { bytes: Uint8Array; fileName: string },
): Promise<RoaImportSummary> {
  const started = performance.now();
  if (input.bytes.byteLength > MAX_ROA_FILE_BYTES)
    throw new RoaFileError(`${input.fileName} is larger than ${MAX_ROA_FILE_BYTES / 1024 / 1024} MB.`);
  const parsed = parseRoaFile(roaFileText(input.bytes, input.fileName));
  if (!parsed.ok) {
    throw new RoaFileError(`${input.fileName} was not imported:\n${roaFileErrorText(parsed)}`, parsed.errors, parsed.errorCount);
  }
  const { replaced } = await replaceFileVrps(services, {
    vrps: parsed.vrps,
    fileName: input.fileName,
    actor: input.actor,
    clientAddress: input.clientAddress,
  });
  const ipv4 = parsed.vrps.filter((v) => v.version === 4).length;
  return {
    fileName: input.fileName,
    format: parsed.format,
    formatLabel: ROA_FILE_FORMAT_LABELS[parsed.format],
    entries: parsed.entries,
    vrps: parsed.vrps.length,
    duplicates: parsed.duplicates,
    ipv4,
    ipv6: parsed.vrps.length - ipv4,
    replaced,
    seconds: (performance.now() - started) / 1000,
  };
}
