/**
 * One entry for every flow datagram a collector receives: NetFlow v5, v9 and IPFIX by their 16-bit
 * version, sFlow v5 by its 32-bit one. Whatever the bytes, it returns a DecodeResult: malformed
 * input is a problem in the result, never an exception out of here. `udpSource` is the address the
 * datagram came from: the exporter of NetFlow and IPFIX; sFlow names its exporter, the agent, itself.
 */
import { emptyResult, type DecodeResult } from "./flow-record";
import { decodeIpfix } from "./ipfix";
import { decodeNetflow5 } from "./netflow5";
import { decodeNetflow9 } from "./netflow9";
import { decodeSflow } from "./sflow";
import type { TemplateState } from "./templates";

export { TemplateState } from "./templates";
export type { DecodedFlow, DecodeProblem, DecodeResult, FlowProtocol, SflowAgent } from "./flow-record";

export function decodeDatagram(state: TemplateState, udpSource: string, payload: Uint8Array, receivedAtMs: number): DecodeResult {
  if (payload.length < 4) return failed(null, "truncated", `${payload.length} bytes, too short for any flow export header`);
  // sFlow's version is 32 bits (00 00 00 05); the 16-bit versions of NetFlow and IPFIX are never 0.
  if (payload[0] === 0 && payload[1] === 0 && payload[2] === 0 && payload[3] === 5)
    return guarded(() => decodeSflow(udpSource, payload, receivedAtMs));
  const version = (payload[0] << 8) | payload[1];
  switch (version) {
    case 5:
      return guarded(() => decodeNetflow5(udpSource, payload));
    case 9:
      return guarded(() => decodeNetflow9(state, udpSource, payload, receivedAtMs));
    case 10:
      return guarded(() => decodeIpfix(state, udpSource, payload, receivedAtMs));
    default:
      return failed(null, "unknown-version", `version ${version} is none of NetFlow 5, 9, IPFIX 10 or sFlow 5`);
  }
}

/** The decoders check every length they read; this only keeps a fault of theirs from reaching the listener. */
function guarded(decode: () => DecodeResult): DecodeResult {
  try {
    return decode();
  } catch (error) {
    return failed(null, "bad-record", `decoder fault: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function failed(protocol: DecodeResult["protocol"], reason: DecodeResult["problems"][number]["reason"], detail: string): DecodeResult {
  return { ...emptyResult(protocol), problems: [{ reason, detail }] };
}
