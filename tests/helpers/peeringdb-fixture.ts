/**
 * A small PeeringDB dump in PeeringDB's own JSON (the shape of its API answers, the fields the
 * importer and the lookups read, plus a few they do not): three networks, their organisations,
 * two IXes with their LANs and prefixes, two facilities, the presences, and contacts.
 */
export const FIXTURE_GENERATED = 1_790_000_000;

const updated = "2026-09-20T10:00:00Z";
const ok = { status: "ok", created: "2020-01-01T00:00:00Z", updated };

export const FIXTURE = {
  org: [
    { id: 10, name: "Example Transit GmbH", website: "https://transit.example", ...ok },
    { id: 11, name: "Inhalte Köln — Content Org", ...ok },
  ],
  net: [
    {
      id: 100,
      org_id: 10,
      name: "Example Transit",
      aka: "ExTransit",
      asn: 64500,
      website: "https://transit.example",
      irr_as_set: "AS-EXTRANSIT",
      info_type: "NSP",
      info_traffic: "1-5Tbps",
      info_ratio: "Mostly Outbound",
      info_scope: "Global",
      info_prefixes4: 1200,
      info_prefixes6: 300,
      policy_general: "Selective",
      policy_url: "https://transit.example/peering",
      ...ok,
    },
    { id: 101, org_id: 11, name: "Content Net", asn: 64501, info_ratio: "", policy_general: "Open", info_prefixes4: null, ...ok },
    { id: 102, org_id: 11, name: "Gone Net", asn: 64502, ...ok, status: "deleted" },
  ],
  ix: [
    { id: 200, org_id: 10, name: "FRA-IX", city: "Frankfurt", country: "DE", ...ok },
    { id: 201, org_id: 10, name: "AMS-IX", city: "Amsterdam", country: "NL", ...ok },
  ],
  ixlan: [
    { id: 300, ix_id: 200, name: "", mtu: 1500, ...ok },
    { id: 301, ix_id: 201, name: "", mtu: 9000, ...ok },
  ],
  ixpfx: [
    { id: 400, ixlan_id: 300, protocol: "IPv4", prefix: "192.0.2.0/24", ...ok },
    { id: 401, ixlan_id: 301, protocol: "IPv6", prefix: "2001:db8:1::/64", ...ok },
  ],
  netixlan: [
    // No ix_id: the IX is found through the LAN.
    { id: 500, net_id: 100, ixlan_id: 300, asn: 64500, speed: 100000, ipaddr4: "192.0.2.10", ipaddr6: null, is_rs_peer: true, ...ok },
    { id: 501, net_id: 100, ix_id: 201, ixlan_id: 301, asn: 64500, speed: 10000, ipaddr4: null, ipaddr6: "2001:db8:1::10", ...ok },
    { id: 502, net_id: 101, ix_id: 200, ixlan_id: 300, asn: 64501, speed: 10000, ipaddr4: "192.0.2.11", is_rs_peer: false, ...ok },
  ],
  fac: [
    { id: 600, org_id: 10, name: "Equinix FR5", city: "Frankfurt", country: "DE", ...ok },
    { id: 601, org_id: 10, name: "Interxion AMS7", city: "Amsterdam", country: "NL", ...ok },
  ],
  netfac: [
    { id: 700, net_id: 100, fac_id: 601, local_asn: 64500, ...ok },
    { id: 701, net_id: 100, fac_id: 600, local_asn: 64500, ...ok },
  ],
  poc: [
    { id: 800, net_id: 100, role: "Policy", email: "peering@transit.example", visible: "Public", ...ok },
    { id: 801, net_id: 100, role: "NOC", email: "noc@transit.example", visible: "Public", ...ok },
  ],
};

/** The fixture as one dump: every type under its key, with PeeringDB's meta. */
export function fixtureDump(): string {
  return JSON.stringify(
    Object.fromEntries(Object.entries(FIXTURE).map(([kind, data]) => [kind, { data, meta: { generated: FIXTURE_GENERATED } }])),
    null,
    1,
  );
}

/** One type of the fixture as PeeringDB's per-object API answer (api/net …). */
export function fixtureAnswer(kind: keyof typeof FIXTURE): string {
  return JSON.stringify({ data: FIXTURE[kind], meta: {} });
}

/** Text as the chunks a file stream gives, cut every `size` characters. */
export async function* chunksOf(text: string, size = 64): AsyncIterable<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
