import type { DecodeResult } from "./flow-record";

/** Stands in for the sFlow v5 decoder until it is merged: every sFlow datagram is reported as unsupported. */
export function decodeSflow(_exporter: string, _payload: Uint8Array, _receivedAtMs: number): DecodeResult {
  return {
    protocol: "sflow5",
    flows: [],
    problems: [{ reason: "unsupported", detail: "sFlow decoding is not in this build" }],
    templateMisses: 0,
    counterSamples: 0,
  };
}
