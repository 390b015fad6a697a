/**
 * Peering candidates (AS Relations): the ASes that send us traffic through a transit and are present at
 * an internet exchange or a facility where we are too — a port there would move that traffic off the
 * transit bill. Pure: the inputs are read by candidates.server.ts. The rules (docs/as-relations.md):
 *
 * - traffic: the mean bit/s over the month's flow hours that the AS handed to a Transit neighbour who
 *   handed it to us (ingress); ASes we already have a link with are not candidates;
 * - saving: per transit, that mean rate in Mbit/s times the transit's effective price per billed Mbit/s
 *   of the month (its cost contracts' total ÷ their billed 95th, Revenues & Costs); null when no
 *   transit it uses has a priced contract (or the viewer may not see prices);
 * - only ASes with a shared exchange or facility are listed; order: policies Restrictive and No last,
 *   then by saving (the ASes with a known saving first), then by traffic.
 */
import { OTHERS_AS } from "~/features/filter/dimensions";

export const CANDIDATES_SHOWN = 50;
const LAST_POLICIES = new Set(["restrictive", "no"]);
const MBPS = 1e6;

export type TransitSource = { asn: number; handover: number; bytes: number };
export type Presence = { ixes: { id: number; name: string; city: string }[]; facilities: { id: number; name: string; city: string }[] };
export type CandidateNetwork = { name: string; policy: string; presence: Presence };

export type PeeringCandidate = {
  asn: number;
  name: string | null;
  policy: string;
  transit_bps: number;
  via: { asn: number; bps: number }[];
  saving_eur: number | null;
  shared_ixes: { name: string; city: string }[];
  shared_facilities: { name: string; city: string }[];
};

export type PeeringCandidates = {
  candidates: PeeringCandidate[];
  /** ASes with transit traffic that PeeringDB lists at none of our exchanges and facilities (or does not know). */
  not_shared: number;
  /** Transit traffic of ASes outside the tracked set, folded into Others: no AS to name. */
  others_bps: number;
};

const sharedOf = <T extends { id: number; name: string; city: string }>(theirs: readonly T[], ours: ReadonlySet<number>) => {
  const seen = new Set<number>();
  return theirs.filter((x) => ours.has(x.id) && !seen.has(x.id) && seen.add(x.id)).map((x) => ({ name: x.name, city: x.city }));
};

export function peeringCandidates(input: {
  sources: readonly TransitSource[];
  /** The seconds the mean rate is over: the month's hours with flows × 3600. */
  seconds: number;
  /** Every AS we have an external link with. */
  neighbours: ReadonlySet<number>;
  ours: Presence;
  networks: ReadonlyMap<number, CandidateNetwork>;
  /** € per billed Mbit/s of each transit AS's contracts, where known. */
  pricePerMbps: ReadonlyMap<number, number>;
  limit?: number;
}): PeeringCandidates {
  const seconds = Math.max(1, input.seconds);
  const bps = (bytes: number) => (bytes * 8) / seconds;
  const byAsn = new Map<number, { asn: number; bps: number }[]>();
  let othersBytes = 0;
  for (const s of input.sources) {
    if (s.asn === OTHERS_AS) othersBytes += s.bytes;
    if (s.asn <= 0 || input.neighbours.has(s.asn)) continue;
    const list = byAsn.get(s.asn) ?? [];
    list.push({ asn: s.handover, bps: bps(s.bytes) });
    byAsn.set(s.asn, list);
  }
  const ourIxes = new Set(input.ours.ixes.map((x) => x.id));
  const ourFacilities = new Set(input.ours.facilities.map((x) => x.id));
  const all: PeeringCandidate[] = [];
  let notShared = 0;
  for (const [asn, via] of byAsn) {
    const net = input.networks.get(asn);
    const shared_ixes = net ? sharedOf(net.presence.ixes, ourIxes) : [];
    const shared_facilities = net ? sharedOf(net.presence.facilities, ourFacilities) : [];
    if (!shared_ixes.length && !shared_facilities.length) {
      notShared++;
      continue;
    }
    const priced = via.filter((v) => input.pricePerMbps.has(v.asn));
    via.sort((a, b) => b.bps - a.bps || a.asn - b.asn);
    all.push({
      asn,
      name: net?.name ?? null,
      policy: net?.policy || "Not stated",
      transit_bps: via.reduce((a, v) => a + v.bps, 0),
      via,
      saving_eur: priced.length ? priced.reduce((a, v) => a + (v.bps / MBPS) * input.pricePerMbps.get(v.asn)!, 0) : null,
      shared_ixes,
      shared_facilities,
    });
  }
  const last = (c: PeeringCandidate) => (LAST_POLICIES.has(c.policy.toLowerCase()) ? 1 : 0);
  all.sort(
    (a, b) =>
      last(a) - last(b) ||
      (a.saving_eur === null ? 1 : 0) - (b.saving_eur === null ? 1 : 0) ||
      (b.saving_eur ?? 0) - (a.saving_eur ?? 0) ||
      b.transit_bps - a.transit_bps ||
      a.asn - b.asn,
  );
  return { candidates: all.slice(0, input.limit ?? CANDIDATES_SHOWN), not_shared: notShared, others_bps: bps(othersBytes) };
}
