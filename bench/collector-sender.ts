/**
 * The collector bench's UDP sender, a child process of bench/collector.ts so that building and
 * sending datagrams does not take the collector's event loop. It takes one order per message over
 * the IPC channel and answers when it is done:
 *   { port, datagrams }           send that many as fast as the pacing allows;
 *   { port, flowsPerSecond, seconds } send at that rate for that long.
 * Sends are paced (16 at a time, each batch awaited): an unpaced burst overflows the receive
 * buffer of a busy machine and measures the kernel, not the collector.
 */
import dgram from "node:dgram";
import { RECORDS, trafficSource } from "./collector-traffic";

export type SenderOrder = { port: number; datagrams: number } | { port: number; flowsPerSecond: number; seconds: number };
export type SenderReport = { sent: number; seconds: number };

const socket = dgram.createSocket("udp4");
const source = trafficSource();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sendSome(port: number, count: number): Promise<void> {
  for (let i = 0; i < count; i += 16) {
    const batch = Math.min(16, count - i);
    await Promise.all(
      Array.from(
        { length: batch },
        () => new Promise<void>((resolve, reject) => socket.send(source.next(), port, "127.0.0.1", (e) => (e ? reject(e) : resolve()))),
      ),
    );
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function run(order: SenderOrder): Promise<SenderReport> {
  const started = performance.now();
  if ("datagrams" in order) {
    await sendSome(order.port, order.datagrams);
    return { sent: order.datagrams, seconds: (performance.now() - started) / 1000 };
  }
  let sent = 0;
  while (performance.now() - started < order.seconds * 1000) {
    const due = Math.floor((((performance.now() - started) / 1000) * order.flowsPerSecond) / RECORDS);
    const count = Math.min(due - sent, 2000);
    if (count > 0) {
      await sendSome(order.port, count);
      sent += count;
    } else await sleep(2);
  }
  return { sent, seconds: (performance.now() - started) / 1000 };
}

process.on("message", (order: SenderOrder) => {
  run(order).then(
    (report) => process.send?.(report),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
});
process.on("disconnect", () => {
  socket.close();
  process.exit(0);
});
