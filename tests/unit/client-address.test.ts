import { describe, expect, it } from "vitest";
import {
  isSecureRequest,
  normalizeAddress,
  parseProxyTrust,
  PEER_ADDRESS_HEADER,
  resolveClientAddress,
  UNKNOWN_ADDRESS,
} from "~/server/auth/client-address.server";

function request(peer: string | null, forwardedFor?: string): Request {
  const headers = new Headers();
  if (peer) headers.set(PEER_ADDRESS_HEADER, peer);
  if (forwardedFor) headers.set("X-Forwarded-For", forwardedFor);
  return new Request("http://flowlens.test/login", { headers });
}

describe("client address", () => {
  it("without trusted proxies is the socket peer, whatever X-Forwarded-For claims", () => {
    const none = parseProxyTrust("0");
    expect(resolveClientAddress(request("198.51.100.7", "203.0.113.1"), none)).toBe("198.51.100.7");
    expect(resolveClientAddress(request("::ffff:198.51.100.7"), none)).toBe("198.51.100.7");
    expect(resolveClientAddress(request("2001:DB8::1"), none)).toBe("2001:db8::1");
  });

  it("honours X-Forwarded-For only from a listed proxy, walking from the right past listed hops", () => {
    const trust = parseProxyTrust("10.0.0.0/8, 192.0.2.10 ::1");
    // The direct client is not a listed proxy: its forged header is ignored.
    expect(resolveClientAddress(request("203.0.113.66", "198.51.100.1"), trust)).toBe("203.0.113.66");
    // Through one proxy: the hop it appended.
    expect(resolveClientAddress(request("10.1.2.3", "198.51.100.1"), trust)).toBe("198.51.100.1");
    // A client-written entry left of the real client is not believed.
    expect(resolveClientAddress(request("10.1.2.3", "1.2.3.4, 198.51.100.1"), trust)).toBe("198.51.100.1");
    // Two listed proxies in a row are skipped.
    expect(resolveClientAddress(request("::ffff:10.1.2.3", "198.51.100.1, 192.0.2.10"), trust)).toBe("198.51.100.1");
    expect(resolveClientAddress(request("::1", "[2001:db8::5]:443, 10.9.9.9:8080"), trust)).toBe("2001:db8::5");
    // Only proxies in the chain: the leftmost one; garbage: the proxy that passed it on.
    expect(resolveClientAddress(request("10.1.2.3", "10.2.2.2"), trust)).toBe("10.2.2.2");
    expect(resolveClientAddress(request("10.1.2.3", "not-an-address, 10.2.2.2"), trust)).toBe("10.2.2.2");
    expect(resolveClientAddress(request("10.1.2.3"), trust)).toBe("10.1.2.3");
  });

  it("`1` trusts every hop: the last entry, as before", () => {
    const everyHop = parseProxyTrust("true");
    expect(resolveClientAddress(request("127.0.0.1", "1.2.3.4, 198.51.100.9"), everyHop)).toBe("198.51.100.9");
    expect(resolveClientAddress(request(null, "198.51.100.9"), everyHop)).toBe("198.51.100.9");
    expect(resolveClientAddress(request("127.0.0.1"), everyHop)).toBe("127.0.0.1");
  });

  it("without the peer header (not served by server.mjs) the address is unknown", () => {
    expect(resolveClientAddress(request(null, "198.51.100.9"), parseProxyTrust("0"))).toBe(UNKNOWN_ADDRESS);
    expect(resolveClientAddress(request(null, "198.51.100.9"), parseProxyTrust("10.0.0.0/8"))).toBe(UNKNOWN_ADDRESS);
  });

  it("refuses a TRUST_PROXY entry that is not an address or network", () => {
    expect(() => parseProxyTrust("10.0.0.0/33")).toThrow(/10\.0\.0\.0\/33/);
    expect(() => parseProxyTrust("proxy.example")).toThrow(/proxy\.example/);
    expect(() => parseProxyTrust("10.0.0.1/8/1")).toThrow();
    expect(parseProxyTrust("2001:db8::/32").mode).toBe("list");
    expect(normalizeAddress("198.51.100.1:5555")).toBe("198.51.100.1");
    expect(normalizeAddress("x")).toBeNull();
  });
});

describe("HTTPS behind a proxy", () => {
  const secure = (url: string, peer: string | null, proto?: string) => {
    const headers = new Headers();
    if (peer) headers.set(PEER_ADDRESS_HEADER, peer);
    if (proto) headers.set("X-Forwarded-Proto", proto);
    return new Request(url, { headers });
  };

  it("ignores X-Forwarded-Proto without trusted proxies: anybody can send it", () => {
    const none = parseProxyTrust("0");
    expect(isSecureRequest(secure("http://flowlens.test/", "203.0.113.66", "https"), none)).toBe(false);
    expect(isSecureRequest(secure("http://flowlens.test/", null, "https"), none)).toBe(false);
    expect(isSecureRequest(secure("https://flowlens.test/", "203.0.113.66"), none)).toBe(true);
  });

  it("believes X-Forwarded-Proto (its first value) only from a listed proxy, or from anybody with `1`", () => {
    const list = parseProxyTrust("10.0.0.0/8");
    expect(isSecureRequest(secure("http://flowlens.test/", "10.1.2.3", "https"), list)).toBe(true);
    expect(isSecureRequest(secure("http://flowlens.test/", "::ffff:10.1.2.3", "HTTPS, http"), list)).toBe(true);
    expect(isSecureRequest(secure("http://flowlens.test/", "10.1.2.3", "http"), list)).toBe(false);
    expect(isSecureRequest(secure("http://flowlens.test/", "203.0.113.66", "https"), list)).toBe(false);
    expect(isSecureRequest(secure("http://flowlens.test/", null, "https"), list)).toBe(false);
    const everyHop = parseProxyTrust("1");
    expect(isSecureRequest(secure("http://flowlens.test/", "203.0.113.66", "https"), everyHop)).toBe(true);
    expect(isSecureRequest(secure("http://flowlens.test/", null, "https"), everyHop)).toBe(true);
    // server.mjs hands over a path, not an absolute URL, for its own checks.
    expect(isSecureRequest({ url: "/login", headers: secure("http://x.test/", "10.1.2.3", "https").headers }, list)).toBe(true);
  });
});
