/**
 * ICMP types and codes and the forwarding status as the screens and flows:decode name them
 * (app/features/filter/value-labels.ts), against the IANA registries' names written out here.
 */
import { describe, expect, it } from "vitest";
import { aggregatedSheet } from "~/features/flows/export/sheet";
import {
  filterLabel,
  forwardingStatusLabel,
  icmpLabel,
  icmpTypeName,
  isDroppedStatus,
  protocolRowLabel,
  valueExplanation,
  valueLabel,
} from "~/features/filter/value-labels";

describe("ICMP type and code names", () => {
  it("names ICMP and ICMPv6 types, with the code's name where the registry gives one", () => {
    expect(icmpLabel(1, 8, 0)).toBe("Echo Request");
    expect(icmpLabel(1, 0, 0)).toBe("Echo Reply");
    expect(icmpLabel(1, 3, 3)).toBe("Destination Unreachable / Port Unreachable");
    expect(icmpLabel(1, 3, 4)).toBe("Destination Unreachable / Fragmentation Needed and Don't Fragment was Set");
    expect(icmpLabel(1, 11, 0)).toBe("Time Exceeded / Time to Live exceeded in Transit");
    expect(icmpLabel(58, 128, 0)).toBe("Echo Request");
    expect(icmpLabel(58, 135, 0)).toBe("Neighbor Solicitation");
    expect(icmpLabel(58, 1, 4)).toBe("Destination Unreachable / Port unreachable");
    expect(icmpLabel(58, 2, 0)).toBe("Packet Too Big");
  });

  it("says the numbers of what the registry does not name, and nothing for other protocols or an unknown type", () => {
    expect(icmpLabel(1, 3, 99)).toBe("Destination Unreachable / code 99");
    expect(icmpLabel(1, 8, 5)).toBe("Echo Request / code 5");
    expect(icmpLabel(1, 200, 1)).toBe("ICMP type 200 code 1");
    expect(icmpLabel(58, 200, 0)).toBe("ICMPv6 type 200");
    // Type 128 is an ICMPv6 type only.
    expect(icmpLabel(1, 128, 0)).toBe("ICMP type 128");
    expect(icmpLabel(6, 8, 0)).toBeNull();
    expect(icmpLabel(1, null, null)).toBeNull();
  });
});

describe("forwarding status names", () => {
  it("says dropped by the router with the reason, for every status 10xxxxxx", () => {
    expect(forwardingStatusLabel(0x80)).toBe("dropped by the router (reason unknown)");
    expect(forwardingStatusLabel(129)).toBe("dropped by the router (ACL deny)");
    expect(forwardingStatusLabel(130)).toBe("dropped by the router (ACL drop)");
    expect(forwardingStatusLabel(131)).toBe("dropped by the router (unroutable)");
    expect(forwardingStatusLabel(138)).toBe("dropped by the router (policer)");
    expect(forwardingStatusLabel(140)).toBe("dropped by the router (RPF)");
    expect(forwardingStatusLabel(0x80 | 50)).toBe("dropped by the router (reason 50)");
    for (let status = 0; status < 256; status++) expect(isDroppedStatus(status), String(status)).toBe(status >= 128 && status < 192);
  });

  it("names forwarded and consumed packets, and nothing when the exporter does not say", () => {
    expect(forwardingStatusLabel(64)).toBe("forwarded");
    expect(forwardingStatusLabel(65)).toBe("forwarded (fragmented)");
    expect(forwardingStatusLabel(195)).toBe("consumed by the router (for us)");
    expect(forwardingStatusLabel(0)).toBeNull();
    expect(forwardingStatusLabel(5)).toBe("status unknown (reason 5)");
  });
});

describe("the protocol views' rows (IANA_PROTOCOL split by ICMP type)", () => {
  it("names ICMP and IPv6-ICMP rows by protocol and type, other protocols as before", () => {
    expect(protocolRowLabel("1/8")).toBe("ICMP Echo Request");
    expect(protocolRowLabel("1/0")).toBe("ICMP Echo Reply");
    expect(protocolRowLabel("1/11")).toBe("ICMP Time Exceeded");
    expect(protocolRowLabel("58/1")).toBe("IPv6-ICMP Destination Unreachable");
    expect(protocolRowLabel("58/128")).toBe("IPv6-ICMP Echo Request");
    expect(protocolRowLabel("1/200")).toBe("ICMP type 200");
    expect(protocolRowLabel("1/-1")).toBe("ICMP (type not known)");
    expect(protocolRowLabel("6")).toBe("TCP");
    expect(protocolRowLabel("143")).toBe("143");
    expect(valueLabel("IANA_PROTOCOL", "58/129")).toBe("IPv6-ICMP Echo Reply");
    expect(valueLabel("IANA_PROTOCOL", "-101")).toBe("Others");
  });

  it("a filter on the protocol reads as the protocol: it selects every type", () => {
    expect(valueLabel("IANA_PROTOCOL", "1")).toBe("ICMP");
    expect(filterLabel({ dimension: "IANA_PROTOCOL", value: "58", isNegation: true })).toBe("not IANA protocol: IPv6-ICMP");
  });

  it("explains the ICMP whose type is not known, and nothing else of the protocols", () => {
    expect(valueExplanation("IANA_PROTOCOL", "1/-1")).toEqual({
      name: "ICMP (type not known)",
      explanation: expect.stringMatching(/type is not known/),
    });
    expect(valueExplanation("IANA_PROTOCOL", "1/8")).toBeNull();
    expect(valueExplanation("IANA_PROTOCOL", "1")).toBeNull();
  });

  it("exports show the same names", () => {
    const sheet = aggregatedSheet("Flow Explorer", "IANA_PROTOCOL", [{ key: "1/8", name: "ICMP Echo Request", bps: 1, bytes: "1" }], false);
    expect(sheet.rows[0].slice(0, 2)).toEqual(["ICMP Echo Request", "ICMP Echo Request"]);
  });

  it("names the registry's types, and none beyond", () => {
    expect(icmpTypeName(1, 3)).toBe("Destination Unreachable");
    expect(icmpTypeName(58, 3)).toBe("Time Exceeded");
    expect(icmpTypeName(1, 128)).toBeNull();
    expect(icmpTypeName(6, 8)).toBeNull();
  });
});
