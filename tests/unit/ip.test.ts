import { describe, expect, it } from "vitest";
import {
  formatIpv6,
  ipVersion,
  lastAddress,
  networkAddress,
  normalizeAddressTerm,
  normalizeNetworkTerm,
  parseIpAddress,
  parseNetwork,
  toIpv6Column,
} from "~/lib/ip";

describe("ipVersion (spec §5: 4, 6 or undefined)", () => {
  const table: [string, 4 | 6 | undefined][] = [
    ["192.0.2.1", 4],
    ["0.0.0.0", 4],
    ["255.255.255.255", 4],
    [" 10.1.2.3 ", 4],
    ["256.0.0.1", undefined],
    ["1.2.3", undefined],
    ["1.2.3.4.5", undefined],
    ["01.2.3.4", undefined],
    ["1..3.4", undefined],
    ["1.2.3.-4", undefined],
    ["a.b.c.d", undefined],
    ["2001:db8::1", 6],
    ["::", 6],
    ["::1", 6],
    ["1::", 6],
    ["2001:DB8:0:0:0:0:0:1", 6],
    ["1:2:3:4:5:6:7:8", 6],
    ["::ffff:192.0.2.1", 6],
    ["64:ff9b::192.0.2.33", 6],
    ["1:2:3:4:5:6:7:8:9", undefined],
    ["1:2:3:4:5:6:7", undefined],
    ["1::2::3", undefined],
    ["2001:db8::g", undefined],
    ["12345::", undefined],
    [":1:2:3:4:5:6:7", undefined],
    ["1.2.3.4::", undefined],
    ["fe80::1%eth0", undefined],
    ["", undefined],
    ["2001:db8::/32", undefined],
  ];
  it.each(table)("%s → %s", (text, version) => expect(ipVersion(text)).toBe(version));

  it("refuses texts longer than the spec's maximum (IPv4 15, IPv6 45) ", () => {
    expect(ipVersion("1".repeat(16))).toBeUndefined();
    expect(ipVersion(`0000:0000:0000:0000:0000:ffff:192.168.100.200`)).toBe(6); // 45 characters
    expect(ipVersion(`0000:0000:0000:0000:0000:ffff:192.168.100.2000`)).toBeUndefined();
    expect(ipVersion("1:".repeat(50_000) + "x")).toBeUndefined();
  });
});

describe("formatIpv6 (RFC 5952)", () => {
  const table: [string, string][] = [
    ["2001:DB8:0:0:0:0:0:1", "2001:db8::1"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"],
    ["0:0:0:0:0:0:0:0", "::"],
    ["0:0:0:0:0:0:0:1", "::1"],
    ["2001:0:0:1:0:0:0:1", "2001:0:0:1::1"],
    ["::ffff:c000:0201", "::ffff:192.0.2.1"],
  ];
  it.each(table)("%s → %s", (text, expected) => expect(formatIpv6(parseIpAddress(text)!.value)).toBe(expected));
});

describe("networks", () => {
  it("keeps a host address bare and clears host bits of a prefix", () => {
    expect(normalizeNetworkTerm("192.0.2.1")).toMatchObject({ ok: true, value: "192.0.2.1" });
    expect(normalizeNetworkTerm("10.0.0.1/30")).toMatchObject({ ok: true, value: "10.0.0.0/30" });
    expect(normalizeNetworkTerm(" 2001:DB8:0::1/32 ")).toMatchObject({ ok: true, value: "2001:db8::/32" });
    expect(normalizeNetworkTerm("2001:db8::1")).toMatchObject({ ok: true, value: "2001:db8::1" });
    expect(normalizeNetworkTerm("0.0.0.0/0")).toMatchObject({ ok: true, value: "0.0.0.0/0" });
    expect(normalizeNetworkTerm("::/0")).toMatchObject({ ok: true, value: "::/0" });
  });

  const invalid = [
    "10.0.0.0/33",
    "2001:db8::/129",
    "10.0.0.0/",
    "10.0.0.0/-1",
    "10.0.0.0/08",
    "10.0.0.0/3a",
    "/24",
    "10.0.0.0/24/1",
    "example.org",
    "",
  ];
  it.each(invalid)("%s → 'Network is not a CIDR or IP'", (text) => {
    expect(normalizeNetworkTerm(text)).toEqual({ ok: false, error: "Network is not a CIDR or IP" });
  });

  it("single addresses for ping and traceroute: 'Invalid IP address' otherwise", () => {
    expect(normalizeAddressTerm("2001:0DB8::0001")).toMatchObject({ ok: true, value: "2001:db8::1" });
    expect(normalizeAddressTerm("10.0.0.0/24")).toEqual({ ok: false, error: "Invalid IP address" });
    expect(normalizeAddressTerm("300.1.1.1")).toEqual({ ok: false, error: "Invalid IP address" });
  });

  it("prefix arithmetic on 32 and 128 bits", () => {
    const v4 = parseIpAddress("192.0.2.200")!.value;
    expect(networkAddress(4, v4, 25)).toBe(parseIpAddress("192.0.2.128")!.value);
    expect(lastAddress(4, v4, 25)).toBe(parseIpAddress("192.0.2.255")!.value);
    expect(networkAddress(4, v4, 0)).toBe(0n);
    expect(networkAddress(4, v4, 32)).toBe(v4);
    const v6 = parseIpAddress("2001:db8:1234::1")!.value;
    expect(formatIpv6(networkAddress(6, v6, 36))).toBe("2001:db8:1000::");
    expect(formatIpv6(lastAddress(6, v6, 120))).toBe("2001:db8:1234::ff");
    expect(parseNetwork("2001:db8::1")).toMatchObject({ version: 6, length: 128, hasLength: false });
  });

  it("IPv4 in IPv6 columns is IPv4-mapped", () => {
    expect(toIpv6Column(parseIpAddress("192.0.2.1")!)).toBe("::ffff:192.0.2.1");
    expect(toIpv6Column(parseIpAddress("2001:db8::1")!)).toBe("2001:db8::1");
  });
});
