/**
 * The demo's PeeringDB dump (db/demo/peeringdb.ts): every object passes the importer's checks, it
 * names only the demo's own ASes (its neighbours but the customers, and the operator), every
 * presence points at an exchange, a facility and a network of the dump, and each listed network
 * has its NOC contact.
 */
import { describe, expect, it } from "vitest";
import { DEMO_ASES, OPERATOR_ASN, OPERATOR_NAME } from "~db/demo/catalog";
import { DEMO_SEED } from "~db/demo/load";
import { DEMO_REMOTE_LISTED, demoPeeringDbDump } from "~db/demo/peeringdb";
import { createRandom } from "~db/demo/random";
import { buildTopology } from "~db/demo/topology";
import type { PeeringDbKind } from "~db/postgres/schema";
import { checkObject } from "~/features/routing/peeringdb/import.server";

const topology = buildTopology(DEMO_ASES, createRandom(DEMO_SEED));
const dump = demoPeeringDbDump(DEMO_ASES, topology.attachments, { asn: OPERATOR_ASN, name: OPERATOR_NAME });

describe("the demo's PeeringDB dump", () => {
  it("passes the importer's checks, object by object", () => {
    for (const [kind, objects] of Object.entries(dump)) {
      for (const o of objects) expect(checkObject(kind as PeeringDbKind, o)).toHaveProperty("row");
    }
  });

  it("names the demo's directly connected ASes (no customer), the operator and the heaviest remote content networks", () => {
    const neighbours = new Set(topology.attachments.keys());
    const customers = new Set(DEMO_ASES.filter((a) => a.category === "customer").map((a) => a.asn));
    const remote = new Set(DEMO_ASES.filter((a) => a.connection === "remote").map((a) => a.asn));
    const asns = dump.net.map((n) => n.asn);
    expect(asns[0]).toBe(OPERATOR_ASN);
    for (const asn of asns.slice(1)) {
      expect(neighbours.has(asn) || remote.has(asn)).toBe(true);
      expect(customers.has(asn)).toBe(false);
    }
    const listedRemote = asns.filter((a) => remote.has(a) && !neighbours.has(a));
    expect(listedRemote).toHaveLength(DEMO_REMOTE_LISTED);
    // Each is at one of our exchanges: a peering candidate.
    for (const asn of listedRemote) expect(dump.netixlan.some((p) => p.asn === asn)).toBe(true);
    expect(asns.length).toBeGreaterThan(10);
    expect(new Set(asns).size).toBe(asns.length);
    const names = new Map(DEMO_ASES.map((a) => [a.asn, a.name]));
    for (const n of dump.net.slice(1)) expect(n.name).toBe(names.get(n.asn));
  });

  it("points every presence and contact at objects of the dump", () => {
    const ids = (list: { id?: unknown }[]) => new Set(list.map((o) => o.id));
    const [nets, ixes, facs] = [ids(dump.net), ids(dump.ix), ids(dump.fac)];
    for (const p of dump.netixlan) expect([nets.has(p.net_id), ixes.has(p.ix_id)]).toEqual([true, true]);
    for (const p of dump.netfac) expect([nets.has(p.net_id), facs.has(p.fac_id)]).toEqual([true, true]);
    expect(dump.poc.map((p) => p.net_id)).toEqual(dump.net.map((n) => n.id));
    // The operator is at every exchange; some neighbours meet it at one.
    expect(dump.netixlan.filter((p) => p.asn === OPERATOR_ASN)).toHaveLength(dump.ix.length);
    expect(dump.netixlan.some((p) => p.asn !== OPERATOR_ASN)).toBe(true);
  });
});
