/**
 * The one door into ClickHouse: every read (`chQuery`), batched insert (`chInsert`) and statement
 * without rows (`chCommand`) of the app, the demo loader, the scripts and the benchmarks passes
 * here. The client itself stays inside this module (the handle the services hand out has none), so
 * no query path escapes what the door does for each call:
 *   - a name (`flows.topTable`, `routing.lookingGlass`): logged with its duration at debug level and
 *     recorded as the duration metric `ch.<name>`; reads made while serving a request are also
 *     counted apart (flowlens_clickhouse_request_reads_total{query}) and told to the observers
 *     (observeQueries), so a bench or a test can count the queries of one page;
 *   - the query limits (limits.server.ts) for reads made while serving a request;
 *   - the database override of the request's user for reads (database-override.server.ts);
 *   - the reads of a second-client computation (api/v2/, request scope `job`): its time limit,
 *     query ids and abort signal;
 *   - rows checked against the read's zod schema (`chQuery`); only measured hot paths skip it
 *     (`chQueryUnchecked`).
 */
import { Readable } from "node:stream";
import type { ClickHouseClient, ClickHouseSettings, DataFormat } from "@clickhouse/client";
import { z } from "zod";
import { AnalyticsQueryLimiter } from "../analytics-query-limiter.server";
import type { ClickhouseConnection } from "../clickhouse.server";
import { log } from "../log.server";
import { describeMetric, incrementCounter, recordDuration } from "../metrics.server";
import { currentRequestScope, type RequestScope } from "../request-scope.server";
import { NO_OVERRIDE, qualifyFlowsTables, type DatabaseOverride } from "./database-override.server";
import { runLimited, withTimeLimit, type QueryDoorSettings } from "./limits.server";

/** What a SQL builder returns: a statement with its name and bound parameters. */
export type Statement = { name: string; sql: string; params?: Record<string, unknown> };

export type ReadOptions = {
  /** Settings of this call (a limit of its own wins over the door's). */
  settings?: ClickHouseSettings;
  /** The databases to read the flows tables from, instead of those of the request's user (background work for a user). */
  databases?: DatabaseOverride;
  /**
   * "lowest": background work that waits for the analytics query limiter at its lowest priority
   * (a free slot, no query waiting; never refused, no time limit): the alert rules' evaluation.
   */
  priority?: "lowest";
};

/** The services' ClickHouse: the engine, its database, the limiter of analytics queries; the client is the door's. */
export type ClickhouseHandle = {
  kind: ClickhouseConnection["kind"];
  database: string;
  limiter: AnalyticsQueryLimiter;
  close: () => Promise<void>;
};

/** Who a request is, for the limits (identify) and the override (databases). */
export type RequestResolvers = {
  identify: (scope: RequestScope) => Promise<string>;
  databases: (scope: RequestScope) => Promise<DatabaseOverride>;
};

type Door = {
  client: ClickHouseClient;
  writer: ClickHouseClient;
  rawInsert?: ClickhouseConnection["rawInsert"];
  binaryInsert?: ClickhouseConnection["binaryInsert"];
  settings: QueryDoorSettings;
  resolvers: RequestResolvers;
  limiter: AnalyticsQueryLimiter;
};

const doors = new WeakMap<ClickhouseHandle, Door>();

/** Puts the door in front of an open connection; the returned handle is what the app gets. */
export function openQueryDoor(
  connection: ClickhouseConnection,
  settings: QueryDoorSettings,
  resolvers: RequestResolvers,
): ClickhouseHandle {
  const limiter = new AnalyticsQueryLimiter(settings);
  const handle: ClickhouseHandle = { kind: connection.kind, database: connection.database, limiter, close: connection.close };
  doors.set(handle, {
    client: connection.client,
    writer: connection.writer ?? connection.client,
    rawInsert: connection.rawInsert,
    binaryInsert: connection.binaryInsert,
    settings,
    resolvers,
    limiter,
  });
  return handle;
}

function doorOf(ch: ClickhouseHandle): Door {
  const door = doors.get(ch);
  if (!door) throw new Error("Not a ClickHouse handle of the query door");
  return door;
}

/** The databases the current request's reads use (the application's own outside a request): for caches kept per database. */
export function requestDatabases(ch: ClickhouseHandle): Promise<DatabaseOverride> {
  const scope = currentRequestScope();
  return scope ? doorOf(ch).resolvers.databases(scope) : Promise.resolve(NO_OVERRIDE);
}

/** A read as the observers see it: its name and whether a request made it (else background work). */
export type QueryEvent = { name: string; inRequest: boolean };
const observers = new Set<(event: QueryEvent) => void>();

/** Calls `observer` for every read from now on (before it runs); returns the function that stops it. */
export function observeQueries(observer: (event: QueryEvent) => void): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

describeMetric("flowlens_clickhouse_request_reads_total", "ClickHouse reads made while serving a request, by query name.");

function noteRead(name: string, inRequest: boolean) {
  if (inRequest) incrementCounter("flowlens_clickhouse_request_reads_total", { query: name });
  for (const observer of observers) observer({ name, inRequest });
}

/**
 * Times a call under its name: debug log line and the `ch.<name>` duration metric, failures
 * included. Measured as the caller sees it, a wait for a slot of the limiter included: that wait is
 * what a request spends on the query, and the limiter's own figures tell the two apart.
 */
async function timed<R>(name: string, run: () => Promise<R>, count: (result: R) => string = () => ""): Promise<R> {
  const started = performance.now();
  let outcome = "failed";
  try {
    const result = await run();
    outcome = count(result);
    return result;
  } finally {
    const ms = performance.now() - started;
    recordDuration(`ch.${name}`, ms);
    log.debug(`clickhouse ${name} ${ms.toFixed(1)} ms${outcome ? ` ${outcome}` : ""}`);
  }
}

/** A read and the zod schema of its rows: what `chQuery` takes. */
export type CheckedRead<S extends z.ZodType> = Statement & ReadOptions & { schema: S };

/**
 * Rows of a read as plain objects (JSONEachRow), each checked against `schema` (and coerced by it):
 * the SQL's columns are a contract the TypeScript types cannot see, so a row that breaks it fails
 * here, naming the query, the row and the field, instead of flowing on as a wrong value.
 */
export async function chQuery<S extends z.ZodType>(ch: ClickhouseHandle, query: CheckedRead<S>): Promise<z.output<S>[]> {
  if (!query.schema) throw new Error(`ClickHouse query ${query.name}: no row schema (chQuery needs one)`);
  return checkRows(query.name, query.schema, await readRows(ch, query));
}

/**
 * Rows of a read cast to `T`, not checked: for measured hot paths only, where the schema's cost
 * shows next to the query's (docs/decisions/013-checked-rows.md has the figures). Each use names
 * its measurement in a comment; everything else calls `chQuery` with a schema.
 */
export async function chQueryUnchecked<T>(ch: ClickhouseHandle, query: Statement & ReadOptions): Promise<T[]> {
  return (await readRows(ch, query)) as T[];
}

async function readRows(ch: ClickhouseHandle, query: Statement & ReadOptions): Promise<unknown[]> {
  const door = doorOf(ch);
  const scope = currentRequestScope();
  noteRead(query.name, scope !== null);
  const job = scope?.job;
  const run = async (settings: ClickHouseSettings, override: DatabaseOverride) => {
    const { sql, params } = qualifyFlowsTables(query.sql, query.params ?? {}, override);
    // A second-client computation's reads: numbered query ids on a server (KILL QUERY finds them), its abort signal.
    const jobOptions = job
      ? { abort_signal: job.signal, ...(ch.kind === "clickhouse" ? { query_id: `${job.queryIdPrefix}-${++job.reads}` } : {}) }
      : {};
    const rs = await door.client.query({
      query: sql,
      query_params: params,
      format: "JSONEachRow",
      clickhouse_settings: settings,
      ...jobOptions,
    });
    return rs.json<unknown>();
  };
  return timed(
    query.name,
    async () => {
      if (query.priority === "lowest")
        return door.limiter.runAtLowestPriority(`background:${query.name}`, () =>
          run(withTimeLimit(query.settings, 0), query.databases ?? NO_OVERRIDE),
        );
      if (!scope) return run(withTimeLimit(query.settings, 0), query.databases ?? NO_OVERRIDE);
      const [key, override] = await Promise.all([
        door.resolvers.identify(scope),
        query.databases ? Promise.resolve(query.databases) : door.resolvers.databases(scope),
      ]);
      const settings = withTimeLimit(query.settings, job ? job.maxExecutionSeconds : door.settings.maxExecutionSeconds);
      return runLimited(door.limiter, key, () => run(settings, override), settings);
    },
    (result) => `${result.length} rows`,
  );
}

function checkRows<S extends z.ZodType>(name: string, schema: S, rows: unknown[]): z.output<S>[] {
  return rows.map((row, i) => {
    const checked = schema.safeParse(row);
    if (!checked.success)
      throw new Error(`ClickHouse query ${name}: row ${i} does not match its schema: ${z.prettifyError(checked.error)}`);
    return checked.data;
  });
}

export type Insert = {
  name: string;
  table: string;
  values: readonly unknown[];
  /** The columns of compact formats, in order. */
  columns?: readonly [string, ...string[]];
  /** Default JSONEachRow (objects); JSONCompactEachRow for arrays in `columns` order. */
  format?: DataFormat;
  settings?: ClickHouseSettings;
};

/** One batch of rows into a table. Writes are background work: never limited, never time-limited, no override. */
export async function chInsert(ch: ClickhouseHandle, insert: Insert): Promise<void> {
  const door = doorOf(ch);
  await timed(
    insert.name,
    () =>
      door.client.insert({
        table: insert.table,
        values: insert.values as unknown[],
        format: insert.format ?? "JSONEachRow",
        ...(insert.columns ? { columns: [...insert.columns] as [string, ...string[]] } : {}),
        clickhouse_settings: withTimeLimit(insert.settings, 0),
      }),
    () => `${insert.values.length} rows`,
  );
}

/**
 * Formats of a body already encoded by the caller (rows written elsewhere, e.g. in a worker thread):
 * text formats on both engines; RowBinary on chDB only (`binaryRowsAccepted`).
 */
export type RawFormat = "TabSeparated" | "CSV" | "JSONEachRow" | "JSONCompactEachRow" | "RowBinary";

/** Whether chInsertRaw takes RowBinary bodies here (embedded chDB); a server is sent text. */
export function binaryRowsAccepted(ch: ClickhouseHandle): boolean {
  return doorOf(ch).binaryInsert !== undefined;
}

export type RawInsert = {
  name: string;
  table: string;
  columns: readonly [string, ...string[]];
  format: RawFormat;
  /** The rows, already in `format`, each chunk ending at a row's end; sent as they are. */
  body: Uint8Array | readonly Uint8Array[];
  /** For the log line (the door does not parse the body to count). */
  rows?: number;
  settings?: ClickHouseSettings;
};

/**
 * One batch of rows already encoded: the bytes go to the engine as they are, nothing is parsed or
 * serialised here. The body is joined into one buffer (a copy, cheap next to encoding rows). On a
 * server it is the request body. On chDB it goes through chDB's raw insert in the writer session
 * (clickhouse.server.ts), beside the reads rather than before them: the buffer is handed to the
 * engine as it is, where the client's insert would decode it into a JavaScript string on the event
 * loop and append it to the statement. RowBinary (chDB only) goes through a file and `FROM INFILE`
 * in the same session (clickhouse.server.ts `binaryInsert`).
 */
export async function chInsertRaw(ch: ClickhouseHandle, insert: RawInsert): Promise<void> {
  const door = doorOf(ch);
  const parts = insert.body instanceof Uint8Array ? [insert.body] : insert.body;
  const body = parts.length === 1 ? parts[0] : Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
  const settings = withTimeLimit(insert.settings, 0);
  const { rawInsert, binaryInsert } = door;
  await timed(
    insert.name,
    async () => {
      if (insert.format === "RowBinary") {
        if (!binaryInsert) throw new Error(`${insert.name}: RowBinary bodies are for embedded chDB; a server is sent a text format`);
        await binaryInsert({
          table: insert.table,
          columns: insert.columns,
          format: "RowBinary",
          values: body,
          settings: plainSettings(settings),
        });
        return;
      }
      if (rawInsert) {
        await rawInsert({
          table: insert.table,
          columns: insert.columns,
          format: insert.format,
          values: body,
          settings: plainSettings(settings),
        });
        return;
      }
      await door.writer.insert({
        table: insert.table,
        values: Readable.from([body], { objectMode: false }),
        format: insert.format,
        columns: [...insert.columns] as [string, ...string[]],
        clickhouse_settings: settings,
      });
    },
    () => (insert.rows === undefined ? `${body.length} bytes` : `${insert.rows} rows`),
  );
}

/** Settings as chDB's raw insert takes them (SETTINGS of the statement): scalar values only. */
function plainSettings(settings: ClickHouseSettings): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(settings)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") out[key] = value;
  }
  return out;
}

/** A statement without rows (DDL, INSERT … SELECT, OPTIMIZE): background work like an insert. */
export async function chCommand(ch: ClickhouseHandle, command: Statement & { settings?: ClickHouseSettings }): Promise<void> {
  const door = doorOf(ch);
  await timed(command.name, () =>
    door.client.command({ query: command.sql, query_params: command.params, clickhouse_settings: withTimeLimit(command.settings, 0) }),
  );
}

/** A trivial read outside the limits (the health check must not queue behind users' queries). */
export async function pingClickhouse(ch: ClickhouseHandle): Promise<void> {
  const door = doorOf(ch);
  const rs = await door.client.query({ query: "SELECT 1 AS ok", format: "JSONEachRow", clickhouse_settings: withTimeLimit(undefined, 0) });
  await rs.json();
}

/** The engine's version (chDB reports the ClickHouse version it embeds). */
export async function clickhouseVersion(ch: ClickhouseHandle): Promise<string> {
  const [row] = await chQuery(ch, { name: "version", sql: "SELECT version() AS v", schema: z.object({ v: z.string() }) });
  return row?.v ?? "";
}

/** Kills the running queries of a second-client computation on a ClickHouse server (chDB cannot: its time limit ends them). */
export async function killJobQueries(ch: ClickhouseHandle, queryIdPrefix: string): Promise<void> {
  if (ch.kind !== "clickhouse") return;
  await chCommand(ch, {
    name: "apiV2.killQuery",
    sql: "KILL QUERY WHERE startsWith(query_id, {prefix:String}) ASYNC",
    params: { prefix: `${queryIdPrefix}-` },
  });
}
