import { Cursor } from "../mrt/cursor";
import { BmpMessageError } from "./errors";

export const BGP_MESSAGE_TYPE = { OPEN: 1, UPDATE: 2, NOTIFICATION: 3, KEEPALIVE: 4, ROUTE_REFRESH: 5 } as const;
const BGP_MESSAGE_NAMES: Record<number, string> = { 1: "OPEN", 2: "UPDATE", 3: "NOTIFICATION", 4: "KEEPALIVE", 5: "ROUTE-REFRESH" };

export function bgpMessageName(type: number): string {
  return BGP_MESSAGE_NAMES[type] ?? `message of type ${type}`;
}

/** A BGP message (RFC 4271 §4.1) inside a BMP message: its type and a cursor over the bytes after its header. */
export function readBgpMessage(cursor: Cursor, what: string): { type: number; body: Cursor } {
  const marker = cursor.bytes(16, `the marker of ${what}`);
  if (!marker.every((b) => b === 0xff)) throw new BmpMessageError(`${what} does not start with the BGP marker (16 bytes 0xff)`);
  const length = cursor.u16(`the length of ${what}`);
  const type = cursor.u8(`the type of ${what}`);
  if (length < 19) throw new BmpMessageError(`${what} has a length of ${length}, below the BGP header's 19 bytes`);
  return { type, body: cursor.slice(length - 19, `${what} (BGP ${bgpMessageName(type)} of ${length} bytes)`) };
}

/** What the station needs from an OPEN message (RFC 4271 §4.2): who, and the capabilities that shape UPDATEs. */
export type OpenMessage = {
  asn: number;
  bgpId: string;
  holdTime: number;
  /** The 4-octet AS number capability (RFC 6793), null without it. */
  as4: number | null;
  /** ADD-PATH capability (RFC 7911) per "afi/safi": 1 receive, 2 send, 3 both. */
  addPath: Map<string, number>;
};

const CAPABILITIES_PARAMETER = 2;
const CAPABILITY = { FOUR_OCTET_AS: 65, ADD_PATH: 69 } as const;

function readCapabilities(value: Cursor, open: OpenMessage): void {
  while (value.remaining > 0) {
    const code = value.u8("a capability code");
    const capability = value.slice(value.u8("a capability length"), `capability ${code}`);
    if (code === CAPABILITY.FOUR_OCTET_AS) open.as4 = capability.u32("the 4-octet AS number");
    if (code === CAPABILITY.ADD_PATH) {
      while (capability.remaining >= 4) {
        const afi = capability.u16("an ADD-PATH AFI");
        const safi = capability.u8("an ADD-PATH SAFI");
        open.addPath.set(`${afi}/${safi}`, capability.u8("an ADD-PATH send/receive value") & 3);
      }
    }
  }
}

/** An OPEN message's body (after the BGP header), with the extended optional parameters of RFC 9072. */
export function readOpen(body: Cursor): OpenMessage {
  const version = body.u8("the BGP version");
  if (version !== 4) throw new BmpMessageError(`the OPEN message is BGP version ${version}, not 4`);
  const asn = body.u16("the OPEN's AS number");
  const holdTime = body.u16("the hold time");
  const bgpId = body.ipv4("the BGP identifier");
  let length = body.u8("the optional parameters length");
  let extended = false;
  if (length === 255 && body.remaining > 0) {
    // RFC 9072: a non-extended parameter type of 255 announces 2-byte lengths.
    const at = body.position;
    if (body.u8() === 255) {
      extended = true;
      length = body.u16("the extended optional parameters length");
    } else {
      body.position = at;
    }
  }
  const parameters = body.slice(length, "the optional parameters");
  const open: OpenMessage = { asn, bgpId, holdTime, as4: null, addPath: new Map() };
  while (parameters.remaining > 0) {
    const type = parameters.u8("an optional parameter type");
    const value = parameters.slice(
      extended ? parameters.u16("a parameter length") : parameters.u8("a parameter length"),
      `parameter ${type}`,
    );
    if (type === CAPABILITIES_PARAMETER) readCapabilities(value, open);
  }
  return open;
}

/**
 * The families whose UPDATEs carry ADD-PATH path identifiers from `sender` to `receiver` (RFC 7911
 * §4: the sender can send and the receiver can receive), as "afi/safi" in their order of the sender's OPEN.
 */
export function addPathFamilies(sender: OpenMessage, receiver: OpenMessage): string[] {
  return [...sender.addPath].filter(([family, mode]) => mode & 2 && (receiver.addPath.get(family) ?? 0) & 1).map(([family]) => family);
}
