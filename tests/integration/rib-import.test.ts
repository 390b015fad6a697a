/**
 * importMrt into chDB/PGlite test stores: fixtures built byte by byte (tests/fixtures/mrt.ts) are
 * imported, then rib_entries and rib_current are read back and compared with what the fixtures say.
 */
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vantagePoints } from "~db/postgres/schema";
import { MrtFormatError } from "~/features/routing/mrt/errors";
import { importMrt, UnknownVantagePointError } from "~/features/routing/rib-import.server";
import { attributes, bgp4mpStateChange, bgp4mpUpdate, gzip, peerIndexTable, ribRecord, type SessionSpec } from "../fixtures/mrt";
import { chRows, openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;

beforeAll(async () => {
  stores = await openTestStores();
  await stores.pg.db.insert(vantagePoints).values([
    { key: "fra1", city: "Frankfurt", country: "Germany", router: "fra1-r1", ip: "198.51.100.1" },
    { key: "ams1", city: "Amsterdam", country: "Netherlands", router: "ams1-r1", ip: "198.51.100.2" },
  ]);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
});

const PEER_V4 = { bgpId: "198.51.100.10", ip: "198.51.100.10", asn: 64496 };
const PEER_V6 = { bgpId: "198.51.100.11", ip: "2001:db8::11", asn: 4_200_000_000 };
const SESSION: SessionSpec = { peerAsn: 64496, localAsn: 64500, peerIp: "198.51.100.10", localIp: "198.51.100.1" };

/** A RIB dump (one IPv4 prefix from two peers, one IPv6 prefix) and then updates of one peer. */
function dumpAndUpdates(): Buffer {
  return Buffer.concat([
    peerIndexTable({ timestamp: 1_700_000_000, collectorId: "198.51.100.1", peers: [PEER_V4, PEER_V6] }),
    ribRecord({
      timestamp: 1_700_000_000,
      sequence: 0,
      prefix: "192.0.2.0/24",
      entries: [
        {
          peerIndex: 0,
          originatedTime: 1_699_990_000,
          attributes: attributes({
            origin: 0,
            asPath: [
              { type: "sequence", asns: [64496, 4_200_000_123] },
              { type: "set", asns: [64511, 64512] },
            ],
            nextHop: "198.51.100.10",
            localPref: 150,
            med: 20,
            communities: [[64496, 200]],
            largeCommunities: [[4_200_000_123, 1, 2]],
          }),
        },
        {
          peerIndex: 1,
          originatedTime: 1_699_990_100,
          attributes: attributes({
            origin: 2,
            asPath: [{ type: "sequence", asns: [4_200_000_000, 4_200_000_123] }],
            nextHop: "198.51.100.11",
          }),
        },
      ],
    }),
    ribRecord({
      timestamp: 1_700_000_000,
      sequence: 1,
      prefix: "2001:db8:40::/44",
      entries: [
        {
          peerIndex: 1,
          originatedTime: 1_699_990_200,
          attributes: attributes({
            origin: 0,
            asPath: [{ type: "sequence", asns: [4_200_000_000] }],
            mpReach: { afi: 2, nextHop: "2001:db8::11", short: true },
          }),
        },
      ],
    }),
    bgp4mpStateChange({ timestamp: 1_700_000_050, session: SESSION, oldState: 5, newState: 6 }),
    // The IPv4 peer withdraws 192.0.2.0/24 and announces 203.0.113.0/24.
    bgp4mpUpdate({
      timestamp: 1_700_000_100,
      session: SESSION,
      withdrawn: ["192.0.2.0/24"],
      attributes: attributes({ origin: 0, asPath: [{ type: "sequence", asns: [64496, 64497] }], nextHop: "198.51.100.10" }),
      nlri: ["203.0.113.0/24"],
    }),
  ]);
}

type Row = {
  timestamp: number;
  router_ip: string;
  peer_ip: string;
  peer_asn: number;
  prefix: string;
  prefix_addr: string;
  prefix_len: number;
  afi: number;
  is_withdrawn: number;
  as_path: number[];
  as_path_set: number[];
  local_pref: number;
  med: number;
  bgp_next_hop: string;
  origin: string;
  communities: string[];
};
const COLUMNS =
  "toUnixTimestamp(timestamp) AS timestamp, router_ip, peer_ip, peer_asn, prefix, toString(prefix_addr) AS prefix_addr, prefix_len, afi, is_withdrawn, as_path, as_path_set, local_pref, med, bgp_next_hop, toString(origin) AS origin, communities";

describe("importMrt", () => {
  it("writes RIB entries and updates of a gzip file to rib_entries, and the newest state to rib_current", async () => {
    const summary = await importMrt(stores, {
      vantagePoint: "fra1",
      source: Readable.from([gzip(dumpAndUpdates())]),
      fileName: "fixture.mrt.gz",
      batchRows: 2,
    });
    expect(summary).toMatchObject({
      compression: "gzip",
      records: 5,
      prefixes: 4,
      announcements: 4,
      withdrawals: 1,
      stateChanges: 1,
      skipped: 0,
      errors: 0,
      stoppedEarly: null,
      rowsWritten: 5,
    });
    const rows = await chRows<Row>(stores, `SELECT ${COLUMNS} FROM rib_entries WHERE vantage_point = 'fra1' ORDER BY timestamp, peer_ip`);
    expect(rows).toEqual([
      {
        timestamp: 1_699_990_000,
        router_ip: "198.51.100.1",
        peer_ip: "198.51.100.10",
        peer_asn: 64496,
        prefix: "192.0.2.0/24",
        prefix_addr: "::ffff:192.0.2.0",
        prefix_len: 24,
        afi: 1,
        is_withdrawn: 0,
        as_path: [64496, 4_200_000_123],
        as_path_set: [64511, 64512],
        local_pref: 150,
        med: 20,
        bgp_next_hop: "198.51.100.10",
        origin: "IGP",
        communities: ["64496:200", "4200000123:1:2"],
      },
      {
        timestamp: 1_699_990_100,
        router_ip: "198.51.100.1",
        peer_ip: "2001:db8::11",
        peer_asn: 4_200_000_000,
        prefix: "192.0.2.0/24",
        prefix_addr: "::ffff:192.0.2.0",
        prefix_len: 24,
        afi: 1,
        is_withdrawn: 0,
        as_path: [4_200_000_000, 4_200_000_123],
        as_path_set: [],
        local_pref: 0,
        med: 0,
        bgp_next_hop: "198.51.100.11",
        origin: "INCOMPLETE",
        communities: [],
      },
      {
        timestamp: 1_699_990_200,
        router_ip: "198.51.100.1",
        peer_ip: "2001:db8::11",
        peer_asn: 4_200_000_000,
        prefix: "2001:db8:40::/44",
        prefix_addr: "2001:db8:40::",
        prefix_len: 44,
        afi: 2,
        is_withdrawn: 0,
        as_path: [4_200_000_000],
        as_path_set: [],
        local_pref: 0,
        med: 0,
        bgp_next_hop: "2001:db8::11",
        origin: "IGP",
        communities: [],
      },
      {
        timestamp: 1_700_000_100,
        router_ip: "198.51.100.1",
        peer_ip: "198.51.100.10",
        peer_asn: 64496,
        prefix: "192.0.2.0/24",
        prefix_addr: "::ffff:192.0.2.0",
        prefix_len: 24,
        afi: 1,
        is_withdrawn: 1,
        as_path: [],
        as_path_set: [],
        local_pref: 0,
        med: 0,
        bgp_next_hop: "",
        origin: "IGP",
        communities: [],
      },
      {
        timestamp: 1_700_000_100,
        router_ip: "198.51.100.1",
        peer_ip: "198.51.100.10",
        peer_asn: 64496,
        prefix: "203.0.113.0/24",
        prefix_addr: "::ffff:203.0.113.0",
        prefix_len: 24,
        afi: 1,
        is_withdrawn: 0,
        as_path: [64496, 64497],
        as_path_set: [],
        local_pref: 0,
        med: 0,
        bgp_next_hop: "198.51.100.10",
        origin: "IGP",
        communities: [],
      },
    ]);
    // rib_current: the withdrawal replaced peer .10's route to 192.0.2.0/24; peer .11's stays.
    const current = await chRows<{ prefix: string; peer_ip: string; is_withdrawn: number }>(
      stores,
      "SELECT prefix, peer_ip, is_withdrawn FROM rib_current FINAL WHERE vantage_point = 'fra1' ORDER BY prefix, peer_ip",
    );
    expect(current).toEqual([
      { prefix: "192.0.2.0/24", peer_ip: "198.51.100.10", is_withdrawn: 1 },
      { prefix: "192.0.2.0/24", peer_ip: "2001:db8::11", is_withdrawn: 0 },
      { prefix: "2001:db8:40::/44", peer_ip: "2001:db8::11", is_withdrawn: 0 },
      { prefix: "203.0.113.0/24", peer_ip: "198.51.100.10", is_withdrawn: 0 },
    ]);
  });

  it("keeps the records before a truncated tail and says where the file stops", async () => {
    const bytes = dumpAndUpdates();
    const summary = await importMrt(stores, {
      vantagePoint: "ams1",
      source: Readable.from([bytes.subarray(0, bytes.length - 10)]),
      fileName: "cut.mrt",
    });
    expect(summary).toMatchObject({
      compression: "none",
      records: 4,
      announcements: 3,
      withdrawals: 0,
      stateChanges: 1,
      errors: 1,
      rowsWritten: 3,
    });
    expect(summary.stoppedEarly).toMatch(/^truncated MRT record at byte offset \d+: it needs \d+ bytes, \d+ present$/);
    const [{ n }] = await chRows<{ n: number }>(stores, "SELECT toUInt32(count()) AS n FROM rib_entries WHERE vantage_point = 'ams1'");
    expect(n).toBe(3);
  });

  it("refuses an unknown vantage point, naming the known ones, before reading anything", async () => {
    const source = Readable.from([dumpAndUpdates()]);
    const error = await importMrt(stores, { vantagePoint: "nowhere", source, fileName: "x.mrt" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownVantagePointError);
    expect((error as Error).message).toBe('unknown vantage point "nowhere"; known: ams1, fra1');
    expect(source.destroyed).toBe(true);
  });

  it("fails on a file that is not MRT, writing nothing", async () => {
    const before = await chRows<{ n: number }>(stores, "SELECT toUInt32(count()) AS n FROM rib_entries");
    const error = await importMrt(stores, {
      vantagePoint: "ams1",
      source: Readable.from([Buffer.from("route-views dump index\n".repeat(3))]),
      fileName: "index.txt",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MrtFormatError);
    expect((error as Error).message).toMatch(/^not an MRT file/);
    expect(await chRows<{ n: number }>(stores, "SELECT toUInt32(count()) AS n FROM rib_entries")).toEqual(before);
  });
});
