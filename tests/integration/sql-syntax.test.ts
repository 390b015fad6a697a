/**
 * Every statement the SQL builders can generate is valid ClickHouse SQL: `EXPLAIN SYNTAX` on chDB
 * for every dimension as shown, every filter kind (positive and negated), every table, IP version
 * and traffic direction, every view (table, timeseries, sankey, the analysis calls), every RIB
 * match and Control Plane sort, the flow generator's routing-table sample — and with a user's
 * database override applied by the door.
 * The golden tests fix the text; this one proves the engine parses all of it.
 */
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  endpointDimension,
  indirectAsQuery,
  ingressRouterQuery,
  interfaceLoadQuery,
  linkPathQuery,
  untrackedQuery,
  type LinkEndpoint,
} from "~/features/flows/analysis-sql";
import { DIMENSION_IDS, getDimension, type DimensionId } from "~/features/filter/dimensions";
import { flowIntervalsQuery, flowP95Query, type FlowP95Input } from "~/features/planners/interface-statistics-p95";
import type { FlowFilter } from "~/features/filter/filters";
import { dataRangeQuery, latestBucketQuery, vrfNamesQuery } from "~/features/flows/lookup-sql";
import {
  keyedTimeseries,
  keyedTopTable,
  bucketedTable,
  leftOutTotals,
  sankey,
  scanTotal,
  timeseries,
  topTable,
  type BuiltQuery,
  type FlowQueryOptions,
} from "~/features/flows/sql";
import { routeCountsSql, sweepCandidatesSql, sweepSql, type SweepScope } from "~/features/collector/bmp/sweep-sql";
import { ribSampleStatement } from "~/features/collector/export/rib-sample-sql";
import { ribPageSql } from "~/features/collector/enrich/snapshot.server";
import { parseCommunityPattern } from "~/lib/bgp-communities";
import {
  datesWithDataQuery,
  heatmapQuery,
  linkFiguresQuery,
  samplingConfidenceQuery,
  seriesQuery,
  timeseriesQuery,
  type LinkEnd,
} from "~/features/planners/sql";
import { CONTROL_PLANE_COLUMNS } from "~/features/routing/route-columns";
import { controlPlaneSql, lookingGlassSql, parseRibQuery, ribDatesSql, type RibMatch } from "~/features/routing/rib-sql";
import { flowHoursSql, neighborP95Sql } from "~/features/asrelations/sql";
import {
  originatedPrefixesSql,
  routingStreamsSql,
  routingStreamsSummarySql,
  routingStreamsVantagePointsSql,
} from "~/features/routing/streams/sql";
import { qualifyFlowsTables } from "~/server/clickhouse/database-override.server";
import {
  objectLevelsQuery,
  objectSourceAsQuery,
  routingBeforeQuery,
  routingChangesQuery,
  vantagePointsQuery,
  topSourceAddressesQuery,
  coveringRoutesQuery,
} from "~/features/flows/rootcause/sql";
import { parseRawFilterValue, rawFilterConditions, RAW_FILTER_KIND_IDS, type RawFilter } from "~/features/filter/raw-filters";
import { dimensionFilterConditions } from "~/features/filter/flow-filter-sql";
import { compileNfdumpFilter } from "~/features/filter/nfdump";
import { RNA_COLUMN_IDS, rnaColumn, type RnaColumnId } from "~/features/rna/columns";
import {
  keyTypes,
  rnaDataRange,
  rnaGroupCount,
  rnaPage,
  rnaRecordTies,
  rnaSums,
  rnaTimeseries,
  rnaTopGroupSums,
  timeseriesValueType,
} from "~/features/rna/sql";
import { chCommand, chQuery } from "~/server/clickhouse/query.server";
import { openTestStores, type TestStores } from "../helpers/stores";

const RANGE = { start: 1_794_913_800, end: 1_795_000_200 };
const OPERATOR = 64500;

let stores: TestStores;

beforeAll(async () => {
  stores = await openTestStores();
  // For the override: a second database with the flows tables, as an administrator would point to.
  await chCommand(stores.ch, { name: "test.overrideDatabase", sql: "CREATE DATABASE IF NOT EXISTS flows_archive" });
  for (const table of ["flows_5m", "flows_1h", "flows_raw"])
    await chCommand(stores.ch, { name: "test.overrideTable", sql: `CREATE TABLE flows_archive.${table} AS ${table}` });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

const direction = (d: DimensionId) => getDimension(d).direction;
const sample = (d: DimensionId) => (getDimension(d).valueType === "Int64" ? "64496" : "x|y");

/** A positive and a negated filter on every dimension: every filter kind and direction in one WHERE. */
const EVERY_FILTER: FlowFilter[] = DIMENSION_IDS.flatMap((d) => [
  { dimension: d, value: sample(d), isNegation: false },
  { dimension: d, value: sample(d), isNegation: true },
]);

const TABLES = ["flows_5m", "flows_1h"] as const;
const IP_VERSIONS = ["all", 4, 6] as const;

/** Options covering tables, IP versions, no filter and every filter, with and without a direction scope compatible with `shown`. */
function optionSets(shown: readonly DimensionId[]): FlowQueryOptions[] {
  const own = shown.map(direction).find((d) => d !== null) ?? null;
  const scopes = own ? [undefined, own] : [undefined, "INGRESS" as const, "EGRESS" as const];
  return TABLES.flatMap((table) =>
    IP_VERSIONS.flatMap((ipVersion) =>
      scopes.flatMap((scope) =>
        [[], EVERY_FILTER].map((filters) => ({ range: RANGE, operatorAsn: OPERATOR, table, ipVersion, scope, filters })),
      ),
    ),
  );
}

function flowStatements(): BuiltQuery[] {
  const out: BuiltQuery[] = [];
  for (const d of DIMENSION_IDS) {
    for (const opts of optionSets([d])) {
      out.push(topTable([d], opts), keyedTopTable(d, opts), scanTotal([d], opts));
      if (direction(d) || opts.scope) out.push(leftOutTotals([d], opts));
      out.push(timeseries(d, { ...opts, window: 300, topN: 10 }), keyedTimeseries(d, { ...opts, window: 300, topN: 10 }));
    }
  }
  // Sankeys and multi-dimension tables: each dimension next to one of every other it may be combined with.
  for (const a of DIMENSION_IDS) {
    for (const b of DIMENSION_IDS) {
      if (a === b || (direction(a) && direction(b) && direction(a) !== direction(b))) continue;
      const opts = { range: RANGE, operatorAsn: OPERATOR, filters: EVERY_FILTER };
      out.push(sankey([a, b], opts), topTable([a, b], opts));
    }
  }
  out.push(sankey(["AS_SRC_INGRESS", "ROUTER_IN", "INTERFACE_IN", "AS_DST_INGRESS"], { range: RANGE, operatorAsn: OPERATOR, topN: 5 }));
  return out;
}

function analysisStatements(): BuiltQuery[] {
  const out: BuiltQuery[] = [];
  const base = { range: RANGE, operatorAsn: OPERATOR, filters: EVERY_FILTER };
  out.push(indirectAsQuery([2906, 15169], base));
  for (const d of DIMENSION_IDS) {
    if (direction(d) === "EGRESS") continue; // the ingress router's statistics: ROUTER_IN is an ingress dimension
    out.push(ingressRouterQuery(d, null, base), ingressRouterQuery(d, "fra-er1", base));
    if (getDimension(d).filterKind === "AS_NUMBER") out.push(untrackedQuery(d, { ...base, window: 3600 }));
  }
  const ends: LinkEndpoint[] = [
    { kind: "AS", asn: 2906 },
    { kind: "ROUTER", router: "fra-er1" },
  ];
  for (const origin of ends)
    for (const destination of ends) {
      expect(endpointDimension("origin", origin)).toBeTruthy();
      for (const table of TABLES) out.push(linkPathQuery(origin, destination, { ...base, table }));
    }
  out.push(interfaceLoadQuery(["fra-er1|et-0/0/1"], RANGE));
  // Root-cause analysis (features/flows/rootcause/sql.ts).
  for (const [dimension, value] of [
    ["AS_SRC_INGRESS", "2906"],
    ["AS_HND_INGRESS", "3356"],
    ["ROUTER_IN", "fra-er1"],
    ["INTERFACE_IN", "fra-er1|et-0/0/1"],
  ] as const) {
    const scope = { dimension, value, operatorAsn: OPERATOR };
    out.push(objectLevelsQuery(scope, RANGE, 300), objectLevelsQuery(scope, RANGE, 3600), objectSourceAsQuery(scope, RANGE, 6));
    out.push(topSourceAddressesQuery(scope, RANGE, 20));
  }
  for (const table of TABLES) out.push(bucketedTable(["AS_HND_INGRESS", "ROUTER_IN", "INTERFACE_IN"], { ...base, table, window: 300 }));
  out.push(
    routingChangesQuery([2906], ["192.0.2.0/24"], RANGE),
    routingBeforeQuery([2906], [], RANGE),
    coveringRoutesQuery(["::ffff:192.0.2.0", "::ffff:192.0.0.0"], RANGE),
    vantagePointsQuery(RANGE.end),
  );
  return out;
}

function plannerStatements(): BuiltQuery[] {
  const ends: LinkEnd[] = [
    { link: "fra-er1|et-0/0/1", router: "fra-er1", interface: "et-0/0/1", swap: false, preference: 2 },
    { link: "fra-cr1|xe-1>fra-cr2|xe-2", router: "fra-cr2", interface: "xe-2", swap: true, preference: 1 },
  ];
  return [
    linkFiguresQuery(ends, RANGE),
    heatmapQuery(ends, RANGE, "Europe/Berlin"),
    ...[300, 900, 3600, 86_400].map((bucket) => timeseriesQuery(ends, RANGE, bucket)),
    seriesQuery(ends, RANGE),
    datesWithDataQuery(ends),
    samplingConfidenceQuery(ends, RANGE),
  ];
}

function ribStatements(): BuiltQuery[] {
  const matches: RibMatch[] = [
    ["IpPrefixQuery", "192.0.2.77"],
    ["IpPrefixQuery", "2001:db8::1"],
    ["IpPrefixQuery", "10.0.0.0/8"],
    ["IpPrefixQuery", "2001:db8::/32"],
    ["AsPathQuery", "3356 *"],
    ["AsPathQuery", "? 3356"],
  ].map(([type, term]) => {
    const parsed = parseRibQuery(type as "IpPrefixQuery" | "AsPathQuery", term);
    if (!parsed.ok) throw new Error(`${type} ${term}: ${parsed.error}`);
    return parsed.match;
  });
  const out: BuiltQuery[] = [
    ribDatesSql(),
    routingStreamsSummarySql({ asn: 3356 }),
    routingStreamsVantagePointsSql({ asn: 3356 }),
    routingStreamsSql({ asn: 3356, limit: 100 }),
    originatedPrefixesSql({ asn: 3356, limit: 100, ribViews: ["pre-policy"] }),
    flowHoursSql({ start: 1_790_000_000, end: 1_792_000_000 }),
    neighborP95Sql({ start: 1_790_000_000, end: 1_792_000_000 }, { keys: ["fra1|xe-0"], asns: [3356] }, 700),
  ];
  for (const match of matches) {
    out.push(lookingGlassSql({ vantagePoints: ["fra1", "ams1"], match, limit: 100 }));
    // One table, and a community exactly or by its last part.
    for (const community of ["64496:100", "64496:1:*", "RT:64497:*"]) {
      const pattern = parseCommunityPattern(community);
      if (!pattern.ok) throw new Error(pattern.error);
      out.push(lookingGlassSql({ vantagePoints: ["fra1"], match, limit: 100, ribViews: ["pre-policy"], community: pattern.pattern }));
    }
    for (const sort of CONTROL_PLANE_COLUMNS)
      for (const order of ["asc", "desc"] as const)
        out.push(
          controlPlaneSql({ match, start: RANGE.start, end: RANGE.end, limit: 100, table: { sort, order, vantagePointOrder: ["ams1"] } }),
        );
    out.push(
      controlPlaneSql({
        match,
        start: RANGE.start,
        end: RANGE.end,
        limit: 100,
        table: {
          sort: "timestamp",
          order: "desc",
          search: { text: "3356", vantagePoints: ["fra1"] },
          numeric: [{ column: "localPref", filter: { op: ">", value: 100 } }],
        },
      }),
    );
  }
  return out;
}

/** The routes the flow generator draws addresses from (default and small bounds) and the enrichment snapshot's pages. */
const generatorStatements = (): BuiltQuery[] =>
  [
    ribSampleStatement(),
    ribSampleStatement(10, 50),
    ribPageSql({ vantagePoint: "fra1", routeDistinguisher: "", after: null, limit: 10 }),
    ribPageSql({ vantagePoint: "fra1", routeDistinguisher: "64500:1", after: { address: "::ffff:10.0.0.0", length: 8 }, limit: 10 }),
  ].map((q) => ({ ...q, params: q.params ?? {} }));

/** The BMP station's sweeps (every kind of limit, and none) with their look for candidates, and its route count. */
function bmpStatements(): BuiltQuery[] {
  const base: SweepScope = { vantagePoint: "fra1", routerIp: "192.0.2.1", views: ["pre-policy", "post-policy"] };
  const scopes: SweepScope[] = [
    base,
    { ...base, peerIp: "198.51.100.1", distinguishers: { except: ["64500:1"] }, family: { afi: 1, safi: 128 }, before: 1_795_000_000 },
    { ...base, peerIp: "192.0.2.1", views: ["loc-rib"], distinguishers: { only: ["64500:1", "64500:2"] } },
    { ...base, views: ["pre-policy", "post-policy", "loc-rib"], before: 1_795_000_000, keepPeers: ["198.51.100.1|post-policy"] },
  ];
  return [...scopes.flatMap((scope) => [sweepCandidatesSql(scope), sweepSql(scope, 1_795_000_100)]), routeCountsSql(["fra1", "ber1"])].map(
    (q) => ({ ...q, params: q.params ?? {} }),
  );
}

/** A sample value of each RNA key type, as a cursor carries it. */
const KEY_SAMPLES: Record<string, string> = {
  UInt8: "6",
  UInt16: "443",
  UInt32: "1794914000",
  UInt64: "18446744073709551615",
  Int16: "-1",
  Int64: "-101",
  String: "fra-er1",
  IPv6: "::ffff:10.0.0.0",
  "Array(UInt32)": "[16,17]",
};

/** A sample value of each timeseries value type, as its parameter binds it. */
const SERIES_SAMPLES: Record<string, unknown> = { String: "x", IPv6: "::ffff:10.0.0.0", "Array(UInt32)": [16], Int64: 64501, Int16: 8 };

/**
 * The Raw Network Analyzer over flows_raw: every column alone as a record and as a group, sorted by
 * itself both ways, with and without a cursor; all columns at once; every raw-record filter kind,
 * every dimension filter and an nfdump expression in the WHERE; sums, group count, top groups,
 * timeseries by every groupable column, the data range.
 */
function rnaStatements(): BuiltQuery[] {
  const raw: RawFilter[] = RAW_FILTER_KIND_IDS.flatMap((kind) => {
    const sample = kind.includes("PREFIX") || kind === "NEXT_HOP" ? "10.0.0.0/8" : kind === "EXPORTER" ? "192.0.2.1" : "64501";
    return [`${sample}@CUST_A`, `!${sample}`].map((v) => (parseRawFilterValue(kind, v) as { filter: RawFilter }).filter);
  });
  const nf = compileNfdumpFilter("proto tcp and dst port in [80 443] and not src net 2001:db8::/32 and bytes > 1k");
  if (!nf.ok) throw nf.error;
  const dims = dimensionFilterConditions(EVERY_FILTER);
  const rawConds = rawFilterConditions(raw);
  const where = {
    conds: ["counted = 1", ...dims.conds, ...rawConds.conds, nf.sql],
    params: { ...dims.params, ...rawConds.params, ...nf.params, operatorAsn: OPERATOR },
  };
  const out: { name: string; sql: string; params?: Record<string, unknown> }[] = [];
  const aggregations = [
    { v4: null, v6: null },
    { v4: 24, v6: 48 },
  ];
  for (const aggregation of aggregations) {
    const sets: RnaColumnId[][] = [[...RNA_COLUMN_IDS], ...RNA_COLUMN_IDS.map((c) => [c])];
    for (const columns of sets) {
      const sortable = columns.length === 1 ? columns : (["time_received", "bytes_scaled", "src_addr"] as RnaColumnId[]);
      for (const column of sortable)
        for (const direction of ["asc", "desc"] as const) {
          const query = { range: RANGE, columns, aggregation, sort: { column, direction } };
          const values = keyTypes(query).map((t) => KEY_SAMPLES[t]);
          out.push(rnaPage(query, where, { keyset: null, limit: 101 }), rnaPage(query, where, { keyset: { values, skip: 1 }, limit: 102 }));
          if (aggregation.v4 === null)
            out.push(rnaRecordTies(query, where, { keyset: { values, skip: 0 }, prefix: values.slice(0, -1), limit: 102 }));
        }
      if (aggregation.v4 !== null) {
        const query = { range: RANGE, columns, aggregation, sort: null };
        out.push(rnaGroupCount(query, where, 10_001), rnaTopGroupSums(query, where, 10_000));
      }
    }
    for (const column of RNA_COLUMN_IDS) {
      if (rnaColumn(column).kind !== "dimension" || column === "tags" || column === "time_received") continue;
      const type = timeseriesValueType(column);
      const sample = SERIES_SAMPLES[type] ?? 1;
      out.push(rnaTimeseries({ range: RANGE, aggregation }, where, { column, values: [sample as string], window: 300 }));
    }
  }
  out.push(rnaSums({ range: RANGE }, where), rnaDataRange());
  return out.map((q) => ({ ...q, params: q.params ?? {} }));
}

const lookupStatements = (): BuiltQuery[] => [dataRangeQuery(), latestBucketQuery(), vrfNamesQuery("blue", 500)];

/** Runs EXPLAIN SYNTAX for each statement; returns the ones ClickHouse refused, with its message. */
async function refused(statements: readonly BuiltQuery[]): Promise<string[]> {
  const failures: string[] = [];
  for (const q of statements) {
    try {
      await chQuery(stores.ch, {
        name: `syntax.${q.name}`,
        sql: `EXPLAIN SYNTAX ${q.sql}`,
        params: q.params,
        schema: z.object({ explain: z.string() }),
      });
    } catch (error) {
      failures.push(`${q.name}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}\n${q.sql}`);
    }
  }
  return failures;
}

/** The link-utilisation API's flow 95th per AS: both tables, directions and AS columns, one or several interfaces. */
function plannerFlowStatements(): BuiltQuery[] {
  const out: BuiltQuery[] = [];
  for (const table of TABLES)
    for (const direction of ["in", "out"] as const)
      for (const column of ["as_hnd", "as_src", "as_nxt", "as_dst"] as const)
        for (const interfaces of [["et-0/0/1"], ["et-0/0/1", "et-0/0/2"]]) {
          const input: FlowP95Input = { table, router: "fra-er1", interfaces, direction, column, range: RANGE };
          out.push(flowIntervalsQuery(input), flowP95Query(input, 8640));
        }
  return out;
}

describe("EXPLAIN SYNTAX of every statement the builders generate", () => {
  it("refuses a broken statement (the check is not vacuous)", async () => {
    expect(await refused([{ name: "broken", sql: "SELECT a FROM flows_5m WHERE", params: {} }])).toHaveLength(1);
  });

  it("flows views: every dimension, filter kind, table, IP version and direction", async () => {
    const statements = flowStatements();
    expect(statements.length).toBeGreaterThan(1000);
    expect(await refused(statements)).toEqual([]);
  }, 600_000);

  it("the protocol views' ICMP rows: IANA_PROTOCOL's shown key in tables, timeseries and sankeys of both tables, filtered by number", async () => {
    const statements = flowStatements().filter((q) => q.sql.includes("toString(icmp_type)"));
    for (const table of TABLES) expect(statements.filter((q) => q.sql.includes(`FROM ${table}`)).length).toBeGreaterThan(10);
    expect(new Set(statements.map((q) => q.name))).toEqual(new Set(["flows.topTable", "flows.table", "flows.timeseries", "flows.sankey"]));
    const filtered = statements.filter((q) => q.sql.includes("toInt64(protocol) IN {"));
    expect(filtered.length).toBeGreaterThan(0);
    expect(await refused(statements)).toEqual([]);
  }, 600_000);

  it("flow analysis calls", async () => {
    expect(await refused(analysisStatements())).toEqual([]);
  }, 120_000);

  it("planners: link figures (quarter sums and 95th), heatmap, timeseries per window, series, dates with data, sampling confidence", async () => {
    expect(await refused(plannerStatements())).toEqual([]);
  });

  it("Looking Glass and Control Plane: every match kind, sort column and order, search and numeric filter", async () => {
    expect(await refused(ribStatements())).toEqual([]);
  }, 120_000);

  it("the flow generator's routing-table sample and the enrichment snapshot's pages", async () => {
    expect(await refused(generatorStatements())).toEqual([]);
  });

  it("the link-utilisation API's flow 95th per AS", async () => {
    expect(await refused(plannerFlowStatements())).toEqual([]);
  });

  it("the BMP station's sweeps and route counts", async () => {
    expect(await refused(bmpStatements())).toEqual([]);
  });

  it("the Raw Network Analyzer: every column as record and group, sort and cursor, every filter kind, sums, timeseries", async () => {
    const statements = rnaStatements();
    expect(statements.length).toBeGreaterThan(300);
    expect(await refused(statements)).toEqual([]);
  }, 300_000);

  it("lookups (data range, latest bucket, VRF names)", async () => {
    expect(await refused(lookupStatements())).toEqual([]);
  });

  it("with a database override: the flows tables read from the user's database", async () => {
    const override = { flows: "flows_archive", rawFlows: "flows_archive" };
    const statements = [
      ...flowStatements().filter((_, i) => i % 25 === 0),
      ...analysisStatements(),
      ...lookupStatements(),
      ...plannerFlowStatements(),
      ...rnaStatements().filter((_, i) => i % 10 === 0),
    ].map((q) => ({
      ...q,
      ...qualifyFlowsTables(q.sql, q.params, override),
    }));
    expect(statements.every((q) => !/(FROM|JOIN)\s+flows_(5m|1h|raw)\b/.test(q.sql))).toBe(true);
    expect(await refused(statements)).toEqual([]);
  }, 300_000);
});
