/**
 * 'Show in RNA' on the demo network, each link read by the RNA's engine (runRnaQuery):
 * - a Flow Explorer row's link (features/flows/rna-link.ts: the row's value, the view's filters,
 *   the view's range) selects the raw records of exactly that row: their scaled bytes add up to the
 *   row's bytes, and every record on the page carries the row's value;
 * - each link of a Looking Glass row (rnaRowLinks: EXPORTER, DST_PREFIX, AS_DST, NEXT_HOP, all of
 *   them) opens a page of only matching records.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR_ASN } from "~db/demo/catalog";
import { users } from "~db/postgres/schema";
import { DEFAULT_RNA_COLUMNS } from "~/features/rna/columns";
import type { RnaQuery } from "~/features/rna/query";
import { runRnaQuery } from "~/features/rna/query.server";
import { filterParamsToRequest } from "~/features/flows/params";
import { flowRowRnaHref } from "~/features/flows/rna-link";
import { rnaRowLinks } from "~/features/lookingglass/columns";
import { runLookingGlassQuery } from "~/features/routing/lookingglass.server";
import { listVantagePoints } from "~/features/routing/vantage-points.server";
import { parseIpAddress, parseNetwork } from "~/lib/ip";
import { chQuery } from "~/server/clickhouse/query.server";
import { z } from "zod";
import * as explorerRoute from "~/routes/_app.flow-explorer";
import { loadUserContext, type UserContext } from "~/server/auth/user-context.server";
import { useServicesForTests } from "~/server/services.server";
import { demoTestNow } from "../helpers/clock";
import { openDemoStores } from "../helpers/demo-template";
import { ORIGIN, runRoute, sessionCookie } from "../helpers/http";
import type { TestStores } from "../helpers/stores";

const DAY = 86_400;
const NOW = demoTestNow();
/** Inside the 7 days flows_raw keeps. */
const RANGE = { start: NOW - DAY, end: NOW };

let stores: TestStores;
let cookie = "";
let operator: UserContext;

beforeAll(async () => {
  stores = await openDemoStores({ now: NOW, days: 2 });
  useServicesForTests(stores);
  const [{ id }] = await stores.pg.db.select({ id: users.id }).from(users).where(eq(users.email, "operator@flowlens.example"));
  cookie = await sessionCookie(stores, id);
  operator = (await loadUserContext(stores.pg.db, id))!;
}, 300_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function explorer(search: URLSearchParams): Promise<any> {
  const out = await runRoute(
    explorerRoute.loader,
    new Request(`${ORIGIN}/flow-explorer?${search}`, { headers: { Cookie: cookie, Accept: "text/html" } }),
  );
  expect(out.status).toBe(200);
  return out.data;
}

/** The RNA query a link opens: its filters and range as the RNA's URL carries them, the default columns. */
function linkQuery(href: string, columns: RnaQuery["columns"]): RnaQuery {
  const url = new URL(href, ORIGIN);
  return {
    start: Number(url.searchParams.get("start")),
    end: Number(url.searchParams.get("end")),
    columns,
    filters: filterParamsToRequest(url.searchParams.getAll("filter")),
    expression: url.searchParams.get("q") ?? "",
    aggregation: { v4: null, v6: null },
    includeCopies: false,
    sort: null,
    after: null,
    pageSize: 100,
  };
}

describe("a Flow Explorer row's RNA link", () => {
  const views = [
    { dimension: "ROUTER_IN", filters: [] as string[], column: "ingress_router" },
    { dimension: "IANA_PROTOCOL", filters: ["ROUTER_IN:fra-er1"], column: "protocol" },
    // A dimension with a direction: the view counts ingress traffic only, and so does its row's filter.
    { dimension: "AS_SRC_INGRESS", filters: ["AS_HND_INGRESS:!174"], column: "as_src" },
  ] as const;
  for (const view of views) {
    it(`${view.dimension}${view.filters.length ? ` with ${view.filters.join(", ")}` : ""}: the records of exactly the row`, async () => {
      const search = new URLSearchParams({ dimension: view.dimension, start: String(RANGE.start), end: String(RANGE.end) });
      for (const f of view.filters) search.append("filter", f);
      const data = await explorer(search);
      expect(data.errors).toEqual([]);
      const table: { key: string; bytes: string }[] = data.flows.table;
      expect(table.length).toBeGreaterThan(1);
      for (const row of table.filter((r) => r.key !== "-101" && r.key !== "Others").slice(0, 3)) {
        const href = flowRowRnaHref({
          dimension: view.dimension,
          value: row.key,
          viewFilters: data.params.filter,
          range: data.flows.range,
        })!;
        expect(href).not.toBeNull();
        const columns = [...new Set([...DEFAULT_RNA_COLUMNS, view.column])];
        const page = await runRnaQuery(stores, operator, linkQuery(href, columns));
        expect(page.range).toEqual({ start: data.flows.range.start, end: data.flows.range.end });
        expect(page.sums.bytes).toBe(Number(row.bytes));
        expect(page.rows.length).toBeGreaterThan(0);
        // A protocol row of ICMP is one type of it (`1/8`): the records are of that protocol and type.
        const [protocol, icmpType] = view.dimension === "IANA_PROTOCOL" ? row.key.split("/") : [row.key, undefined];
        for (const record of page.rows) expect(String(record.values[view.column])).toBe(protocol);
        if (icmpType !== undefined && icmpType !== "-1") {
          // The row's bytes are the type's alone (other types of the protocol would add to them).
          const typed = await runRnaQuery(stores, operator, linkQuery(href, ["icmp_type"]));
          expect(typed.sums.bytes).toBe(Number(row.bytes));
        }
      }
    });
  }
});

/** Whether a record's address (IPv4 as a.b.c.d) lies in the prefix; IPv4 never in an IPv6 prefix. */
function inPrefix(address: string, prefix: string): boolean {
  const network = parseNetwork(prefix)!;
  const ip = parseIpAddress(address)!;
  if (ip.version !== network.version) return false;
  const shift = BigInt((network.version === 4 ? 32 : 128) - network.length);
  return ip.value >> shift === network.value >> shift;
}

describe("a Looking Glass row's RNA links", () => {
  it("each filter kind, and all of them, opens a page of only matching records", async () => {
    // A destination outside the network that fra-er1 exported traffic to, and the route the Looking Glass shows for it there.
    const [top] = await chQuery(stores.ch, {
      name: "test.topDestination",
      sql: `SELECT IPv6NumToString(dst_addr) AS dst FROM flows_raw
            WHERE exporter_name = 'fra-er1' AND ip_version = 4 AND counted = 1 AND as_dst > 0 AND as_dst != {operator:Int64}
              AND time_received >= toDateTime({start:UInt32})
            GROUP BY dst ORDER BY count() DESC LIMIT 1`,
      params: { start: RANGE.start, operator: OPERATOR_ASN },
      schema: z.object({ dst: z.string() }),
    });
    const destination = top.dst.replace("::ffff:", "");
    const points = await listVantagePoints(stores, { variant: "private" });
    const fra = points.find((vp) => vp.router === "fra-er1")!;
    const lg = await runLookingGlassQuery(stores, {
      variant: "private",
      queryType: "IpPrefixQuery",
      queryTerm: destination,
      vantagePoints: [fra.key],
    });
    const routes = lg.results[fra.key];
    if (!Array.isArray(routes) || routes.length === 0) throw new Error(`no route for ${destination} at ${fra.key}`);
    const route = routes[0];
    const routerOf = (name: string) => points.find((vp) => vp.display_name === name)?.router;
    const links = rnaRowLinks(route, routerOf);
    expect(links.map((l) => l.columns.join("+"))).toEqual([
      "VantagePoint",
      "Prefix",
      "BGP as_path",
      "BGP next_hop",
      "VantagePoint+Prefix+BGP as_path+BGP next_hop",
    ]);
    const origin = route["BGP as_path"].trim().split(/\s+/).at(-1);
    const matches = {
      VantagePoint: (v: Record<string, unknown>) => v.exporter_name === "fra-er1",
      Prefix: (v: Record<string, unknown>) => inPrefix(String(v.dst_addr), route.Prefix),
      "BGP as_path": (v: Record<string, unknown>) => String(v.as_dst) === origin,
      "BGP next_hop": (v: Record<string, unknown>) => String(v.next_hop) === route["BGP next_hop"],
    } as const;
    const columns = [...new Set([...DEFAULT_RNA_COLUMNS, "exporter_name", "dst_addr", "as_dst", "next_hop"] as const)];
    const found: Record<string, number> = {};
    for (const link of links) {
      const url = new URL(link.href, ORIGIN);
      url.searchParams.set("start", String(RANGE.start));
      url.searchParams.set("end", String(RANGE.end));
      const page = await runRnaQuery(stores, operator, linkQuery(url.toString(), columns));
      found[link.columns.join("+")] = page.rows.length;
      for (const record of page.rows) for (const column of link.columns) expect(matches[column](record.values), `${link.label}`).toBe(true);
    }
    // The router and the prefix select the destination's own records at least.
    expect(found.VantagePoint).toBeGreaterThan(0);
    expect(found.Prefix).toBeGreaterThan(0);
    expect(found["BGP as_path"]).toBeGreaterThan(0);
  });
});
