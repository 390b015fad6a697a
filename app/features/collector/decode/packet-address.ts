/**
 * Addresses as they sit in packets and datagrams (network byte order) → the text DecodedFlow
 * carries. IPv6 text is the RFC 5952 form of app/lib/ip's formatIpv6 (so a decoded address reads
 * the same as one typed into a filter), written here from the 16-bit groups without BigInt: it runs
 * twice per IPv6 flow, where BigInt arithmetic cost more than the rest of the decoding.
 */

const GROUPS = new Uint16Array(8);
/** Lower-case hex of every 16-bit group value, bare and after a colon, built on first use (2 × 64k short strings). */
let HEX: string[] = [];
let COLON_HEX: string[] = [];

function tables(): void {
  HEX = Array.from({ length: 65536 }, (_, i) => i.toString(16));
  COLON_HEX = HEX.map((h) => `:${h}`);
}

/** The 4 bytes at `offset` as dotted IPv4; the caller has checked they are present. */
export function ipv4At(bytes: Uint8Array, offset: number): string {
  return `${bytes[offset]}.${bytes[offset + 1]}.${bytes[offset + 2]}.${bytes[offset + 3]}`;
}

/** The 16 bytes at `offset` as RFC 5952 IPv6; the caller has checked they are present. */
export function ipv6At(bytes: Uint8Array, offset: number): string {
  for (let i = 0; i < 8; i++) GROUPS[i] = (bytes[offset + 2 * i] << 8) | bytes[offset + 2 * i + 1];
  return groupsText();
}

/** The 16 bytes at `offset` of a DataView as RFC 5952 IPv6; the caller has checked they are present. */
export function ipv6AtView(view: DataView, offset: number): string {
  for (let i = 0; i < 8; i++) GROUPS[i] = view.getUint16(offset + 2 * i);
  return groupsText();
}

function groupsText(): string {
  const g = GROUPS;
  // IPv4-mapped addresses keep their dotted tail, as ClickHouse writes them (and formatIpv6).
  if (g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff)
    return `::ffff:${g[6] >>> 8}.${g[6] & 255}.${g[7] >>> 8}.${g[7] & 255}`;
  // The longest run of two or more zero groups, the first of equal ones, becomes "::".
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  if (HEX.length === 0) tables();
  if (bestStart < 0)
    return (
      HEX[g[0]] +
      COLON_HEX[g[1]] +
      COLON_HEX[g[2]] +
      COLON_HEX[g[3]] +
      COLON_HEX[g[4]] +
      COLON_HEX[g[5]] +
      COLON_HEX[g[6]] +
      COLON_HEX[g[7]]
    );
  let text = bestStart > 0 ? HEX[g[0]] : "";
  for (let i = 1; i < bestStart; i++) text += COLON_HEX[g[i]];
  const after = bestStart + bestLength;
  text += after < 8 ? `::${HEX[g[after]]}` : "::";
  for (let i = after + 1; i < 8; i++) text += COLON_HEX[g[i]];
  return text;
}
