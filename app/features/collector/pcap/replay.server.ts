/**
 * Sends captured UDP payloads to a collector, in order, optionally paced: what `npm run
 * flows:replay` does with a capture an operator or a support engineer hands over.
 */
import { createSocket } from "node:dgram";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { ipVersion } from "~/lib/ip";

export type ReplayTarget = { host: string; port: number; family: 4 | 6 };

export type ReplaySummary = { datagrams: number; bytes: number; seconds: number };

/** `host:port` (IPv4 address or name) or `[IPv6]:port`; null when the text is neither. */
export function parseReplayTarget(text: string): ReplayTarget | null {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(text.trim());
  if (!match) return null;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return null;
  if (match[1] !== undefined) return ipVersion(match[1]) === 6 ? { host: match[1], port, family: 6 } : null;
  return { host: match[2], port, family: 4 };
}

/**
 * Sends each payload in order, `passes` times over. With a rate, datagram n leaves at n / rate
 * seconds after the start (never in a burst to catch up); without one, each waits only for the
 * previous to be handed to the system, which keeps the order and the socket buffer bounded.
 */
export async function replayDatagrams(
  payloads: readonly Uint8Array[],
  target: ReplayTarget,
  options: { ratePerSecond?: number; passes?: number } = {},
): Promise<ReplaySummary> {
  const socket = createSocket(target.family === 6 ? "udp6" : "udp4");
  const started = performance.now();
  let datagrams = 0;
  let bytes = 0;
  try {
    for (let pass = 0; pass < (options.passes ?? 1); pass++) {
      for (const payload of payloads) {
        if (options.ratePerSecond) {
          const due = started + (datagrams * 1000) / options.ratePerSecond;
          const wait = due - performance.now();
          if (wait > 0) await sleep(wait);
        }
        await send(socket, payload, target);
        datagrams += 1;
        bytes += payload.length;
      }
    }
  } finally {
    socket.close();
    await once(socket, "close");
  }
  return { datagrams, bytes, seconds: (performance.now() - started) / 1000 };
}

function send(socket: ReturnType<typeof createSocket>, payload: Uint8Array, target: ReplayTarget): Promise<void> {
  return new Promise((resolve, reject) => socket.send(payload, target.port, target.host, (error) => (error ? reject(error) : resolve())));
}
