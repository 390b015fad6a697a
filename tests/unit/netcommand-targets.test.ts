import { describe, expect, it } from "vitest";
import { toNetcommandQueryType } from "~/features/netcommand/jobs.server";
import { checkNetcommandTarget, PUBLIC_TARGET_REFUSED } from "~/features/netcommand/targets";
import { MESSAGES } from "~/lib/messages";

describe("network command targets", () => {
  it.each([
    ["192.0.2.1", "192.0.2.1"],
    [" 198.51.100.7 ", "198.51.100.7"],
    ["2001:DB8:0:0::1", "2001:db8::1"],
    ["2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
    ["127.0.0.1", "127.0.0.1"],
    ["::1", "::1"],
  ])("accepts %j for logged-in users as %j", (raw, value) => {
    expect(checkNetcommandTarget(raw, "private")).toMatchObject({ ok: true, value });
  });

  it.each([
    "",
    " ",
    "example.net",
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
    expect(checkNetcommandTarget(raw, "private")).toEqual({ ok: false, error: MESSAGES.invalidIpAddress });
    expect(checkNetcommandTarget(raw, "public")).toEqual({ ok: false, error: MESSAGES.invalidIpAddress });
  });

  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "0.0.0.0",
    "10.1.2.3",
    "100.64.0.1",
    "169.254.10.10",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "224.0.0.1",
    "239.255.255.250",
    "255.255.255.255",
    "::",
    "::1",
    "fe80::1",
    "fd00::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
  ])("refuses %s to anonymous callers of the public Looking Glass", (raw) => {
    expect(checkNetcommandTarget(raw, "public")).toEqual({ ok: false, error: PUBLIC_TARGET_REFUSED });
    expect(checkNetcommandTarget(raw, "private").ok).toBe(true);
  });

  it.each(["192.0.2.1", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2001:db8::1", "2a00:1450::1", "::ffff:192.0.2.1"])("lets anonymous callers reach %s", (raw) => {
    expect(checkNetcommandTarget(raw, "public").ok).toBe(true);
  });

  it("maps current and legacy query types and nothing else", () => {
    expect(toNetcommandQueryType("PingQuery")).toBe("PingQuery");
    expect(toNetcommandQueryType("TracerouteQuery")).toBe("TracerouteQuery");
    expect(toNetcommandQueryType("PING_QUERY")).toBe("PingQuery");
    expect(toNetcommandQueryType("TRACEROUTE_QUERY")).toBe("TracerouteQuery");
    for (const other of ["AsPathQuery", "IpPrefixQuery", "pingquery", "", null, 1]) expect(toNetcommandQueryType(other)).toBeNull();
  });
});
