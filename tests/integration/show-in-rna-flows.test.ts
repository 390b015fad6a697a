/**
 * 'Show in RNA' of the Flow Explorer's rows on the demo network: the link a row gets
 * (features/flows/rna-link.ts) — the row's value, the view's filters, the view's range — read by
 * the RNA's engine (runRnaQuery) selects the raw records of exactly that row: their scaled bytes
 * add up to the row's bytes, and every record on the page carries the row's value.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "~db/postgres/schema";
import { DEFAULT_RNA_COLUMNS } from "~/features/rna/columns";
import type { RnaQuery } from "~/features/rna/query";
import { runRnaQuery } from "~/features/rna/query.server";
import { filterParamsToRequest } from "~/features/flows/params";
import { flowRowRnaHref } from "~/features/flows/rna-link";
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
    expression: "",
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
        for (const record of page.rows) expect(String(record.values[view.column])).toBe(row.key);
      }
    });
  }
});
