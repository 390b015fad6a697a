/**
 * npx tsx bench/snmp-poller.ts
 *
 * The SNMP poller against a real snmpd (Debian's snmpd, started as the tests start it:
 * tests/helpers/snmpd.ts, here with `pass_persist`: one long-running script answers IF-MIB, so
 * the agent is not what is measured) on a loopback port: one router with BENCH_SNMP_INTERFACES
 * (200) interfaces, polled BENCH_RUNS (5) times after one warm-up through pollRouter — the whole
 * poll: sysUpTime, the ifName and ifStackTable walks, the counters (eight interfaces per request,
 * one request at a time), accounting, the write to interface_util_5m and the status in PostgreSQL,
 * on embedded test stores. Prints interfaces polled per second per poll and the median; polls of
 * several routers run side by side (SNMP_MAX_IN_FLIGHT), so the poller's total is a multiple of
 * it. No thresholds.
 */
import { createRouter } from "~/features/inventory/inventory.server";
import { pollRouter } from "~/features/collector/snmp/poll.server";
import { openTestStores } from "../tests/helpers/stores";
import { findSnmpd, SNMPD_COMMUNITY, startSnmpd, type AgentInterface } from "../tests/helpers/snmpd";

const INTERFACES = Number(process.env.BENCH_SNMP_INTERFACES ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

async function main() {
  if (!findSnmpd()) throw new Error("snmpd is not installed (apt-get install snmpd)");
  const stores = await openTestStores({ env: { INVENTORY_SECRET_KEY: "42".repeat(32) } });
  const agent = await startSnmpd({ persist: true });
  try {
    const served: AgentInterface[] = Array.from({ length: INTERFACES }, (_, i) => ({
      ifIndex: 1_000 + i,
      name: `et-0/0/${i}`,
      inOctets: 0n,
      outOctets: 0n,
      speedMbps: 100_000,
    }));
    agent.serve(served);
    await createRouter(stores, {
      name: "bench-r1",
      city: "Frankfurt",
      country: "Germany",
      loopback: "127.0.0.1",
      snmp: { version: "2c", port: agent.port, community: SNMPD_COMMUNITY },
      interfaces: served.map((s) => ({ name: s.name, ifindex: s.ifIndex, capacity: 100e9, kind: "core" })),
    });
    const settings = { pollIntervalMs: 300_000, maxInterpolatedIntervals: 3, timeoutMs: 10_000, retries: 0 };
    const grid = Math.floor(Date.now() / 300_000) * 300_000 - 3_600_000;
    const rates: number[] = [];
    for (let run = 0; run <= RUNS; run++) {
      for (const s of served) {
        s.inOctets += 3_000_000n;
        s.outOctets += 1_000_000n;
      }
      agent.serve(served);
      const started = performance.now();
      const outcome = await pollRouter(stores, "bench-r1", settings, { clock: () => grid + run * 300_000 });
      const seconds = (performance.now() - started) / 1000;
      if (!outcome.ok) throw new Error(`poll failed: ${outcome.kind}: ${outcome.message}`);
      if (run === 0) continue;
      rates.push(outcome.interfaces / seconds);
      console.log(
        `run ${run}: ${outcome.interfaces} interfaces in ${(seconds * 1000).toFixed(0)} ms: ${(outcome.interfaces / seconds).toFixed(1)} interfaces/s, ${outcome.rows} rows`,
      );
    }
    rates.sort((a, b) => a - b);
    console.log(`median: ${rates[Math.floor(rates.length / 2)].toFixed(1)} interfaces/s (${INTERFACES} interfaces, ${RUNS} runs)`);
  } finally {
    await agent.stop();
    await stores.dispose();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
