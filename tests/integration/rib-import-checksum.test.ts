/**
 * The rows importMrt stores, pinned by count and a checksum over every rib_entries column: the
 * golden values were computed with the importer as it was before its insert path and bzip2
 * decompression were made faster, so any change in what is stored (a value, a spelling, a row
 * more or less) fails here. Each file is imported under a vantage point of its own.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vantagePoints } from "~db/postgres/schema";
import { importMrt } from "~/features/routing/rib-import.server";
import { attributes, bgp4mpUpdate, gzip, syntheticRibSlice, type SessionSpec } from "../fixtures/mrt";
import { chRows, openTestStores, type TestStores } from "../helpers/stores";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures");

let stores: TestStores;

beforeAll(async () => {
  stores = await openTestStores();
  await stores.pg.db.insert(vantagePoints).values(
    ["sample", "synthetic", "updates"].map((key, i) => ({
      key,
      city: "Frankfurt",
      country: "Germany",
      router: `${key}-r1`,
      ip: `198.51.100.${i + 1}`,
    })),
  );
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

const SESSION: SessionSpec = { peerAsn: 4_200_000_001, localAsn: 64500, peerIp: "2001:db8::1", localIp: "2001:db8::2" };

/** Updates with what RIB dumps lack: withdrawals (IPv4 body and MP_UNREACH), MP_REACH with NLRI, extended communities, AS4 merging. */
function updates(): Buffer {
  const records: Buffer[] = [];
  for (let i = 0; i < 300; i++) {
    records.push(
      bgp4mpUpdate({
        timestamp: 1_700_000_000 + i,
        session: i % 3 ? SESSION : { ...SESSION, as4: false, peerAsn: 64501, peerIp: "192.0.2.1", localIp: "192.0.2.2" },
        withdrawn: i % 4 ? [] : [`10.${i & 255}.0.0/16`],
        nlri: [`10.${i & 255}.${i >> 8}.0/24`, `10.${i & 255}.${(i >> 8) + 1}.0/24`],
        attributes: attributes({
          origin: 0,
          asnBytes: i % 3 ? 4 : 2,
          asPath: [{ type: "sequence", asns: i % 3 ? [4_200_000_001, 64_600 + i] : [64501, 23456] }],
          ...(i % 3 ? {} : { as4Path: [{ type: "sequence", asns: [4_200_000_099] }] }),
          nextHop: "192.0.2.1",
          med: i,
          communities: [[65535, 65281]],
          largeCommunities: [[4_200_000_001, i, 7]],
          extendedCommunities: Buffer.from([0x00, 0x02, 0xfb, 0xf1, 0, 0, 0, i & 255]),
          mpReach: { afi: 2, nextHop: "2001:db8::1", linkLocal: "fe80::1", nlri: [`2001:db8:${i.toString(16)}::/48`] },
          ...(i % 5 ? {} : { mpUnreach: { afi: 2, withdrawn: [`2001:db8:${(i + 1).toString(16)}::/48`] } }),
        }),
      }),
    );
  }
  return Buffer.concat(records);
}

/** Row count and the sum of a hash of every column of every row, as text (a UInt64). */
async function checksum(vantagePoint: string): Promise<{ rows: string; sum: string }> {
  const [row] = await chRows<{ rows: string; sum: string }>(
    stores,
    `SELECT toString(count()) AS rows,
            toString(sum(cityHash64(timestamp, vantage_point, router_ip, peer_ip, peer_asn, route_distinguisher, prefix,
              prefix_addr, prefix_len, afi, safi, is_withdrawn, as_path, as_path_set, as_confed_seq, local_pref, med,
              bgp_next_hop, origin, aggregator, originator_id, communities, expire_at, rib_view, path_id, ext_communities))) AS sum
     FROM rib_entries WHERE vantage_point = {vp:String}`,
    { vp: vantagePoint },
  );
  return row;
}

describe("importMrt stores the same rows as before", () => {
  it("for the bzip2 sample (4,000 RIB records of two peers)", async () => {
    const source = Readable.from([readFileSync(path.join(FIXTURES, "mrt-sample.bz2"))]);
    const summary = await importMrt(stores, { vantagePoint: "sample", source, fileName: "mrt-sample.bz2", batchRows: 1_500 });
    expect(summary.rowsWritten).toBe(4_000);
    expect(await checksum("sample")).toEqual({ rows: "4000", sum: "9431280224220528963" });
  });

  it("for a synthetic dump of 3,000 prefixes × 8 peers (IPv6, AS sets, communities, large communities, aggregators)", async () => {
    const source = Readable.from([gzip(syntheticRibSlice({ prefixes: 3_000, peers: 8 }, 3_000))]);
    const summary = await importMrt(stores, { vantagePoint: "synthetic", source, fileName: "synthetic.gz", batchRows: 5_000 });
    expect(summary.rowsWritten).toBe(24_000);
    expect(await checksum("synthetic")).toEqual({ rows: "24000", sum: "915164272638791513" });
  });

  it("for updates with withdrawals, MP_REACH/MP_UNREACH, extended communities and 2-byte sessions", async () => {
    const source = Readable.from([updates()]);
    const summary = await importMrt(stores, { vantagePoint: "updates", source, fileName: "updates.mrt" });
    expect(summary.withdrawals).toBeGreaterThan(0);
    expect(summary.rowsWritten).toBe(1_035);
    expect(await checksum("updates")).toEqual({ rows: "1035", sum: "11364642504860836420" });
  });
});
