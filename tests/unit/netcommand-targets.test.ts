import { describe, expect, it } from "vitest";
import { toNetcommandQueryType } from "~/features/netcommand/jobs.server";
import { checkNetcommandTarget, NON_PUBLIC_TARGET_REFUSED } from "~/features/netcommand/targets";
import { parseNetworkList } from "~/lib/ip";
import { MESSAGES } from "~/lib/messages";

const STAFF_RANGES = parseNetworkList("10.0.0.0/8, 192.168.10.0/24, fd00:1::/32");

describe("network command targets", () => {
  it.each([
    ["8.8.8.8", "8.8.8.8"],
    [" 193.0.14.129 ", "193.0.14.129"],
    ["2A00:1450:0:0::1", "2a00:1450::1"],
    ["2a00:1450:0000:0000:0000:0000:0000:0001", "2a00:1450::1"],
  ])("accepts the public address %j as %j", (raw, value) => {
    expect(checkNetcommandTarget(raw)).toMatchObject({ ok: true, value });
    expect(checkNetcommandTarget(raw, STAFF_RANGES)).toMatchObject({ ok: true, value });
  });

  it.each([
    "",
    " ",
    "example.net",
    "localhost",
    "192.0.2.0/24",
    "192.0.2.256",
    "192.0.2",
    "192.0.2.1.5",
    "010.0.0.1",
    "127.0.0.1; cat /etc/passwd",
    "127.0.0.1 -c 1000",
    "-f 127.0.0.1",
    "$(reboot)",
    "`id`",
    "1.2.3.4\n5.6.7.8",
    "2001:db8::1::2",
    "2001:db8:::1",
    "12345::1",
    "x".repeat(100),
    null,
    42,
    ["127.0.0.1"],
  ])("refuses %j with the spec's message", (raw) => {
    expect(checkNetcommandTarget(raw)).toEqual({ ok: false, error: MESSAGES.invalidIpAddress });
    expect(checkNetcommandTarget(raw, STAFF_RANGES)).toEqual({ ok: false, error: MESSAGES.invalidIpAddress });
  });

  it.each([
    ["loopback", "127.0.0.1"],
    ["loopback", "127.255.0.9"],
    ["this network", "0.0.0.0"],
    ["private", "10.0.0.1"],
    ["private", "172.16.0.1"],
    ["private", "172.31.255.255"],
    ["private", "192.168.1.1"],
    ["CGNAT", "100.64.0.1"],
    ["link-local (cloud metadata)", "169.254.169.254"],
    ["IETF protocol assignments", "192.0.0.8"],
    ["documentation", "192.0.2.7"],
    ["documentation", "198.51.100.1"],
    ["documentation", "203.0.113.9"],
    ["benchmarking", "198.18.0.1"],
    ["6to4 relay anycast", "192.88.99.1"],
    ["multicast", "224.0.0.1"],
    ["multicast", "239.255.255.250"],
    ["reserved", "240.0.0.1"],
    ["broadcast", "255.255.255.255"],
    ["unspecified", "::"],
    ["loopback", "::1"],
    ["link-local", "fe80::1"],
    ["site-local (deprecated)", "fec0::1"],
    ["unique-local", "fd00::1"],
    ["multicast", "ff02::1"],
    ["discard-only", "100::1"],
    ["documentation", "2001:db8::1"],
    ["documentation", "3fff::1"],
    ["IETF protocol assignments", "2001:2::1"],
    ["outside global unicast", "4000::1"],
    ["IPv4-mapped loopback", "::ffff:127.0.0.1"],
    ["IPv4-mapped private", "::ffff:10.0.0.1"],
    ["IPv4-mapped metadata", "::ffff:169.254.169.254"],
    ["IPv4-compatible (deprecated, even of a public address)", "::8.8.8.8"],
    ["IPv4-compatible private", "::10.0.0.1"],
    ["IPv4-translated private", "::ffff:0:10.0.0.1"],
    ["NAT64 of private", "64:ff9b::10.0.0.1"],
    ["NAT64 of loopback", "64:ff9b::7f00:1"],
    ["NAT64 of metadata", "64:ff9b::a9fe:a9fe"],
    ["local-use NAT64", "64:ff9b:1::8.8.8.8"],
    ["6to4 of private", "2002:0a00:0001::1"],
    ["6to4 of loopback", "2002:7f00:1::"],
    ["Teredo with a private server", "2001:0:a00:1::1"],
    ["Teredo with a loopback client (127.0.0.1 inverted)", "2001:0:808:808::80ff:fffe"],
    ["ISATAP carrying a private address", "2a00:1450::5efe:10.0.0.1"],
    ["ISATAP in a link-local prefix", "fe80::200:5efe:8.8.8.8"],
  ])("refuses %s %s to every caller not allowed the range", (_kind, raw) => {
    expect(checkNetcommandTarget(raw)).toEqual({ ok: false, error: NON_PUBLIC_TARGET_REFUSED });
  });

  it.each(["::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "2a00:1450::5efe:8.8.8.8"])(
    "accepts %s, which wraps a public IPv4 address",
    (raw) => {
      expect(checkNetcommandTarget(raw).ok).toBe(true);
    },
  );

  it("lets the configured internal ranges through, also wrapped, and nothing beside them", () => {
    for (const raw of ["10.1.2.3", "192.168.10.20", "::ffff:10.0.0.1", "64:ff9b::10.0.0.1", "fd00:1::5"])
      expect(checkNetcommandTarget(raw, STAFF_RANGES).ok, raw).toBe(true);
    for (const raw of ["127.0.0.1", "169.254.169.254", "192.168.11.1", "172.16.0.1", "fd00:2::5", "::1"]) {
      expect(checkNetcommandTarget(raw, STAFF_RANGES), raw).toEqual({ ok: false, error: NON_PUBLIC_TARGET_REFUSED });
    }
  });

  it("reads the list of allowed ranges and names a bad entry", () => {
    expect(parseNetworkList("")).toEqual([]);
    expect(parseNetworkList(" 10.0.0.0/8 ,fd00::/8").map((n) => [n.version, n.length])).toEqual([
      [4, 8],
      [6, 8],
    ]);
    expect(() => parseNetworkList("10.0.0.0/8,intranet")).toThrow('"intranet" is not an IP address or CIDR prefix');
  });

  it("maps current and legacy query types and nothing else", () => {
    expect(toNetcommandQueryType("PingQuery")).toBe("PingQuery");
    expect(toNetcommandQueryType("TracerouteQuery")).toBe("TracerouteQuery");
    expect(toNetcommandQueryType("PING_QUERY")).toBe("PingQuery");
    expect(toNetcommandQueryType("TRACEROUTE_QUERY")).toBe("TracerouteQuery");
    for (const other of ["AsPathQuery", "IpPrefixQuery", "pingquery", "", null, 1]) expect(toNetcommandQueryType(other)).toBeNull();
  });
});
