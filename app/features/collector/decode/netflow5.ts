import { fromUptime, readIpv4, viewOf } from "./bytes";
import { emptyFlow, emptyResult, type DecodeResult, type DecodedFlow } from "./flow-record";

/** NetFlow v5 (Cisco's fixed layout): a 24-byte header and up to 30 records of 48 bytes. */
const HEADER_LENGTH = 24;
const RECORD_LENGTH = 48;
const ICMP = 1;

export function decodeNetflow5(exporter: string, payload: Uint8Array): DecodeResult {
  const result = emptyResult("netflow5");
  if (payload.length < HEADER_LENGTH) {
    result.problems.push({ reason: "truncated", detail: `NetFlow v5 header needs ${HEADER_LENGTH} bytes, got ${payload.length}` });
    return result;
  }
  const view = viewOf(payload);
  const count = view.getUint16(2);
  const uptimeMs = view.getUint32(4);
  const exportTimeMs = view.getUint32(8) * 1000 + Math.floor(view.getUint32(12) / 1_000_000);
  // 2 bits of mode, 14 bits of interval; exporters disagree on the mode bits, the interval is what counts.
  const interval = view.getUint16(22) & 0x3fff;
  const samplingRate = interval > 0 ? interval : 1;

  // UDP delivers whole datagrams and v5 has nothing of variable length: any other size is a cut copy,
  // or bytes that merely begin like a v5 header, and none of its records can be trusted.
  const expected = HEADER_LENGTH + count * RECORD_LENGTH;
  if (payload.length !== expected) {
    result.problems.push({
      reason: payload.length < expected ? "truncated" : "bad-header",
      detail: `NetFlow v5 header announces ${count} records (${expected} bytes), the datagram has ${payload.length} bytes`,
    });
    return result;
  }
  for (let i = 0; i < count; i++) {
    const flow = readRecord(view, HEADER_LENGTH + i * RECORD_LENGTH, exporter, uptimeMs, exportTimeMs);
    flow.samplingRate = samplingRate;
    result.flows.push(flow);
  }
  return result;
}

function readRecord(view: DataView, at: number, exporter: string, uptimeMs: number, exportTimeMs: number): DecodedFlow {
  const flow = emptyFlow("netflow5", exporter, 0);
  flow.ipVersion = 4;
  flow.srcAddr = readIpv4(view, at);
  flow.dstAddr = readIpv4(view, at + 4);
  flow.nextHop = readIpv4(view, at + 8);
  flow.inIfIndex = view.getUint16(at + 12);
  flow.outIfIndex = view.getUint16(at + 14);
  flow.packets = view.getUint32(at + 16);
  flow.bytes = view.getUint32(at + 20);
  flow.flowStartMs = fromUptime(exportTimeMs, uptimeMs, view.getUint32(at + 24));
  flow.flowEndMs = fromUptime(exportTimeMs, uptimeMs, view.getUint32(at + 28));
  flow.srcPort = view.getUint16(at + 32);
  flow.dstPort = view.getUint16(at + 34);
  flow.tcpFlags = view.getUint8(at + 37);
  flow.ipProtocol = view.getUint8(at + 38);
  flow.srcAs = view.getUint16(at + 40);
  flow.dstAs = view.getUint16(at + 42);
  flow.srcPrefixLen = view.getUint8(at + 44);
  flow.dstPrefixLen = view.getUint8(at + 45);
  flow.exportTimeMs = exportTimeMs;
  // v5 has no ICMP fields: exporters put type × 256 + code in the destination port, which is then no port.
  if (flow.ipProtocol === ICMP) {
    flow.icmpType = flow.dstPort >> 8;
    flow.icmpCode = flow.dstPort & 0xff;
    flow.dstPort = 0;
  }
  return flow;
}
