/**
 * Sends captured BMP streams to a BMP station over TCP: what `npm run bmp:replay` does with the
 * captures a support engineer is handed. Each session is one TCP connection; its chunks (the whole
 * BMP messages of the captured streams, see capture-streams.ts) are written in order, waiting for
 * the socket to drain, then the connection is closed cleanly (FIN) and the station's close awaited.
 */
import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { ReplayTarget } from "~/features/collector/pcap/replay.server";

export type BmpReplaySummary = { connections: number; messages: number; bytes: number; seconds: number };

/** A replay that could not be done as asked, with a message that says where and why (scripts print it as is). */
export class BmpReplayError extends Error {}

export type BmpReplayOptions = {
  /** Pacing: BMP messages per second over the whole replay; without it, as fast as the station reads. */
  messagesPerSecond?: number;
  /** How long to wait for the connection (default 10 s). */
  connectTimeoutMs?: number;
  /** How long to wait, after the last byte, for the station to close its side (default 10 s); then the socket is destroyed. */
  closeTimeoutMs?: number;
};

export function targetText(target: ReplayTarget): string {
  return target.family === 6 ? `[${target.host}]:${target.port}` : `${target.host}:${target.port}`;
}

/** Replays the sessions one after the other, each on its own connection; throws BmpReplayError on the first failure. */
export async function replayBmpSessions(
  sessions: readonly (readonly Uint8Array[])[],
  target: ReplayTarget,
  options: BmpReplayOptions = {},
): Promise<BmpReplaySummary> {
  const started = performance.now();
  const summary: BmpReplaySummary = { connections: 0, messages: 0, bytes: 0, seconds: 0 };
  for (const chunks of sessions) {
    const socket = await open(target, options.connectTimeoutMs ?? 10_000);
    summary.connections += 1;
    await send(socket, chunks, target, summary, started, options);
  }
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}

async function open(target: ReplayTarget, timeoutMs: number): Promise<Socket> {
  const socket = connect({ host: target.host, port: target.port, family: target.family, timeout: timeoutMs });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
      socket.once("timeout", () => reject(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
    });
  } catch (error) {
    socket.destroy();
    throw new BmpReplayError(connectFailure(target, error as NodeJS.ErrnoException, timeoutMs));
  }
  socket.setTimeout(0);
  return socket;
}

function connectFailure(target: ReplayTarget, error: NodeJS.ErrnoException, timeoutMs: number): string {
  const to = targetText(target);
  switch (error.code) {
    case "ECONNREFUSED":
      return `${to}: connection refused: nothing listens there (is the BMP station on, BMP_LISTEN set to this port?)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
      return `${to}: the host name ${target.host} does not resolve (${error.code})`;
    case "ETIMEDOUT":
      return `${to}: no answer within ${timeoutMs / 1000} s (a firewall, or the wrong address?)`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${to}: cannot be reached from this machine (${error.code})`;
    default:
      return `${to}: cannot connect: ${error.message}`;
  }
}

async function send(
  socket: Socket,
  chunks: readonly Uint8Array[],
  target: ReplayTarget,
  summary: BmpReplaySummary,
  started: number,
  options: BmpReplayOptions,
): Promise<void> {
  const to = targetText(target);
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const number = (n: number) => n.toLocaleString("en-US");
  let sent = 0;
  // Set by the socket's events, read between writes.
  const seen: { failure: NodeJS.ErrnoException | null; stationClosed: boolean } = { failure: null, stationClosed: false };
  socket.on("error", (error) => (seen.failure ??= error));
  socket.on("end", () => (seen.stationClosed = true));
  socket.resume(); // a station sends nothing back; whatever comes is read so that its close is seen
  const closed = once(socket, "close").then(
    () => undefined,
    () => undefined,
  );
  const hint = "a station refuses a source address that is not a router of its inventory, and closes a session whose bytes are not BMP";
  const cut = () => {
    socket.destroy();
    const why = seen.failure ? ` (${seen.failure.code ?? seen.failure.message})` : "";
    return new BmpReplayError(`${to} closed the connection after ${number(sent)} of ${number(total)} bytes had been sent${why}: ${hint}`);
  };
  for (const chunk of chunks) {
    for (const piece of options.messagesPerSecond ? messagesOf(chunk) : [chunk]) {
      if (options.messagesPerSecond) {
        const wait = started + (summary.messages * 1000) / options.messagesPerSecond - performance.now();
        if (wait > 0) await sleep(wait);
      }
      if (seen.failure || seen.stationClosed) throw cut();
      if (!socket.write(piece)) await Promise.race([once(socket, "drain").catch(() => undefined), closed]);
      if (seen.failure || socket.destroyed) throw cut();
      sent += piece.length;
      summary.bytes += piece.length;
      summary.messages += options.messagesPerSecond ? 1 : messagesOf(piece).length;
    }
  }
  // FIN after the last byte; the station closes its side once it has read everything (or at a Termination message).
  socket.end();
  const timeoutMs = options.closeTimeoutMs ?? 10_000;
  const timer = new AbortController();
  const done = await Promise.race([closed.then(() => true), sleep(timeoutMs, false, { signal: timer.signal }).catch(() => false)]);
  timer.abort();
  if (!done) socket.destroy();
  // A reset after the last byte means the station closed with bytes it had not read.
  if (seen.failure) {
    const why = seen.failure.code ?? seen.failure.message;
    throw new BmpReplayError(
      `${to} reset the connection after all ${number(total)} bytes had been sent, before reading them all (${why}): ${hint}`,
    );
  }
}

/** The whole messages of a chunk (it holds nothing else: see capture-streams.ts). */
function messagesOf(chunk: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at + 6 <= chunk.length) {
    const length = ((chunk[at + 1] << 24) >>> 0) + (chunk[at + 2] << 16) + (chunk[at + 3] << 8) + chunk[at + 4];
    if (length < 6 || at + length > chunk.length) throw new Error(`not a whole BMP message at byte ${at} of a replayed chunk`);
    out.push(chunk.subarray(at, at + length));
    at += length;
  }
  return out;
}
