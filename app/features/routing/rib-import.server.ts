/**
 * MRT import (RFC 6396): routing data from a router or a route collector, TABLE_DUMP_V2 RIB dumps
 * and BGP4MP update streams, plain, gzip or bzip2, into rib_entries (and through its materialized
 * view into rib_current) under one vantage point. Streaming: one record and one batch of rows are
 * in memory at a time, whatever the size of the file.
 */
import type { Readable } from "node:stream";
import { asc } from "drizzle-orm";
import { vantagePoints } from "~db/postgres/schema";
import { chInsertRaw } from "~/server/clickhouse/query.server";
import type { Services } from "~/server/services.server";
import type { Compression } from "./mrt/decompress";
import { decodeMrt } from "./mrt/decoder";
import { MrtFormatError } from "./mrt/errors";
import { ribRecordRows, RIB_COLUMNS, updateRows, type CompactRibRow } from "./mrt/rib-rows";

/** Rows per INSERT: large enough that chDB/ClickHouse write few parts, small enough for ~25 MB of JSON. */
export const DEFAULT_BATCH_ROWS = 50_000;
/** Messages kept per import; the count goes on. */
const MAX_ERROR_MESSAGES = 20;

export type MrtImportProgress = { records: number; rows: number; bytesDecoded: number };

export type MrtImportSummary = {
  fileName: string;
  vantagePoint: string;
  compression: Compression | null;
  /** MRT records read (complete ones), of any type. */
  records: number;
  /** Prefixes of TABLE_DUMP_V2 RIB records plus the prefixes announced or withdrawn in BGP4MP updates. */
  prefixes: number;
  /** Rows with a route: RIB entries (prefix × peer) and announced prefixes of updates. */
  announcements: number;
  withdrawals: number;
  stateChanges: number;
  /** Records of types or subtypes not turned into routes (see skippedReasons). */
  skipped: number;
  skippedReasons: Record<string, number>;
  /** Records that could not be decoded, plus one when the stream stopped early. */
  errors: number;
  errorMessages: string[];
  /** Why reading stopped before the end of the stream (a truncated or damaged file), or null. */
  stoppedEarly: string | null;
  rowsWritten: number;
  seconds: number;
};

export class UnknownVantagePointError extends Error {
  constructor(key: string, known: string[]) {
    super(`unknown vantage point "${key}"; known: ${known.length ? known.join(", ") : "none (add vantage points first)"}`);
    this.name = "UnknownVantagePointError";
  }
}

/** Fails with the list of known keys unless `key` is a vantage point in PostgreSQL. */
export async function requireVantagePoint(stores: Pick<Services, "pg">, key: string): Promise<void> {
  const rows = await stores.pg.db.select({ key: vantagePoints.key }).from(vantagePoints).orderBy(asc(vantagePoints.key));
  const known = rows.map((r) => r.key);
  if (!known.includes(key)) throw new UnknownVantagePointError(key, known);
}

/** Rows as JSONCompactEachRow, in pieces of a few MB (one string of a whole batch would be copied twice). */
function encodeRows(rows: CompactRibRow[]): Buffer[] {
  const pieces: Buffer[] = [];
  let text = "";
  for (const row of rows) {
    text += JSON.stringify(row) + "\n";
    if (text.length > 1 << 22) {
      pieces.push(Buffer.from(text));
      text = "";
    }
  }
  if (text) pieces.push(Buffer.from(text));
  return pieces;
}

export async function importMrt(
  stores: Pick<Services, "pg" | "ch">,
  options: {
    vantagePoint: string;
    source: Readable;
    fileName: string;
    batchRows?: number;
    onProgress?: (progress: MrtImportProgress) => void;
  },
): Promise<MrtImportSummary> {
  const started = performance.now();
  const { vantagePoint, source, fileName } = options;
  try {
    await requireVantagePoint(stores, vantagePoint);
  } catch (error) {
    source.destroy();
    throw error;
  }
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS;
  const summary: MrtImportSummary = {
    fileName,
    vantagePoint,
    compression: null,
    records: 0,
    prefixes: 0,
    announcements: 0,
    withdrawals: 0,
    stateChanges: 0,
    skipped: 0,
    skippedReasons: {},
    errors: 0,
    errorMessages: [],
    stoppedEarly: null,
    rowsWritten: 0,
    seconds: 0,
  };
  const noteError = (message: string) => {
    summary.errors++;
    if (summary.errorMessages.length < MAX_ERROR_MESSAGES) summary.errorMessages.push(message);
  };

  let batch: CompactRibRow[] = [];
  // One INSERT in flight while the next batch is decoded: decoding and writing overlap.
  let inFlight: Promise<void> = Promise.resolve();
  const flush = async () => {
    if (!batch.length) return;
    const values = batch;
    batch = [];
    // Encoded here, the bytes the client's insert would send (one JSON array a line), and handed to
    // the store as they are: on chDB the client's insert turned them into one string on the event
    // loop and ran it in the readers' session; the raw insert runs in the writer's, off the loop.
    const body = encodeRows(values);
    await inFlight;
    inFlight = chInsertRaw(stores.ch, {
      name: "routing.ribImport",
      table: "rib_entries",
      body,
      rows: values.length,
      format: "JSONCompactEachRow",
      columns: RIB_COLUMNS,
    }).then(() => {
      summary.rowsWritten += values.length;
    });
  };
  const add = async (rows: CompactRibRow[]) => {
    for (const row of rows) batch.push(row);
    if (batch.length >= batchRows) await flush();
  };

  let routerIp = "";
  let bytesDecoded = 0;
  try {
    for await (const record of decodeMrt(source, { onCompression: (c) => (summary.compression = c) })) {
      summary.records++;
      bytesDecoded = record.offset;
      switch (record.kind) {
        case "peer-index":
          routerIp = record.collectorId;
          break;
        case "rib":
          summary.prefixes++;
          summary.announcements += record.entries.length;
          await add(ribRecordRows(record, vantagePoint, routerIp));
          break;
        case "update":
          summary.prefixes += record.announced.length + record.withdrawn.length;
          summary.announcements += record.announced.length;
          summary.withdrawals += record.withdrawn.length;
          await add(updateRows(record, vantagePoint));
          break;
        case "state-change":
          summary.stateChanges++;
          break;
        case "skipped":
          summary.skipped++;
          summary.skippedReasons[record.reason] = (summary.skippedReasons[record.reason] ?? 0) + 1;
          break;
        case "bad":
          noteError(record.message);
          break;
      }
      if (options.onProgress && summary.records % 1000 === 0)
        options.onProgress({ records: summary.records, rows: summary.announcements + summary.withdrawals, bytesDecoded });
    }
  } catch (error) {
    // Nothing decoded at all (not MRT, or cut inside the first record): a plain failure.
    if (!(error instanceof MrtFormatError) || summary.records === 0) {
      await inFlight.catch(() => {});
      throw error;
    }
    // Everything decoded before the damage is kept: it is written below like a complete file.
    summary.stoppedEarly = error.message;
    noteError(error.message);
  }
  await flush();
  await inFlight;
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}
