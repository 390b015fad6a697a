// Independent recomputation of one demo link's figures from its raw interface_util_5m rows
// (own source ranking, own sort, own peak hour, own Theil–Sen), compared with planLinks.
import path from "node:path";
import { z } from "zod";
import { planLinks } from "~/features/planners/plan.server";
import { chQuery } from "~/server/clickhouse/query.server";
import { parseConfig } from "~/server/env.server";
import { startServices } from "~/server/services.server";
import { DEFAULT_USER_SETTINGS } from "~/server/settings/user-settings.server";
import { wireApp } from "~/wiring.server";

const ROUTER = process.env.ROUTER ?? "ams-er1", IFACE = process.env.IFACE ?? "Bundle-Ether4";
wireApp();
const config = parseConfig({ ...process.env, DATA_DIR: path.resolve("data-bench"), DATABASE_URL: "", CLICKHOUSE_URL: "", DEMO_DATA: "off" });
const services = await startServices(config, { loadDemo: false });
const rows = await chQuery(services.ch, {
  name: "hand.rows",
  sql: "SELECT toUInt32(time) AS t, source, toString(in_bytes) AS i, toString(out_bytes) AS o, written_at FROM interface_util_5m WHERE router = {r:String} AND interface = {f:String}",
  params: { r: ROUTER, f: IFACE },
  schema: z.object({ t: z.coerce.number(), source: z.string(), i: z.string(), o: z.string(), written_at: z.string() }),
});
// One sample per time: best source (snmp > flows > demo), then newest write.
const rank: Record<string, number> = { snmp: 3, flows: 2, demo: 1 };
const best = new Map<number, (typeof rows)[number]>();
for (const r of rows) {
  const b = best.get(r.t);
  if (!b || rank[r.source] > rank[b.source] || (rank[r.source] === rank[b.source] && r.written_at > b.written_at)) best.set(r.t, r);
}
const times = [...best.keys()].sort((a, b) => a - b);
const end = times[times.length - 1] + 300;
const start = end - 30 * 86400;
const inP = times.filter((t) => t >= start && t < end);
const bps = (b: string) => (Number(b) * 8) / 300;
function p95(values: number[]) {
  const s = [...values].sort((a, b) => a - b);
  const k = Math.floor(s.length * 0.05);
  return { value: s[s.length - 1 - k], n: s.length, k };
}
const in95 = p95(inP.map((t) => bps(best.get(t)!.i)));
const out95 = p95(inP.map((t) => bps(best.get(t)!.o)));
console.log(`link ${ROUTER}|${IFACE}; period ${new Date(start * 1000).toISOString()} – ${new Date(end * 1000).toISOString()}; samples ${inP.length}`);
console.log(`hand 95th in ${in95.value} bps (n=${in95.n}, k=${in95.k}), out ${out95.value} bps; billed ${Math.max(in95.value, out95.value)}`);
// Peak hour per UTC day, in and out: quarters complete with 3 samples, 4 consecutive quarters in the day, max mean, earliest on tie.
function peakHours(dir: "i" | "o") {
  const days = new Map<number, number | null>();
  const result: Record<string, { start: string; bps: number } | null> = {};
  for (let day = Math.floor(start / 86400) * 86400; day < end; day += 86400) {
    const quarters: (number | null)[] = [];
    for (let q = 0; q < 96; q++) {
      let sum = 0, ok = true;
      for (let s = 0; s < 3; s++) { const r = best.get(day + q * 900 + s * 300); if (!r || day + q * 900 + s * 300 < start || day + q * 900 + s * 300 >= end) { ok = false; break; } sum += Number(r[dir]); }
      quarters.push(ok ? sum : null);
    }
    let bestW: { q: number; sum: number } | null = null;
    for (let q = 0; q + 3 < 96; q++) {
      const w = quarters.slice(q, q + 4);
      if (w.some((x) => x === null)) continue;
      const sum = (w as number[]).reduce((a, b) => a + b, 0);
      if (!bestW || sum > bestW.sum) bestW = { q, sum };
    }
    const key = new Date(day * 1000).toISOString().slice(0, 10);
    result[key] = bestW ? { start: new Date((day + bestW.q * 900) * 1000).toISOString().slice(11, 16), bps: (bestW.sum * 8) / 3600 } : null;
    days.set(day, bestW ? (bestW.sum * 8) / 3600 : null);
  }
  return result;
}
const pin = peakHours("i"), pout = peakHours("o");
const dayKeys = Object.keys(pin);
const someDay = dayKeys[dayKeys.length - 2];
console.log(`hand peak hour ${someDay}: in starts ${pin[someDay]?.start} UTC at ${pin[someDay]?.bps} bps; out starts ${pout[someDay]?.start} at ${pout[someDay]?.bps} bps`);
const plans = await planLinks(services, { userId: 0, isDelegated: false, settings: DEFAULT_USER_SETTINGS, timezone: "UTC" }, { kind: "external", range: { start, end } });
const plan: any = plans.find((p: any) => p.link.key === `${ROUTER}|${IFACE}`);
const cap = plan.capacityBps;
// Theil–Sen over daily max(in, out) utilisation.
const daily = dayKeys.map((d) => { const a = pin[d]?.bps, b = pout[d]?.bps; return a === undefined && b === undefined ? null : Math.max(a ?? 0, b ?? 0) / cap; });
const pts = daily.map((y, x) => ({ x, y })).filter((p) => p.y !== null) as { x: number; y: number }[];
const slopes: number[] = [];
for (let i = 0; i < pts.length; i++) for (let j = i + 1; j < pts.length; j++) slopes.push((pts[j].y - pts[i].y) / (pts[j].x - pts[i].x));
const med = (v: number[]) => { const s = [...v].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const slope = med(slopes), intercept = med(pts.map((p) => p.y - slope * p.x));
const last = daily.length - 1, fittedLast = intercept + slope * last;
const level = DEFAULT_USER_SETTINGS.extlinks_util_threshold_high;
console.log(`hand forecast: capacity ${cap}, ${pts.length} days, slope ${slope}/day, fitted last ${fittedLast}, days to ${level}: ${slope > 0 ? Math.ceil((level - fittedLast) / slope) : "no growth"}, at +90 d: ${((fittedLast + slope * 90) * 100).toFixed(2)} %`);
console.log("service:", JSON.stringify({ in95: plan.in.p95, out95: plan.out.p95, billed: plan.billedP95, forecast: plan.forecast?.words, slope: plan.forecast?.slopePerDay, daysLeft: plan.forecast?.daysLeft, pct: plan.forecast?.percentAtHorizon }));
const dayIn = plan.in.daily?.find?.((d: any) => d.day === someDay);
console.log("service peak hour", someDay, JSON.stringify(dayIn), JSON.stringify(plan.out.daily?.find?.((d: any) => d.day === someDay)));
await services.close?.();
process.exit(0);
