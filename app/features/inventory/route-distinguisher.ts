/**
 * Route distinguishers (RFC 4364 §4.2) as people type them for a router's VRFs, read into the
 * spelling the routing history stores (features/routing/mrt/nlri.ts routeDistinguisherText), so a
 * VRF of the inventory finds its table in rib_entries whatever was typed:
 *
 * - type 0, a 2-byte AS and a 4-byte number: `64500:1` (`64500:4294967295` at most);
 * - type 1, an IPv4 address and a 2-byte number: `192.0.2.1:7`;
 * - type 2, a 4-byte AS and a 2-byte number: `4200000000:7`, the AS in asdot (`64086.59904:7`), or
 *   with an `L` (`64500L:7`) to say type 2 for a small AS as some routers print it.
 *
 * A plain `ASN:n` is type 0 when the AS fits 2 bytes, else type 2. The all-zero value is the
 * global table, not a VRF's, and is refused. Pure and isomorphic.
 */

export type RouteDistinguisher = {
  type: 0 | 1 | 2;
  /** The administrator: an AS number or an IPv4 address. */
  administrator: string;
  assigned: number;
  /** As rib_entries stores it: `64500:1`, `192.0.2.1:7`, `4200000000:7`. */
  text: string;
};

const U16 = 0xffff;
const U32 = 0xffffffff;

const EXAMPLES = "e.g. 64500:1 (AS:number), 192.0.2.1:7 (IPv4 address:number) or 4200000000:7 (4-byte AS:number)";

const digits = (s: string) => /^\d{1,10}$/.test(s);

function ipv4(text: string): string | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.map(Number).join(".");
}

/** A route distinguisher, or the reason it is none (a sentence that names what was typed). */
export function parseRouteDistinguisher(input: string): { ok: true; rd: RouteDistinguisher } | { ok: false; error: string } {
  const raw = input.trim();
  const fail = (why: string) => ({ ok: false as const, error: `"${raw}" is not a route distinguisher: ${why}` });
  if (!raw) return { ok: false, error: `a route distinguisher is required, ${EXAMPLES}` };
  const colon = raw.lastIndexOf(":");
  if (colon < 0) return fail(`write the administrator and the assigned number with a colon, ${EXAMPLES}`);
  const admin = raw.slice(0, colon);
  const number = raw.slice(colon + 1);
  if (!digits(number)) return fail("the part after the colon must be a whole number");
  const assigned = Number(number);
  if (assigned > U32) return fail(`the assigned number must be at most ${U32}`);

  const make = (type: 0 | 1 | 2, administrator: string): { ok: true; rd: RouteDistinguisher } | { ok: false; error: string } => {
    if (type !== 0 && assigned > U16)
      return fail(
        type === 1
          ? `with an IPv4 address (type 1) the assigned number must be at most ${U16}`
          : `with a 4-byte AS (type 2) the assigned number must be at most ${U16}`,
      );
    if (type === 0 && administrator === "0" && assigned === 0) return fail("0:0 is the global table, not a VRF's");
    if (type === 1 && administrator === "0.0.0.0" && assigned === 0) return fail("0.0.0.0:0 is the global table, not a VRF's");
    return { ok: true, rd: { type, administrator, assigned, text: `${administrator}:${assigned}` } };
  };

  if (admin.includes(".") && admin.split(".").length === 4) {
    const address = ipv4(admin);
    if (!address) return fail("the administrator is not an IPv4 address");
    return make(1, address);
  }
  const long = /^(.*)L$/i.exec(admin);
  const asText = long ? long[1] : admin;
  let asn: number;
  const asdot = /^(\d{1,5})\.(\d{1,5})$/.exec(asText);
  if (asdot) {
    const [high, low] = [Number(asdot[1]), Number(asdot[2])];
    if (high > U16 || low > U16) return fail("an AS in asdot form is two numbers of at most 65535");
    asn = high * 65536 + low;
  } else if (digits(asText)) {
    asn = Number(asText);
  } else {
    return fail(`the administrator must be an AS number or an IPv4 address, ${EXAMPLES}`);
  }
  if (asn > U32) return fail(`an AS number is at most ${U32}`);
  if (long || asdot || asn > U16) return make(2, String(asn));
  return make(0, String(asn));
}
