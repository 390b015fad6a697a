/**
 * Route distinguishers as typed for a router's VRFs (RFC 4364 §4.2 types 0, 1 and 2): read into the
 * spelling the routing history stores, which the MRT/BMP reader writes from the 8 bytes
 * (routeDistinguisherText), and refused with a sentence that says what is wrong.
 */
import { describe, expect, it } from "vitest";
import { parseRouteDistinguisher } from "~/features/inventory/route-distinguisher";
import { routerInput, formErrors, ROUTER_FIELDS, routerValues } from "~/features/inventory/inventory-form";
import { routerSchema, zodIssues } from "~/features/inventory/schema";
import { routeDistinguisherText } from "~/features/routing/mrt/nlri";

const ok = (text: string) => {
  const parsed = parseRouteDistinguisher(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.rd;
};
const error = (text: string) => {
  const parsed = parseRouteDistinguisher(text);
  if (parsed.ok) throw new Error(`${text} was taken as ${parsed.rd.text}`);
  return parsed.error;
};

/** The 8 bytes of a distinguisher, as a BGP UPDATE carries it. */
function bytes(type: number, admin: number[] | number, assigned: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeUInt16BE(type, 0);
  if (type === 0) {
    b.writeUInt16BE(admin as number, 2);
    b.writeUInt32BE(assigned, 4);
  } else if (type === 1) {
    (admin as number[]).forEach((octet, i) => b.writeUInt8(octet, 2 + i));
    b.writeUInt16BE(assigned, 6);
  } else {
    b.writeUInt32BE(admin as number, 2);
    b.writeUInt16BE(assigned, 6);
  }
  return b;
}

describe("parseRouteDistinguisher", () => {
  it("reads type 0 (2-byte AS : 4-byte number)", () => {
    expect(ok("64500:1")).toEqual({ type: 0, administrator: "64500", assigned: 1, text: "64500:1" });
    expect(ok(" 65535:4294967295 ").text).toBe("65535:4294967295");
    expect(ok("0:7").type).toBe(0);
  });

  it("reads type 1 (IPv4 address : 2-byte number)", () => {
    expect(ok("192.0.2.1:7")).toEqual({ type: 1, administrator: "192.0.2.1", assigned: 7, text: "192.0.2.1:7" });
    expect(ok("010.000.000.001:65535").text).toBe("10.0.0.1:65535");
  });

  it("reads type 2 (4-byte AS : 2-byte number), plain, asdot or with L", () => {
    expect(ok("4200000000:7")).toEqual({ type: 2, administrator: "4200000000", assigned: 7, text: "4200000000:7" });
    expect(ok("64086.59904:7")).toEqual({ type: 2, administrator: "4200000000", assigned: 7, text: "4200000000:7" });
    expect(ok("64500L:3")).toEqual({ type: 2, administrator: "64500", assigned: 3, text: "64500:3" });
    expect(ok("65536:65535").type).toBe(2);
  });

  it("writes what the routing history stores for the same 8 bytes", () => {
    const cases: [string, Buffer][] = [
      ["64500:1", bytes(0, 64500, 1)],
      ["65535:4294967295", bytes(0, 65535, 4294967295)],
      ["192.0.2.1:7", bytes(1, [192, 0, 2, 1], 7)],
      ["4200000000:7", bytes(2, 4200000000, 7)],
      ["64086.59904:7", bytes(2, 4200000000, 7)],
      ["64500L:3", bytes(2, 64500, 3)],
    ];
    for (const [typed, wire] of cases) expect([typed, ok(typed).text]).toEqual([typed, routeDistinguisherText(wire)]);
  });

  it("refuses what is none, saying why", () => {
    expect(error("")).toMatch(/is required, e\.g\. 64500:1/);
    expect(error("64500")).toMatch(/"64500" is not a route distinguisher: write the administrator and the assigned number with a colon/);
    expect(error("64500:")).toMatch(/after the colon must be a whole number/);
    expect(error("64500:x1")).toMatch(/after the colon must be a whole number/);
    expect(error("64500:4294967296")).toMatch(/at most 4294967295/);
    expect(error("192.0.2.1:65536")).toMatch(/IPv4 address \(type 1\) the assigned number must be at most 65535/);
    expect(error("4200000000:65536")).toMatch(/4-byte AS \(type 2\) the assigned number must be at most 65535/);
    expect(error("64500L:70000")).toMatch(/type 2/);
    expect(error("192.0.2.300:1")).toMatch(/not an IPv4 address/);
    expect(error("4294967296:1")).toMatch(/an AS number is at most 4294967295/);
    expect(error("70000.1:1")).toMatch(/asdot form/);
    expect(error("CUST_A:1")).toMatch(/must be an AS number or an IPv4 address/);
    expect(error("2001:db8::1:5")).toMatch(/must be an AS number or an IPv4 address/);
    expect(error("0:0")).toMatch(/global table/);
    expect(error("0.0.0.0:0")).toMatch(/global table/);
  });
});

describe("a router's VRFs", () => {
  const router = { name: "fra1-r1", city: "Frankfurt", country: "Germany", loopback: "198.51.100.1" };

  it("are checked by the router schema: distinguishers as stored, names and distinguishers once each", () => {
    const parsed = routerSchema.safeParse({ ...router, vrfs: [{ name: "CUST_A", rd: "64086.59904:7" }] });
    expect(parsed.success && parsed.data.vrfs).toEqual([{ name: "CUST_A", rd: "4200000000:7" }]);
    const twice = routerSchema.safeParse({
      ...router,
      vrfs: [
        { name: "CUST_A", rd: "64500:1" },
        { name: "CUST_A", rd: "64500:2" },
        { name: "CUST_B", rd: "64500:1" },
      ],
    });
    expect(twice.success).toBe(false);
    expect(zodIssues(twice.error!)).toEqual([
      { path: "vrfs[1].name", message: "CUST_A is also vrfs[0].name" },
      { path: "vrfs[2].rd", message: "64500:1 is also vrfs[0].rd" },
    ]);
    const bad = routerSchema.safeParse({ ...router, vrfs: [{ name: "CUST C", rd: "64500:x" }] });
    expect(zodIssues(bad.error!)).toEqual([
      { path: "vrfs[0].name", message: "must not contain spaces" },
      { path: "vrfs[0].rd", message: '"64500:x" is not a route distinguisher: the part after the colon must be a whole number' },
    ]);
  });

  it("come from the form's textarea of 'NAME RD' lines, and go back to it", () => {
    const { input, errors } = routerInput({ ...router, vrfs: "CUST_A 64500:1\r\n\n  CUST_B   192.0.2.1:7  \n" });
    expect(errors).toEqual({});
    expect(input.vrfs).toEqual([
      { name: "CUST_A", rd: "64500:1" },
      { name: "CUST_B", rd: "192.0.2.1:7" },
    ]);
    const bad = routerInput({ ...router, vrfs: "CUST_A\nCUST_B 64500:2 extra\nCUST_C 64500:3" });
    expect(bad.errors.vrfs).toBe(
      "line 1: write the VRF's name and its route distinguisher, e.g. CUST_A 64500:1; " +
        "line 2: write the VRF's name and its route distinguisher, e.g. CUST_A 64500:1",
    );
    const view = {
      ...router,
      role: "edge",
      vendor: "",
      exporters: [],
      snmp: null,
      ssh: null,
      vrfs: [
        { name: "CUST_A", rd: "64500:1" },
        { name: "CUST_B", rd: "192.0.2.1:7" },
      ],
    } as unknown as Parameters<typeof routerValues>[0];
    expect(routerValues(view).vrfs).toBe("CUST_A 64500:1\nCUST_B 192.0.2.1:7");
  });

  it("show the schema's refusals on the VRFs field, by VRF", () => {
    expect(
      formErrors(
        [
          { path: "vrfs[1].rd", message: '"x" is not a route distinguisher' },
          { path: "vrfs[0].name", message: "must not be empty" },
        ],
        ROUTER_FIELDS,
      ),
    ).toEqual({ vrfs: 'VRF 2: "x" is not a route distinguisher; VRF 1: must not be empty' });
  });
});
