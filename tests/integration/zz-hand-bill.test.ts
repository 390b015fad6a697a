import { it } from "vitest";
import { z } from "zod";
import { DEMO_DAYS } from "~db/demo/load";
import { listContracts } from "~/features/revenues/contracts.server";
import { revenueCostMonth } from "~/features/revenues/revenue-cost.server";
import { portSamplesQuery } from "~/features/revenues/sql";
import { PERMISSIONS } from "~/lib/permissions";
import { chQuery } from "~/server/clickhouse/query.server";
import { demoTestNow } from "../helpers/clock";
import { openDemoStores } from "../helpers/demo-template";

it("hand bill", async () => {
  const now = demoTestNow();
  const stores = await openDemoStores({ now, days: DEMO_DAYS });
  const d = new Date(now * 1000);
  const year = d.getUTCMonth() === 0 ? d.getUTCFullYear() - 1 : d.getUTCFullYear();
  const month = d.getUTCMonth() === 0 ? 12 : d.getUTCMonth();
  const contracts = await listContracts(stores.pg.db);
  const c = contracts.find((x) => x.name.startsWith("Transit Lumen"))!;
  const start = Date.UTC(year, month - 1, 1) / 1000;
  const end = Date.UTC(year, month, 1) / 1000;
  const rows = await chQuery(stores.ch, {
    ...portSamplesQuery(c.ports.map((p) => ({ router: p.router, interface: p.interface })), { start, end }),
    schema: z.object({ port: z.string(), t: z.coerce.number(), in_b: z.coerce.number(), out_b: z.coerce.number(), sample_source: z.string() }),
  });
  const byT = new Map<number, { i: number; o: number }>();
  for (const r of rows) {
    const v = byT.get(r.t) ?? { i: 0, o: 0 };
    v.i += r.in_b;
    v.o += r.out_b;
    byT.set(r.t, v);
  }
  const p95 = (xs: number[]) => {
    const s = [...xs].sort((a, b) => b - a);
    return s[Math.floor(xs.length / 20)];
  };
  const mbps = (b: number) => (b * 8) / 300 / 1e6;
  const inP = mbps(p95([...byT.values()].map((v) => v.i)));
  const outP = mbps(p95([...byT.values()].map((v) => v.o)));
  const billed = Math.max(inP, outP);
  const burst = Math.max(0, billed - c.commitMbps);
  const cost = c.commitMbps * c.commitPriceEur + burst * c.burstPriceEur + c.portFeeEur + c.crossConnectFeeEur;
  const user = { permissions: [...PERMISSIONS], isDelegated: false } as never;
  const screen = await revenueCostMonth(stores, user, year, month, now * 1000);
  const bill = screen.bills.find((b) => b.contract.id === c.id)!;
  console.log(
    JSON.stringify(
      {
        contract: c.name,
        ports: c.ports.map((p) => `${p.router} ${p.interface}`),
        month: `${year}-${month}`,
        terms: { commit: c.commitMbps, commitPrice: c.commitPriceEur, burstPrice: c.burstPriceEur, port: c.portFeeEur, xc: c.crossConnectFeeEur },
        samples: byT.size,
        hand: { inP95: inP, outP95: outP, billed, burst, cost: Math.round(cost * 100) / 100 },
        screen: { billed: bill.traffic.billed95thMbps, in: bill.traffic.in95thMbps, out: bill.traffic.out95thMbps, charges: bill.charges },
      },
      null,
      1,
    ),
  );
  await stores.dispose();
}, 900_000);
