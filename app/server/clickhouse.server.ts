import { closeSync, fstatSync, mkdirSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isatty } from "node:tty";
import path from "node:path";
import { ClickHouseLogLevel, createClient, type ClickHouseClient, type ClickHouseClientConfigOptions } from "@clickhouse/client";
import type { RawInsertParams } from "chdb";
import type { AppConfig } from "./env.server";

/** An open client; the services put the query door (clickhouse/query.server.ts) in front of it and hand out only the door. */
export type ClickhouseConnection = {
  client: ClickHouseClient;
  /**
   * chDB only: a second session on the same data for the collector's continuous inserts. A chDB
   * session runs one statement at a time, so reads (health checks, users' queries) sharing the
   * session with inserts waited up to a whole insert; two sessions run side by side.
   */
  writer?: ClickHouseClient;
  /**
   * chDB only: inserts of rows already encoded, in the writer session, through chDB's own raw
   * insert: the bytes go to the engine as they are, off the event loop. The client's insert would
   * first turn them into a JavaScript string and append that to the statement.
   */
  rawInsert?: (insert: RawInsertParams) => Promise<void>;
  /**
   * chDB only: an insert of RowBinary rows, in the writer session. chDB's raw insert takes text
   * formats only; this one writes the bytes to a file of its own and inserts `FROM INFILE` (the
   * table's own column types, as an inline insert), so the engine copies values instead of parsing text.
   */
  binaryInsert?: (insert: BinaryInsert) => Promise<void>;
  kind: "chdb" | "clickhouse";
  database: string;
  close: () => Promise<void>;
};

export type BinaryInsert = {
  table: string;
  columns: readonly string[];
  format: "RowBinary";
  values: Uint8Array;
  settings: Record<string, string | number | boolean>;
};

// 64-bit integers as JSON numbers on both engines (servers quote them by default, chDB does not).
const COMMON_SETTINGS = { output_format_json_quote_64bit_integers: 0 } as const;

/**
 * chDB (embedded, persisted under DATA_DIR/ch) when no CLICKHOUSE_URL is set, otherwise a server.
 * Both are driven through @clickhouse/client, so every query is the same ClickHouse SQL.
 * chDB runs queries off the event loop (queryAsync), but one at a time per session: a slow query
 * delays every later one, which is why requests reach it through the query door, and why raw
 * inserts (the flow collector's) go through a session of their own (`writer`).
 */
export async function openClickhouse(
  config: Pick<AppConfig, "CLICKHOUSE_URL" | "CLICKHOUSE_USER" | "CLICKHOUSE_PASSWORD" | "CLICKHOUSE_DATABASE" | "dataDir">,
  options: { chdbPath?: string } = {},
): Promise<ClickhouseConnection> {
  const database = config.CLICKHOUSE_DATABASE;
  if (config.CLICKHOUSE_URL) {
    const admin = createClient({
      url: config.CLICKHOUSE_URL,
      username: config.CLICKHOUSE_USER ?? "default",
      password: config.CLICKHOUSE_PASSWORD ?? "",
      clickhouse_settings: COMMON_SETTINGS,
      request_timeout: 10_000,
      // The failure is reported once, clearly, below; the client's own log would add a stack trace.
      log: { level: ClickHouseLogLevel.OFF },
    });
    const ping = await admin.ping();
    if (!ping.success) {
      await admin.close();
      throw new StoreUnavailableError("ClickHouse", `cannot reach ${config.CLICKHOUSE_URL}: ${ping.error.message}`);
    }
    try {
      await admin.command({ query: `CREATE DATABASE IF NOT EXISTS ${database}` });
    } catch (error) {
      // Typically wrong credentials or missing grants: the ping above needs neither.
      throw new StoreUnavailableError(
        "ClickHouse",
        `cannot create or open database ${database} at ${config.CLICKHOUSE_URL}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
      );
    } finally {
      await admin.close();
    }
    const client = createClient({
      url: config.CLICKHOUSE_URL,
      username: config.CLICKHOUSE_USER ?? "default",
      password: config.CLICKHOUSE_PASSWORD ?? "",
      database,
      clickhouse_settings: COMMON_SETTINGS,
      request_timeout: 1_800_000,
    });
    return { client, kind: "clickhouse", database, close: () => client.close() };
  }

  detachStandardInput();
  const chdbPath = options.chdbPath ?? path.join(config.dataDir, "ch");
  if (chdbPath !== ":memory:") mkdirSync(chdbPath, { recursive: true });
  // Imported lazily: libchdb is a 500 MB native library, only needed in embedded mode.
  const { createChdbConnection } = await import("chdb/connection");
  const bootstrap = createChdbConnection({ path: chdbPath }) as unknown as NonNullable<ClickHouseClientConfigOptions["connection"]>;
  const client = createClient({ connection: bootstrap, clickhouse_settings: COMMON_SETTINGS });
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${database}` });
  // A chDB session is one connection: select the database for everything that follows.
  await client.command({ query: `USE ${database}` });
  const writerConnection = createChdbConnection({ path: chdbPath });
  const writer = createClient({
    connection: writerConnection as unknown as NonNullable<ClickHouseClientConfigOptions["connection"]>,
    clickhouse_settings: COMMON_SETTINGS,
  });
  await writer.command({ query: `USE ${database}` });
  // The files of binary inserts: one per insert, removed when it ends (the directory when the store closes).
  const insertFiles = mkdtempSync(path.join(tmpdir(), "flowlens-ch-insert-"));
  let insertFileCount = 0;
  return {
    client,
    writer,
    rawInsert: async (insert) => {
      await writerConnection.chdb.rawInsert(insert);
    },
    binaryInsert: async (insert) => {
      const file = path.join(insertFiles, `${++insertFileCount}.bin`);
      await writeFile(file, insert.values);
      try {
        await writerConnection.chdb.queryAsync(binaryInsertStatement(insert, file));
      } finally {
        await unlink(file).catch(() => undefined);
      }
    },
    kind: "chdb",
    database,
    close: async () => {
      await writer.close();
      await client.close();
      rmSync(insertFiles, { recursive: true, force: true });
    },
  };
}

/**
 * libchdb runs ClickHouse's local engine inside this process, and that engine reads the process's
 * standard input as the data of every INSERT when fd 0 is a pipe or a file (as under a supervisor,
 * a CI runner or `npm start < file`): every insert then fails ("Processing async inserts with
 * both inlined and external data", or a parse error of whatever stdin holds). The app never reads
 * its standard input, so a non-terminal stdin is replaced by /dev/null before chDB opens: POSIX
 * open() takes the lowest free descriptor, which is 0 once it is closed.
 */
export function detachStandardInput(): void {
  try {
    if (isatty(0) || fstatSync(0).isCharacterDevice()) return;
  } catch {
    return; // fd 0 is closed: there is nothing to read.
  }
  closeSync(0);
  const fd = openSync("/dev/null", "r");
  if (fd !== 0) closeSync(fd);
}

export class StoreUnavailableError extends Error {
  constructor(
    readonly store: "PostgreSQL" | "ClickHouse",
    detail: string,
  ) {
    super(`${store} is not available: ${detail}`);
    this.name = "StoreUnavailableError";
  }
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;
const sqlString = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** `INSERT INTO t (columns) FROM INFILE 'file' SETTINGS … FORMAT RowBinary`; names are the caller's constants, checked all the same. */
export function binaryInsertStatement(insert: BinaryInsert, file: string): string {
  for (const name of [insert.table, ...insert.columns, ...Object.keys(insert.settings)])
    if (!IDENTIFIER.test(name)) throw new Error(`binary insert: ${JSON.stringify(name)} is not an identifier`);
  const settings = Object.entries(insert.settings).map(([k, v]) => `${k} = ${typeof v === "string" ? sqlString(v) : Number(v)}`);
  return (
    `INSERT INTO ${insert.table} (${insert.columns.join(", ")}) FROM INFILE ${sqlString(file)}` +
    `${settings.length ? ` SETTINGS ${settings.join(", ")}` : ""} FORMAT ${insert.format}`
  );
}
