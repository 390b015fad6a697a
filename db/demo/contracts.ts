/**
 * The demo network's contracts (Revenues & Costs): one per transit AS (its ports in one billing
 * group, billed on the 95th of the summed series), one per private peering (settlement-free, the
 * cross-connect paid), one per exchange port (free, the IX port fee paid), one per customer (Max 95th
 * revenue). Prices in the range of European wholesale offers of the mid-2020s (docs/revenues-and-costs.md,
 * "The demo's contracts"): IP transit EUR 0.20–0.45 per Mbit/s and month on a commit, burst some 25 %
 * above; a 10G/100G IX port EUR 700–2,500 a month; a cross-connect EUR 150–300; customers EUR 0.60–1.20
 * per Mbit/s. Deterministic: the same inventory gives the same contracts.
 */
import type { DemoInterface } from "./topology";

export type DemoContract = {
  name: string;
  direction: "cost" | "revenue";
  partnerAsn: number | null;
  method: "Flatrate" | "free" | "Max 95th";
  commitMbps: number;
  commitPriceEur: number;
  burstPriceEur: number;
  flatPriceEur: number;
  portFeeEur: number;
  crossConnectFeeEur: number;
  minimumFeeEur: number;
  validFrom: string;
  /** Keys "router/interface" of the billing group. */
  ports: string[];
};

const key = (i: DemoInterface) => `${i.router}/${i.name}`;
/** A commit in whole 100 Mbit/s steps: a share of the group's capacity. */
const commitOf = (capacityBps: number, share: number) => Math.max(100, Math.round((capacityBps * share) / 1e6 / 100) * 100);
/** A price from a list, picked by the AS number (deterministic). */
const pick = <T>(list: readonly T[], n: number) => list[n % list.length];

export function demoContracts(
  interfaces: readonly DemoInterface[],
  capacities: ReadonlyMap<string, number>,
  names: ReadonlyMap<number, string>,
  validFrom: string,
): DemoContract[] {
  const capacity = (ports: readonly DemoInterface[]) => ports.reduce((s, p) => s + (capacities.get(key(p)) ?? 0), 0);
  const out: DemoContract[] = [];
  const base = { flatPriceEur: 0, portFeeEur: 0, crossConnectFeeEur: 0, minimumFeeEur: 0, validFrom };
  const external = interfaces.filter((i) => i.kind === "external");
  const byAsn = (type: string) => {
    const groups = new Map<number, DemoInterface[]>();
    for (const i of external)
      if (i.peeringType === type && i.connection !== null && i.neighborAsn !== null)
        groups.set(i.neighborAsn, [...(groups.get(i.neighborAsn) ?? []), i]);
    return [...groups.entries()].sort((a, b) => a[0] - b[0]);
  };
  for (const [asn, ports] of byAsn("Transit")) {
    const commitPrice = pick([0.22, 0.28, 0.35, 0.42], asn);
    out.push({
      ...base,
      name: `Transit ${names.get(asn) ?? `AS${asn}`}`,
      direction: "cost",
      partnerAsn: asn,
      method: "Max 95th",
      commitMbps: commitOf(capacity(ports), 0.15),
      commitPriceEur: commitPrice,
      burstPriceEur: Math.round(commitPrice * 1.25 * 100) / 100,
      crossConnectFeeEur: 200 * ports.length,
      ports: ports.map(key),
    });
  }
  for (const [asn, ports] of byAsn("Peering").filter(([, p]) => p[0].connection === "PNI")) {
    out.push({
      ...base,
      name: `PNI ${names.get(asn) ?? `AS${asn}`}`,
      direction: "cost",
      partnerAsn: asn,
      method: "free",
      commitMbps: 0,
      commitPriceEur: 0,
      burstPriceEur: 0,
      crossConnectFeeEur: 250 * ports.length,
      ports: ports.map(key),
    });
  }
  for (const port of external.filter((i) => i.peeringType === "Peering" && i.connection !== "PNI" && i.neighborAsn === null)) {
    const bps = capacities.get(key(port)) ?? 0;
    out.push({
      ...base,
      name: `IX port ${port.connection} (${port.router} ${port.name})`,
      direction: "cost",
      partnerAsn: null,
      method: "free",
      commitMbps: 0,
      commitPriceEur: 0,
      burstPriceEur: 0,
      portFeeEur: bps >= 100e9 ? 2500 : bps >= 10e9 ? 900 : 450,
      crossConnectFeeEur: 200,
      ports: [key(port)],
    });
  }
  for (const [asn, ports] of byAsn("Customer")) {
    const commitPrice = pick([0.6, 0.8, 1.0, 1.2], asn);
    out.push({
      ...base,
      name: `Customer ${names.get(asn) ?? `AS${asn}`}`,
      direction: "revenue",
      partnerAsn: asn,
      method: "Max 95th",
      commitMbps: commitOf(capacity(ports), 0.1),
      commitPriceEur: commitPrice,
      burstPriceEur: Math.round(commitPrice * 1.2 * 100) / 100,
      portFeeEur: 150 * ports.length,
      minimumFeeEur: 500,
      ports: ports.map(key),
    });
  }
  return out;
}
