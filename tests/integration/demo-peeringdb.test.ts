/**
 * The demo's PeeringDB file (db/demo/peeringdb.ts) goes through the importer staff use, as the demo
 * load does, and the lookups then know a demo transit with its contact and presences.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ASES, OPERATOR_ASN, OPERATOR_NAME } from "~db/demo/catalog";
import { DEMO_SEED } from "~db/demo/load";
import { demoPeeringDbDump, demoPeeringDbJson } from "~db/demo/peeringdb";
import { createRandom } from "~db/demo/random";
import { buildTopology } from "~db/demo/topology";
import { importPeeringDb } from "~/features/routing/peeringdb/import.server";
import { peeringDbNetwork } from "~/features/routing/peeringdb/lookup.server";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
const topology = buildTopology(DEMO_ASES, createRandom(DEMO_SEED));
const operator = { asn: OPERATOR_ASN, name: OPERATOR_NAME };

beforeAll(async () => {
  stores = await openTestStores();
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

describe("the demo's PeeringDB file", () => {
  it("imports whole, and the lookups read it", async () => {
    const text = demoPeeringDbJson(DEMO_ASES, topology.attachments, operator);
    const summary = await importPeeringDb(stores, {
      sources: [
        {
          name: "demo-peeringdb.json",
          chunks: (async function* () {
            yield text;
          })(),
        },
      ],
      actor: null,
    });
    const dump = demoPeeringDbDump(DEMO_ASES, topology.attachments, operator);
    expect(summary).toMatchObject({ counts: { net: dump.net.length, netixlan: dump.netixlan.length, poc: dump.poc.length } });
    const lumen = await peeringDbNetwork(stores, 3356);
    expect(lumen).toMatchObject({ name: "Lumen", noc_email: "noc@lumen.example", policy_general: "Restrictive", info_ratio: "Balanced" });
    expect(lumen!.facility_presence.length).toBeGreaterThan(0);
    const us = await peeringDbNetwork(stores, OPERATOR_ASN);
    expect(us!.ix_presence.map((i) => i.name).sort()).toEqual(dump.ix.map((i) => i.name).sort());
  });
});
