/**
 * The peering candidates' rules (app/features/asrelations/candidates.ts, docs/as-relations.md): the mean
 * transit rate per AS, neighbours left out, only shared exchanges or facilities listed, the saving from
 * the transits' effective prices, the order (Restrictive and No last, then saving, then traffic), the
 * Others line, and the effective price per billed Mbit/s from a month's bills.
 */
import { describe, expect, it } from "vitest";
import { peeringCandidates, type CandidateNetwork } from "~/features/asrelations/candidates";
import { transitPrices } from "~/features/revenues/transit-prices.server";

const HOURS = 100;
const SECONDS = HOURS * 3600;
/** Bytes that make `mbps` Mbit/s as the mean over the test's hours. */
const bytesFor = (mbps: number) => (mbps * 1e6 * SECONDS) / 8;

const ours = {
  ixes: [
    { id: 1, name: "FRA-IX", city: "Frankfurt" },
    { id: 2, name: "AMS-IX", city: "Amsterdam" },
  ],
  facilities: [{ id: 10, name: "FR5", city: "Frankfurt" }],
};
const net = (name: string, policy: string, ixes: number[], facilities: number[] = []): CandidateNetwork => ({
  name,
  policy,
  presence: {
    ixes: ixes.map((id) => ({ id, name: `IX${id}`, city: "" })),
    facilities: facilities.map((id) => ({ id, name: `FAC${id}`, city: "C" })),
  },
});

describe("peering candidates", () => {
  const sources = [
    { asn: 100, handover: 64500, bytes: bytesFor(300) },
    { asn: 100, handover: 64501, bytes: bytesFor(100) },
    { asn: 200, handover: 64500, bytes: bytesFor(900) }, // restrictive: last whatever its traffic
    { asn: 300, handover: 64501, bytes: bytesFor(50) }, // only a shared facility
    { asn: 400, handover: 64500, bytes: bytesFor(5000) }, // shares nothing
    { asn: 500, handover: 64500, bytes: bytesFor(700) }, // already a neighbour
    { asn: 600, handover: 64500, bytes: bytesFor(20) }, // not in PeeringDB
    { asn: -101, handover: 64500, bytes: bytesFor(40) }, // Others
  ];
  const networks = new Map([
    [100, net("Hundred", "Open", [1, 3])],
    [200, net("Two Hundred", "Restrictive", [2])],
    [300, net("Three Hundred", "Selective", [9], [10])],
    [400, net("Four Hundred", "Open", [7])],
    [500, net("Five Hundred", "Open", [1])],
  ]);
  const run = (prices: Map<number, number>) =>
    peeringCandidates({ sources, seconds: SECONDS, neighbours: new Set([500, 64500, 64501]), ours, networks, pricePerMbps: prices });

  it("lists the ASes sharing an exchange or facility, with their mean transit rate per transit, by saving with Restrictive last", () => {
    const r = run(new Map([[64500, 0.5]]));
    expect(r.candidates.map((c) => c.asn)).toEqual([100, 300, 200]);
    const [hundred, threeHundred, twoHundred] = r.candidates;
    expect(hundred.transit_bps).toBeCloseTo(400e6, 0);
    expect(hundred.via).toEqual([
      { asn: 64500, bps: expect.closeTo(300e6, 0) },
      { asn: 64501, bps: expect.closeTo(100e6, 0) },
    ]);
    // Only the priced transit counts: 300 Mbit/s × 0.5 €.
    expect(hundred.saving_eur).toBeCloseTo(150, 6);
    expect(hundred.shared_ixes).toEqual([{ name: "IX1", city: "" }]);
    // 300 goes only through the unpriced transit: no saving known, after the priced ones.
    expect(threeHundred.saving_eur).toBeNull();
    expect(threeHundred.shared_ixes).toEqual([]);
    expect(threeHundred.shared_facilities).toEqual([{ name: "FAC10", city: "C" }]);
    expect(twoHundred.policy).toBe("Restrictive");
    expect(twoHundred.saving_eur).toBeCloseTo(450, 6);
    // 400 shares nothing and 600 is unknown to PeeringDB; 500 is a neighbour (not counted at all).
    expect(r.not_shared).toBe(2);
    expect(r.others_bps).toBeCloseTo(40e6, 0);
  });

  it("without prices ranks by traffic (policy still first)", () => {
    const r = run(new Map());
    expect(r.candidates.map((c) => c.asn)).toEqual([100, 300, 200]);
    expect(r.candidates.every((c) => c.saving_eur === null)).toBe(true);
    const flipped = peeringCandidates({
      sources: [
        { asn: 100, handover: 64500, bytes: bytesFor(10) },
        { asn: 300, handover: 64500, bytes: bytesFor(20) },
      ],
      seconds: SECONDS,
      neighbours: new Set(),
      ours,
      networks,
      pricePerMbps: new Map(),
    });
    expect(flipped.candidates.map((c) => c.asn)).toEqual([300, 100]);
  });

  it("puts a general policy of No last too, and cuts the list at the limit", () => {
    const r = peeringCandidates({
      sources: [
        { asn: 1, handover: 9, bytes: bytesFor(900) },
        { asn: 2, handover: 9, bytes: bytesFor(10) },
        { asn: 3, handover: 9, bytes: bytesFor(5) },
      ],
      seconds: SECONDS,
      neighbours: new Set(),
      ours,
      networks: new Map([
        [1, net("One", "No", [1])],
        [2, net("Two", "", [1])],
        [3, net("Three", "Open", [2])],
      ]),
      pricePerMbps: new Map(),
      limit: 2,
    });
    expect(r.candidates.map((c) => [c.asn, c.policy])).toEqual([
      [2, "Not stated"],
      [3, "Open"],
    ]);
  });
});

describe("transit prices", () => {
  const bill = (direction: string, partnerAsn: number | null, billed: number | null, total: number) => ({
    contract: { direction, partnerAsn },
    traffic: { billed95thMbps: billed },
    charges: { totalEur: total },
  });
  it("is the cost contracts' total over their billed 95th per partner AS", () => {
    const prices = transitPrices([
      bill("cost", 64500, 1000, 400),
      bill("cost", 64500, 3000, 800),
      bill("revenue", 64500, 5000, 9999),
      bill("cost", 64501, null, 300),
      bill("cost", null, 100, 50),
      bill("cost", 64502, 0, 10),
    ]);
    expect([...prices]).toEqual([[64500, 1200 / 4000]]);
  });
});
