/**
 * Builds BMP v3 messages (RFC 7854; Adj-RIB-Out of RFC 8671, Loc-RIB of RFC 9069) byte for byte, so
 * tests send a station or a decoder streams whose content they know.
 *
 * Every builder returns one complete message as a Buffer; concatenate them for a session's stream:
 *
 *   const router = peer({ address: "192.0.2.1", asn: 64501 });
 *   const stream = Buffer.concat([
 *     initiation({ sysName: "edge1" }),
 *     peerUp({ peer: router, localAddress: "192.0.2.254" }),
 *     routeMonitoring({ peer: router, announce: [{ prefix: "198.51.100.0/24", nextHop: "192.0.2.1" }], asPath: [64501, 64496] }),
 *     endOfRib({ peer: router, afi: 1, safi: 1 }),
 *     peerDown({ peer: router, reason: 4 }),
 *     termination(0),
 *   ]);
 *
 * Texts are the ones the decoder prints: route distinguishers "65000:1", "192.0.2.1:1", "4200000000:1"
 * (a leading "2:" forces type 2 for a small AS), communities "a:b", large "a:b:c", extended "RT:…",
 * "SoO:…" or "0x" + 16 hex digits.
 */
import type { RibView } from "~/features/routing/bmp/types";
import { ipBytes, prefixBytes } from "../fixtures/mrt";

const u8 = (n: number) => Buffer.from([n]);
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};
const AS_TRANS = 23456;

// ───────────────────────────── framing and per-peer header ─────────────────────────────

/** A BMP message: the common header (version 3, length, type) before `body`. */
export function bmpMessage(type: number, body: Buffer, options: { version?: number; length?: number } = {}): Buffer {
  return Buffer.concat([u8(options.version ?? 3), u32(options.length ?? body.length + 6), u8(type), body]);
}

/** A BGP message (RFC 4271 §4.1): marker, length, type, body. */
export function bgpMessage(type: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.alloc(16, 0xff), u16(body.length + 19), u8(type), body]);
}

export type PeerTypeName = "global" | "rd" | "local" | "loc-rib";
const PEER_TYPES: Record<PeerTypeName, number> = { global: 0, rd: 1, local: 2, "loc-rib": 3 };

export type PeerOptions = {
  /** Peer type: "global" (0, default), "rd" (1), "local" (2), "loc-rib" (3), or a number. view "loc-rib" implies "loc-rib". */
  type?: PeerTypeName | number;
  /** "post-policy" (L flag, the default), "pre-policy", or "loc-rib". */
  view?: RibView;
  /** Peer distinguisher as route distinguisher text; none by default. */
  rd?: string;
  /** Peer address (IPv6 sets the V flag); "192.0.2.1" by default; a Loc-RIB peer has none. */
  address?: string;
  asn?: number;
  bgpId?: string;
  /** Seconds since the epoch in the per-peer header (1_700_000_000 by default: tests do not depend on the clock). */
  timestamp?: number;
  /** A flag: AS_PATH in 2-byte AS numbers. */
  legacyAsPath?: boolean;
  /** O flag (RFC 8671): the routes are the Adj-RIB-Out. */
  adjRibOut?: boolean;
  /** F flag of a Loc-RIB peer (RFC 9069): the Loc-RIB is filtered. */
  filtered?: boolean;
};

/** A per-peer header's content, every field set. */
export type PeerSpec = Required<Omit<PeerOptions, "type">> & { type: number };

/** The peer of a message: defaults filled in (a Loc-RIB peer gets address ""). Builders also take the options directly. */
export function peer(options: PeerOptions = {}): PeerSpec {
  const typeOption = options.type ?? (options.view === "loc-rib" ? "loc-rib" : "global");
  const type = typeof typeOption === "number" ? typeOption : PEER_TYPES[typeOption];
  const locRib = type === 3;
  const address = locRib ? "" : (options.address ?? "192.0.2.1");
  return {
    type,
    view: locRib ? "loc-rib" : (options.view ?? "post-policy"),
    rd: options.rd ?? "",
    address,
    asn: options.asn ?? 64500,
    bgpId: options.bgpId ?? (address.includes(".") ? address : "192.0.2.1"),
    timestamp: options.timestamp ?? 1_700_000_000,
    legacyAsPath: options.legacyAsPath ?? false,
    adjRibOut: options.adjRibOut ?? false,
    filtered: options.filtered ?? false,
  };
}

/** peer() of a PeerSpec is that PeerSpec: builders take either. */
const resolve = (p: PeerSpec | PeerOptions | undefined): PeerSpec => peer(p);

/** The 42-byte per-peer header (RFC 7854 §4.2, RFC 9069 §4.1). */
export function peerHeader(options: PeerSpec | PeerOptions = {}): Buffer {
  const p = resolve(options);
  let flags = 0;
  if (p.type === 3) {
    if (p.filtered) flags |= 0x80;
  } else {
    if (p.address.includes(":")) flags |= 0x80;
    if (p.view === "post-policy") flags |= 0x40;
    if (p.legacyAsPath) flags |= 0x20;
    if (p.adjRibOut) flags |= 0x10;
  }
  const address = Buffer.alloc(16);
  if (p.address) {
    const bytes = ipBytes(p.address);
    bytes.copy(address, 16 - bytes.length);
  }
  return Buffer.concat([u8(p.type), u8(flags), routeDistinguisher(p.rd), address, u32(p.asn), ipBytes(p.bgpId), u32(p.timestamp), u32(0)]);
}

/** 8 bytes of a route distinguisher from its text: "65000:1" (type 0), "192.0.2.1:1" (1), "4200000000:1" or "2:65000:1" (2); "" is all zero. */
export function routeDistinguisher(text: string): Buffer {
  if (!text) return Buffer.alloc(8);
  const parts = text.split(":");
  if (parts.length === 3) {
    const [type, admin, assigned] = parts.map(Number);
    if (type === 0) return Buffer.concat([u16(0), u16(admin), u32(assigned)]);
    if (type === 2) return Buffer.concat([u16(2), u32(admin), u16(assigned)]);
  }
  if (parts.length !== 2) throw new Error(`bad route distinguisher ${text}`);
  const [admin, assigned] = parts;
  if (admin.includes(".")) return Buffer.concat([u16(1), ipBytes(admin), u16(Number(assigned))]);
  const asn = Number(admin);
  return asn > 0xffff ? Buffer.concat([u16(2), u32(asn), u16(Number(assigned))]) : Buffer.concat([u16(0), u16(asn), u32(Number(assigned))]);
}

// ───────────────────────────── Initiation, Termination, Peer Up/Down ─────────────────────────────

function tlv(type: number, value: Buffer | string): Buffer {
  const bytes = typeof value === "string" ? Buffer.from(value, "utf8") : value;
  return Buffer.concat([u16(type), u16(bytes.length), bytes]);
}

export type Information = { sysDescr?: string; sysName?: string; strings?: string[]; vrfTableName?: string };

function informationTlvs(info: Information = {}): Buffer {
  const parts: Buffer[] = [];
  for (const s of info.strings ?? []) parts.push(tlv(0, s));
  if (info.sysDescr !== undefined) parts.push(tlv(1, info.sysDescr));
  if (info.sysName !== undefined) parts.push(tlv(2, info.sysName));
  if (info.vrfTableName !== undefined) parts.push(tlv(3, info.vrfTableName));
  return Buffer.concat(parts);
}

/** Initiation (type 4): sysDescr, sysName and string TLVs. */
export function initiation(info: Information = { sysDescr: "Test router", sysName: "router1" }): Buffer {
  return bmpMessage(4, informationTlvs(info));
}

/** Termination (type 5): the reason (0 administratively closed … 4) and string TLVs. */
export function termination(reason = 0, info: { strings?: string[] } = {}): Buffer {
  return bmpMessage(5, Buffer.concat([...(info.strings ?? []).map((s) => tlv(0, s)), tlv(1, u16(reason))]));
}

type AddPathMode = "receive" | "send" | "both";
const ADD_PATH_MODES: Record<AddPathMode, number> = { receive: 1, send: 2, both: 3 };

/** An OPEN message with the 4-octet AS, multiprotocol and ADD-PATH capabilities. */
export function openMessage(options: {
  asn: number;
  bgpId: string;
  holdTime?: number;
  fourByteAsn?: boolean;
  /** ADD-PATH per "afi/safi". */
  addPath?: Record<string, AddPathMode>;
  families?: string[];
  /** Optional parameters in the extended form of RFC 9072. */
  extendedParameters?: boolean;
}): Buffer {
  const capabilities: Buffer[] = [];
  for (const family of options.families ?? ["1/1", "2/1"]) {
    const [afi, safi] = family.split("/").map(Number);
    capabilities.push(Buffer.concat([u8(1), u8(4), u16(afi), u8(0), u8(safi)]));
  }
  if (options.fourByteAsn ?? true) capabilities.push(Buffer.concat([u8(65), u8(4), u32(options.asn)]));
  const addPath = Object.entries(options.addPath ?? {});
  if (addPath.length) {
    const value = Buffer.concat(
      addPath.map(([family, mode]) => {
        const [afi, safi] = family.split("/").map(Number);
        return Buffer.concat([u16(afi), u8(safi), u8(ADD_PATH_MODES[mode])]);
      }),
    );
    capabilities.push(Buffer.concat([u8(69), u8(value.length), value]));
  }
  const caps = Buffer.concat(capabilities);
  const parameters = options.extendedParameters
    ? Buffer.concat([u8(255), u8(255), u16(caps.length + 3), u8(2), u16(caps.length), caps])
    : Buffer.concat([u8(caps.length + 2), u8(2), u8(caps.length), caps]);
  const myAs = options.asn > 0xffff ? AS_TRANS : options.asn;
  return bgpMessage(1, Buffer.concat([u8(4), u16(myAs), u16(options.holdTime ?? 90), ipBytes(options.bgpId), parameters]));
}

/**
 * Peer Up (type 3). `addPath` lists the families ("1/1", "2/128" …) both OPENs advertise ADD-PATH
 * send and receive for; `addPathModes` sets each OPEN's advertisement instead (RFC 7911 negotiation).
 * `fourByteAsn` (default true) puts the 4-octet AS capability in both OPENs.
 */
export function peerUp(options: {
  peer?: PeerSpec | PeerOptions;
  localAddress?: string;
  ports?: { local: number; remote: number };
  addPath?: string[];
  addPathModes?: { sent?: Record<string, AddPathMode>; received?: Record<string, AddPathMode> };
  fourByteAsn?: boolean;
  localAsn?: number;
  localBgpId?: string;
  extendedParameters?: boolean;
  information?: Information;
}): Buffer {
  const p = resolve(options.peer);
  const both = Object.fromEntries((options.addPath ?? []).map((f) => [f, "both" as const]));
  const localAsn = options.localAsn ?? (p.type === 3 ? p.asn : 64496);
  const localBgpId = options.localBgpId ?? (p.type === 3 ? p.bgpId : "192.0.2.254");
  const sent = openMessage({
    asn: localAsn,
    bgpId: localBgpId,
    fourByteAsn: options.fourByteAsn,
    addPath: options.addPathModes?.sent ?? both,
    extendedParameters: options.extendedParameters,
  });
  // RFC 9069 §5.2: a Loc-RIB instance's received OPEN repeats its sent OPEN.
  const received =
    p.type === 3
      ? sent
      : openMessage({
          asn: p.asn,
          bgpId: p.bgpId,
          fourByteAsn: options.fourByteAsn,
          addPath: options.addPathModes?.received ?? both,
          extendedParameters: options.extendedParameters,
        });
  const local = Buffer.alloc(16);
  const localAddress = options.localAddress ?? (p.type === 3 ? "" : p.address.includes(":") ? "2001:db8::fe" : "192.0.2.254");
  if (localAddress) {
    const bytes = ipBytes(localAddress);
    bytes.copy(local, 16 - bytes.length);
  }
  const ports = options.ports ?? (p.type === 3 ? { local: 0, remote: 0 } : { local: 179, remote: 50000 });
  return bmpMessage(
    3,
    Buffer.concat([peerHeader(p), local, u16(ports.local), u16(ports.remote), sent, received, informationTlvs(options.information)]),
  );
}

/**
 * Peer Down (type 2). Reasons 1 and 3 carry a NOTIFICATION (default Cease / Administrative Shutdown,
 * with an optional shutdown message), 2 an FSM event, 6 (Loc-RIB) information TLVs; 4 and 5 nothing.
 */
export function peerDown(options: {
  peer?: PeerSpec | PeerOptions;
  reason: number;
  notification?: { code: number; subcode: number; message?: string };
  fsmEvent?: number;
  information?: Information;
}): Buffer {
  let data: Buffer = Buffer.alloc(0);
  if (options.reason === 1 || options.reason === 3) {
    const n = options.notification ?? { code: 6, subcode: 2 };
    const text = n.message === undefined ? Buffer.alloc(0) : Buffer.from(n.message, "utf8");
    data = bgpMessage(3, Buffer.concat([u8(n.code), u8(n.subcode), ...(n.message === undefined ? [] : [u8(text.length), text])]));
  } else if (options.reason === 2) {
    data = u16(options.fsmEvent ?? 0);
  } else if (options.reason === 6) {
    data = informationTlvs(options.information);
  }
  return bmpMessage(2, Buffer.concat([peerHeader(resolve(options.peer)), u8(options.reason), data]));
}

// ───────────────────────────── Route Monitoring ─────────────────────────────

/** A route of an announcement or withdrawal. SAFI: `safi`, else 128 with `rd`, 4 with `labels`, else 1. */
export type RouteSpec = {
  prefix: string;
  rd?: string;
  pathId?: number;
  labels?: number[];
  nextHop?: string;
  safi?: number;
};

function familyOf(route: RouteSpec): { afi: 1 | 2; safi: number } {
  const afi = route.prefix.includes(":") ? 2 : 1;
  const safi = route.safi ?? (route.rd !== undefined ? 128 : route.labels ? 4 : 1);
  return { afi, safi };
}

/** A route's NLRI bytes: [path id] length, [labels], [RD], prefix bytes. */
function nlriBytes(route: RouteSpec, safi: number, addPath: boolean, withdrawal: boolean): Buffer {
  const prefix = prefixBytes(route.prefix);
  const bits = prefix[0];
  const parts: Buffer[] = [];
  let extraBits = 0;
  if (safi === 4 || safi === 128) {
    // A withdrawal carries the RFC 3107 withdraw label 0x800000; an announcement its stack, bottom-of-stack on the last.
    const labels = withdrawal ? null : (route.labels ?? [16]);
    const stack = labels
      ? labels.map((label, i) => {
          const v = (label << 4) | (i === labels.length - 1 ? 1 : 0);
          return Buffer.from([(v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff]);
        })
      : [Buffer.from([0x80, 0, 0])];
    parts.push(...stack);
    extraBits += 24 * stack.length;
    if (safi === 128) {
      parts.push(routeDistinguisher(route.rd ?? ""));
      extraBits += 64;
    }
  }
  return Buffer.concat([addPath ? u32(route.pathId ?? 0) : Buffer.alloc(0), u8(bits + extraBits), ...parts, prefix.subarray(1)]);
}

function attribute(type: number, value: Buffer, flags = 0x40): Buffer {
  return value.length > 255
    ? Buffer.concat([u8(flags | 0x10), u8(type), u16(value.length), value])
    : Buffer.concat([u8(flags), u8(type), u8(value.length), value]);
}

function asPathBytes(segments: { type: number; asns: number[] }[], width: 2 | 4): Buffer {
  return Buffer.concat(
    segments.map((s) => Buffer.concat([u8(s.type), u8(s.asns.length), ...s.asns.map((a) => (width === 4 ? u32(a) : u16(a)))])),
  );
}

/** An extended community from its text ("RT:64497:42", "SoO:192.0.2.1:5", "RT:4200000000:5", "0x…") or its 8 bytes. */
export function extendedCommunity(value: string | Buffer): Buffer {
  if (Buffer.isBuffer(value)) return value;
  if (value.startsWith("0x")) return Buffer.from(value.slice(2), "hex");
  const [name, admin, assigned] = value.split(":");
  const subtype = name === "RT" ? 2 : name === "SoO" ? 3 : null;
  if (subtype === null || assigned === undefined) throw new Error(`bad extended community ${value}`);
  if (admin.includes(".")) return Buffer.concat([u8(1), u8(subtype), ipBytes(admin), u16(Number(assigned))]);
  const asn = Number(admin);
  return asn > 0xffff
    ? Buffer.concat([u8(2), u8(subtype), u32(asn), u16(Number(assigned))])
    : Buffer.concat([u8(0), u8(subtype), u16(asn), u32(Number(assigned))]);
}

/** The MP next hop of a family: the address (IPv4 in IPv6 families IPv4-mapped), after a zero RD for L3VPN. */
function mpNextHop(afi: number, safi: number, nextHop: string): Buffer {
  let address = ipBytes(nextHop);
  if (afi === 2 && address.length === 4) address = Buffer.concat([Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]), address]);
  return safi === 128 ? Buffer.concat([Buffer.alloc(8), address]) : address;
}

export type UpdateOptions = {
  announce?: RouteSpec[];
  withdraw?: RouteSpec[];
  /** One AS_SEQUENCE. */
  asPath?: number[];
  /** An AS_SET after the sequence. */
  asSet?: number[];
  origin?: "IGP" | "EGP" | "INCOMPLETE";
  localPref?: number;
  med?: number;
  communities?: string[];
  largeCommunities?: string[];
  extendedCommunities?: (string | Buffer)[];
  originatorId?: string;
  atomicAggregate?: boolean;
  aggregator?: { asn: number; address: string };
  /**
   * AS numbers of AS_PATH in 4 bytes (default: the peer's A flag clear). With 2 bytes, ASes above
   * 65535 are written AS_TRANS and an AS4_PATH carries the real path (RFC 6793 §4.2.2).
   */
  fourByteAsn?: boolean;
  /** IPv4 unicast routes in the UPDATE's body (default) or in MP_REACH_NLRI / MP_UNREACH_NLRI. */
  ipv4InBody?: boolean;
  /** Raw attributes appended after the built ones. */
  extraAttributes?: Buffer;
};

const ORIGIN_CODES = { IGP: 0, EGP: 1, INCOMPLETE: 2 } as const;

function groupByFamily(routes: RouteSpec[], ipv4InBody: boolean) {
  const body: RouteSpec[] = [];
  const mp = new Map<string, RouteSpec[]>();
  for (const route of routes) {
    const { afi, safi } = familyOf(route);
    if (afi === 1 && safi === 1 && ipv4InBody) body.push(route);
    else mp.set(`${afi}/${safi}`, [...(mp.get(`${afi}/${safi}`) ?? []), route]);
  }
  if (mp.size > 1) throw new Error(`one UPDATE carries one MP family, not ${[...mp.keys()].join(", ")}`);
  for (const group of [body, ...mp.values()]) {
    const nextHops = new Set(group.map((r) => r.nextHop));
    if (nextHops.size > 1) throw new Error(`the routes of one family in one UPDATE share a next hop, not ${[...nextHops].join(", ")}`);
  }
  const [family, mpRoutes] = [...mp][0] ?? [null, []];
  return { body, family, mpRoutes };
}

/** The body of a BGP UPDATE (withdrawn routes, path attributes, NLRI) as a router sends it. */
export function bgpUpdate(options: UpdateOptions & { defaultFourByteAsn?: boolean }): Buffer {
  const ipv4InBody = options.ipv4InBody ?? true;
  const announce = groupByFamily(options.announce ?? [], ipv4InBody);
  const withdraw = groupByFamily(options.withdraw ?? [], ipv4InBody);
  const addPathOf = (routes: RouteSpec[]) => routes.some((r) => r.pathId !== undefined);
  const fourByte = options.fourByteAsn ?? options.defaultFourByteAsn ?? true;

  const attrs: Buffer[] = [];
  const announcing = (options.announce ?? []).length > 0;
  if (announcing || options.origin) attrs.push(attribute(1, u8(ORIGIN_CODES[options.origin ?? "IGP"])));
  if (announcing || options.asPath) {
    const segments = [
      ...(options.asPath?.length ? [{ type: 2, asns: options.asPath }] : []),
      ...(options.asSet?.length ? [{ type: 1, asns: options.asSet }] : []),
    ];
    if (fourByte) attrs.push(attribute(2, asPathBytes(segments, 4)));
    else {
      const trans = segments.map((s) => ({ type: s.type, asns: s.asns.map((a) => (a > 0xffff ? AS_TRANS : a)) }));
      attrs.push(attribute(2, asPathBytes(trans, 2)));
      if (segments.some((s) => s.asns.some((a) => a > 0xffff))) attrs.push(attribute(17, asPathBytes(segments, 4), 0xc0));
    }
  }
  if (announce.body.length) attrs.push(attribute(3, ipBytes(announce.body[0].nextHop ?? "192.0.2.254")));
  if (options.med !== undefined) attrs.push(attribute(4, u32(options.med), 0x80));
  if (options.localPref !== undefined) attrs.push(attribute(5, u32(options.localPref)));
  if (options.atomicAggregate) attrs.push(attribute(6, Buffer.alloc(0)));
  if (options.aggregator) {
    const asn = options.aggregator.asn;
    attrs.push(
      attribute(7, Buffer.concat([fourByte ? u32(asn) : u16(asn > 0xffff ? AS_TRANS : asn), ipBytes(options.aggregator.address)]), 0xc0),
    );
  }
  if (options.communities?.length) {
    attrs.push(attribute(8, Buffer.concat(options.communities.flatMap((c) => c.split(":").map((n) => u16(Number(n))))), 0xc0));
  }
  if (options.originatorId) attrs.push(attribute(9, ipBytes(options.originatorId), 0x80));
  if (announce.family) {
    const [afi, safi] = announce.family.split("/").map(Number);
    const nextHop = mpNextHop(afi, safi, announce.mpRoutes[0].nextHop ?? (afi === 1 ? "192.0.2.254" : "2001:db8::fe"));
    const addPath = addPathOf(announce.mpRoutes);
    attrs.push(
      attribute(
        14,
        Buffer.concat([
          u16(afi),
          u8(safi),
          u8(nextHop.length),
          nextHop,
          u8(0),
          ...announce.mpRoutes.map((r) => nlriBytes(r, safi, addPath, false)),
        ]),
        0x80,
      ),
    );
  }
  if (withdraw.family) {
    const [afi, safi] = withdraw.family.split("/").map(Number);
    const addPath = addPathOf(withdraw.mpRoutes);
    attrs.push(
      attribute(15, Buffer.concat([u16(afi), u8(safi), ...withdraw.mpRoutes.map((r) => nlriBytes(r, safi, addPath, true))]), 0x80),
    );
  }
  if (options.extendedCommunities?.length)
    attrs.push(attribute(16, Buffer.concat(options.extendedCommunities.map(extendedCommunity)), 0xc0));
  if (options.largeCommunities?.length) {
    attrs.push(attribute(32, Buffer.concat(options.largeCommunities.flatMap((c) => c.split(":").map((n) => u32(Number(n))))), 0xc0));
  }
  if (options.extraAttributes) attrs.push(options.extraAttributes);

  const attributes = Buffer.concat(attrs);
  const withdrawn = Buffer.concat(withdraw.body.map((r) => nlriBytes(r, 1, addPathOf(withdraw.body), true)));
  const nlri = Buffer.concat(announce.body.map((r) => nlriBytes(r, 1, addPathOf(announce.body), false)));
  return Buffer.concat([u16(withdrawn.length), withdrawn, u16(attributes.length), attributes, nlri]);
}

/**
 * Route Monitoring (type 0) with one UPDATE: announcements and withdrawals (IPv4 unicast in the body,
 * other families through MP_REACH / MP_UNREACH: one MP family per UPDATE), path ids when a route of
 * the family has `pathId`, the attributes given (origin IGP and an empty AS path by default).
 */
export function routeMonitoring(options: UpdateOptions & { peer?: PeerSpec | PeerOptions }): Buffer {
  const p = resolve(options.peer);
  return routeMonitoringRaw({ peer: p, message: bgpMessage(2, bgpUpdate({ ...options, defaultFourByteAsn: !p.legacyAsPath })) });
}

/** Route Monitoring around any BGP message bytes (a malformed UPDATE, a NOTIFICATION …). */
export function routeMonitoringRaw(options: { peer?: PeerSpec | PeerOptions; message: Buffer }): Buffer {
  return bmpMessage(0, Buffer.concat([peerHeader(resolve(options.peer)), options.message]));
}

/** End-of-RIB (RFC 4724 §2): an empty UPDATE for IPv4 unicast, an MP_UNREACH_NLRI without routes for others. */
export function endOfRib(options: { peer?: PeerSpec | PeerOptions; afi: number; safi: number }): Buffer {
  const update =
    options.afi === 1 && options.safi === 1
      ? Buffer.concat([u16(0), u16(0)])
      : (() => {
          const attr = attribute(15, Buffer.concat([u16(options.afi), u8(options.safi)]), 0x80);
          return Buffer.concat([u16(0), u16(attr.length), attr]);
        })();
  return routeMonitoringRaw({ peer: options.peer, message: bgpMessage(2, update) });
}

/**
 * An EVPN route (AFI 25, SAFI 70; RFC 7432 type 2 MAC/IP advertisement): a family the station
 * counts and skips. `withdraw` sends it in MP_UNREACH_NLRI instead.
 */
export function evpnRoute(options: {
  peer?: PeerSpec | PeerOptions;
  rd?: string;
  mac?: string;
  ip?: string;
  label?: number;
  nextHop?: string;
  asPath?: number[];
  withdraw?: boolean;
}): Buffer {
  const mac = Buffer.from((options.mac ?? "02:00:00:00:00:01").split(":").map((h) => parseInt(h, 16)));
  const ip = options.ip ? ipBytes(options.ip) : Buffer.alloc(0);
  const label = (options.label ?? 100) << 4;
  const route = Buffer.concat([
    routeDistinguisher(options.rd ?? "64500:1"),
    Buffer.alloc(10), // Ethernet segment identifier
    u32(0), // Ethernet tag
    u8(48),
    mac,
    u8(ip.length * 8),
    ip,
    Buffer.from([(label >> 16) & 0xff, (label >> 8) & 0xff, (label & 0xf0) | 1]),
  ]);
  const nlri = Buffer.concat([u8(2), u8(route.length), route]);
  const p = resolve(options.peer);
  const attrs = options.withdraw
    ? attribute(15, Buffer.concat([u16(25), u8(70), nlri]), 0x80)
    : Buffer.concat([
        attribute(1, u8(0)),
        attribute(2, asPathBytes([{ type: 2, asns: options.asPath ?? [p.asn] }], 4)),
        (() => {
          const nh = ipBytes(options.nextHop ?? "192.0.2.254");
          return attribute(14, Buffer.concat([u16(25), u8(70), u8(nh.length), nh, u8(0), nlri]), 0x80);
        })(),
      ]);
  return routeMonitoringRaw({ peer: p, message: bgpMessage(2, Buffer.concat([u16(0), u16(attrs.length), attrs])) });
}

// ───────────────────────────── Statistics, Route Mirroring ─────────────────────────────

const COUNTER_TYPES = new Set([0, 1, 2, 3, 4, 5, 6, 11, 12, 13]);
const PER_FAMILY_TYPES = new Set([9, 10, 16, 17]);

/**
 * Statistics Report (type 1): counters (types 0–6, 11–13) in 4 bytes, gauges (7, 8, 14, 15) in 8,
 * per-family gauges (9, 10, 16, 17) with their AFI/SAFI (IPv4 unicast by default); `bytes` forces a width.
 */
export function statisticsReport(options: {
  peer?: PeerSpec | PeerOptions;
  statistics: { type: number; value: number; afi?: number; safi?: number; bytes?: 4 | 8 }[];
}): Buffer {
  const stats = options.statistics.map((s) => {
    const value = PER_FAMILY_TYPES.has(s.type)
      ? Buffer.concat([u16(s.afi ?? 1), u8(s.safi ?? 1), u64(s.value)])
      : (s.bytes ?? (COUNTER_TYPES.has(s.type) ? 4 : 8)) === 4
        ? u32(s.value)
        : u64(s.value);
    return Buffer.concat([u16(s.type), u16(value.length), value]);
  });
  return bmpMessage(1, Buffer.concat([peerHeader(resolve(options.peer)), u32(stats.length), ...stats]));
}

/** Route Mirroring (type 6): a BGP message TLV (a KEEPALIVE by default) and a "messages lost" information TLV. */
export function routeMirroring(options: { peer?: PeerSpec | PeerOptions; message?: Buffer } = {}): Buffer {
  return bmpMessage(
    6,
    Buffer.concat([peerHeader(resolve(options.peer)), tlv(0, options.message ?? bgpMessage(4, Buffer.alloc(0))), tlv(1, u16(1))]),
  );
}

// ───────────────────────────── A full table, for benchmarks ─────────────────────────────

export type FullTableOptions = {
  peer?: PeerSpec | PeerOptions;
  /** Prefixes per UPDATE sharing one set of attributes (8 by default; a full table averages a few). */
  prefixesPerUpdate?: number;
  /** "ipv4": distinct /24s from 1.0.0.0 (up to 16.7 M); "ipv6": distinct /48s from 2400::. */
  family?: "ipv4" | "ipv6";
  /** Start at the n-th prefix (to split a table between sessions or runs). */
  offset?: number;
};

/** Deterministic pseudo-random numbers (a tiny LCG), so a table is the same on every run. */
function lcg(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
}

/** The n-th prefix of a generated table. */
export function fullTablePrefix(n: number, family: "ipv4" | "ipv6" = "ipv4"): string {
  const bytes = fullTableNlri(n, family);
  if (family === "ipv4") return `${bytes[1]}.${bytes[2]}.${bytes[3]}.0/24`;
  const groups = [bytes.readUInt16BE(1), bytes.readUInt16BE(3), bytes.readUInt16BE(5)].map((g) => g.toString(16));
  while (groups.length > 1 && groups[groups.length - 1] === "0") groups.pop();
  return `${groups.join(":")}::/48`;
}

/** The NLRI bytes of the n-th prefix: a /24 from 1.0.0.0 on, or a /48 from 2400::/12 on. */
function fullTableNlri(n: number, family: "ipv4" | "ipv6"): Buffer {
  if (family === "ipv4") {
    if (n >= 255 << 16) throw new Error(`a generated IPv4 table has at most ${255 << 16} /24s`);
    return Buffer.from([24, 1 + (n >>> 16), (n >>> 8) & 255, n & 255]);
  }
  if (n >= 2 ** 32) throw new Error("a generated IPv6 table has at most 2^32 /48s");
  const out = Buffer.from([48, 0x24, 0, 0, 0, 0, 0]);
  out.writeUInt32BE(n, 3);
  return out;
}

/**
 * Route Monitoring messages announcing `count` distinct prefixes of a made-up full table, several per
 * UPDATE with shared attributes (AS paths of 2–6 ASes with 4-byte ones among them, communities on
 * some, MED on some), as routers pack them. Yields one message at a time, built straight from the
 * prefix numbers (fast enough not to weigh on a benchmark): memory stays flat.
 */
export function* fullTableUpdates(count: number, options: FullTableOptions = {}): Generator<Buffer> {
  const p = resolve(options.peer);
  const family = options.family ?? "ipv4";
  const perUpdate = Math.max(1, options.prefixesPerUpdate ?? 8);
  const offset = options.offset ?? 0;
  const random = lcg(offset + 1);
  const header = peerHeader(p);
  const nextHop = ipBytes(
    family === "ipv4" ? (p.address.includes(".") ? p.address : "192.0.2.1") : p.address.includes(":") ? p.address : "2001:db8::1",
  );
  const width = p.legacyAsPath ? 2 : 4;
  for (let first = 0; first < count; first += perUpdate) {
    const size = Math.min(perUpdate, count - first);
    const r = random();
    const pathLength = 2 + (r % 5);
    const asPath = [p.asn];
    for (let i = 1; i < pathLength; i++)
      asPath.push(i === pathLength - 1 && r % 3 === 0 ? 200_000 + (random() % 100_000) : 1 + (random() % 64_000));
    const nlri = Buffer.concat(Array.from({ length: size }, (_, i) => fullTableNlri(offset + first + i, family)));
    const attrs = [
      attribute(1, u8(0)),
      attribute(2, asPathBytes([{ type: 2, asns: width === 4 ? asPath : asPath.map((a) => (a > 0xffff ? AS_TRANS : a)) }], width)),
    ];
    if (family === "ipv4") attrs.push(attribute(3, nextHop));
    if (r % 4 === 0) attrs.push(attribute(4, u32(r % 1000), 0x80));
    if (r % 2 === 0)
      attrs.push(attribute(8, Buffer.concat([u16(p.asn & 0xffff), u16(r % 1000), u16(p.asn & 0xffff), u16(3000 + (r % 7))]), 0xc0));
    if (family === "ipv6") attrs.push(attribute(14, Buffer.concat([u16(2), u8(1), u8(nextHop.length), nextHop, u8(0), nlri]), 0x80));
    const attributes = Buffer.concat(attrs);
    const update = Buffer.concat([u16(0), u16(attributes.length), attributes, family === "ipv4" ? nlri : Buffer.alloc(0)]);
    yield bmpMessage(0, Buffer.concat([header, bgpMessage(2, update)]));
  }
}
