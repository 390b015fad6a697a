/**
 * What people read on the Data sources page and in the collector's notifications instead of the
 * codes the collector stores: protocols, listener components, decode error and drop reasons,
 * counts with thousands separators. Pure and isomorphic.
 */
import { DROP_REASON_LABELS } from "../drop-reasons";

export const PROTOCOL_LABELS: Record<string, string> = {
  netflow5: "NetFlow v5",
  netflow9: "NetFlow v9",
  ipfix: "IPFIX",
  sflow5: "sFlow v5",
  // Datagrams of no flow format (the decoder could not tell the version) are counted under this protocol.
  unknown: "Not a flow protocol",
};

export const COMPONENT_LABELS: Record<string, string> = {
  "flows-netflow": "NetFlow v5/v9 and IPFIX",
  "flows-sflow": "sFlow v5",
  bmp: "BMP station",
};

/** The listen variable of each collector component, named by the empty state. */
export const COMPONENT_VARIABLES: Record<string, string> = {
  "flows-netflow": "FLOWS_NETFLOW_LISTEN",
  "flows-sflow": "FLOWS_SFLOW_LISTEN",
};

/** The decoders' problem reasons (decode/flow-record.ts DecodeErrorReason). */
export const DECODE_ERROR_LABELS: Record<string, string> = {
  truncated: "Truncated datagram",
  "unknown-version": "Unknown protocol version",
  "bad-header": "Malformed header",
  "bad-set": "Malformed flow set",
  "bad-template": "Malformed template",
  "bad-record": "Malformed record",
  unsupported: "Unsupported content",
  // Sampled packet headers (decode/packet-header.ts HEADER_STOP_REASONS): the flow is kept, these count what it lacks.
  header_truncated: "Sampled header cut short",
  header_malformed: "Malformed sampled header",
  header_unsupported: "Unsupported sampled header layer",
  header_not_ip: "Sampled frame not IP",
  header_too_deep: "Sampled header nested too deep",
  "unknown-element": "Information element not decoded (skipped)",
  "bad-element": "Information element of a length it cannot have (skipped)",
};

/** Why decoded flows were not stored: the runtime's codes (drop-reasons.ts). */
export const DROP_LABELS: Record<string, string> = DROP_REASON_LABELS;

/** A code the catalogues above do not know yet, as words: "rate-limited" → "Rate limited". */
function words(code: string): string {
  const text = code.replace(/[-_]+/g, " ").trim();
  return text ? text[0].toUpperCase() + text.slice(1) : "Unknown";
}

export const protocolLabel = (code: string) => PROTOCOL_LABELS[code] ?? code;
export const componentLabel = (name: string) => COMPONENT_LABELS[name] ?? name;
export const decodeErrorLabel = (reason: string) => DECODE_ERROR_LABELS[reason] ?? words(reason);
export const dropLabel = (reason: string) => DROP_LABELS[reason] ?? words(reason);

const COUNT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** 1234567 → "1,234,567". */
export function formatCount(n: number): string {
  return Number.isFinite(n) ? COUNT.format(n) : "–";
}

/** A sampling rate as "1:1,000" (one packet in 1,000 sampled); 1 is every packet. */
export const formatSamplingRate = (rate: number) => `1:${formatCount(rate)}`;

/** A span of whole minutes for people: "7 min", "2 h 5 min", "3 days". */
export function formatMinutes(minutes: number): string {
  const m = Math.max(0, Math.floor(minutes));
  if (m < 60) return `${m} min`;
  if (m < 48 * 60) return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ""}`;
  return `${Math.floor(m / 1440)} days`;
}

/** { reason: n } as labelled counts, largest first; zero counts left out. */
export function reasonCounts(counts: Record<string, number> | null | undefined, label: (reason: string) => string) {
  return Object.entries(counts ?? {})
    .filter(([, n]) => typeof n === "number" && Number.isFinite(n) && n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([reason, n]) => ({ reason, label: label(reason), count: formatCount(n) }));
}

/** Why an SNMP poll failed (snmp_poll_status.last_error_kind). */
export const SNMP_ERROR_LABELS: Record<string, string> = {
  timeout: "Time-out",
  authentication: "Authentication refused",
  other: "Error",
};

/** The routing tables a BMP session streams (rib_view). */
export const RIB_VIEW_LABELS: Record<string, string> = {
  "pre-policy": "Pre-policy Adj-RIB-In",
  "post-policy": "Post-policy Adj-RIB-In",
  "loc-rib": "Loc-RIB",
};

/** BMP message types (RFC 7854 §4.1) as the station counts them. */
export const BMP_MESSAGE_LABELS: Record<string, string> = {
  "route-monitoring": "Route monitoring",
  "statistics-report": "Statistics report",
  "peer-down": "Peer down",
  "peer-up": "Peer up",
  initiation: "Initiation",
  termination: "Termination",
  "route-mirroring": "Route mirroring",
  unknown: "Unknown type",
};

export const ribViewLabel = (view: string) => RIB_VIEW_LABELS[view] ?? words(view);
export const bmpMessageLabel = (type: string) => BMP_MESSAGE_LABELS[type] ?? words(type);

/** What kind of BMP peer (RFC 7854 §4.2 peer types; 3 is RFC 9069's Loc-RIB instance), with its distinguisher. */
export function bmpPeerKindLabel(peerType: number, distinguisher: string): string {
  const rd = distinguisher ? ` ${distinguisher}` : "";
  switch (peerType) {
    case 0:
      return "Global instance";
    case 1:
      return `RD instance${rd}`;
    case 2:
      return `Local instance${rd}`;
    case 3:
      return `Loc-RIB${rd}`;
    default:
      return `Peer type ${peerType}${rd}`;
  }
}
