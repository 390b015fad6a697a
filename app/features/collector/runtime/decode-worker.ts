/**
 * The entry of a decoding thread (node:worker_threads). Under tsx and vitest it runs from this
 * source; in the production build it is bundled by esbuild into build/server/collector-worker.js
 * (vite.config.ts), since the server bundle holds no file a thread could start from.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { FlowRowFormat } from "../enrich/flow-row";
import { DecodeThread } from "./decode-thread";
import type { FromThread, ToThread } from "./messages";

export type DecodeWorkerData = { maxClockSkewMs: number; sweepIntervalMs: number; format: FlowRowFormat };

const port = parentPort;
if (!port) throw new Error("decode-worker runs as a worker thread");
const settings = workerData as DecodeWorkerData;
const thread = new DecodeThread(settings.maxClockSkewMs, settings.format);
const send = (message: FromThread) => port.postMessage(message);

// Templates expire for exporters that went silent too: a timer, not only the next datagram.
const sweeper = setInterval(() => {
  const exporters = thread.sweep(Date.now());
  if (exporters.length) send({ type: "misses", exporters, final: false });
}, settings.sweepIntervalMs);

port.on("message", (message: ToThread) => {
  switch (message.type) {
    case "snapshot":
      try {
        thread.useSnapshot(message.snapshot);
      } catch (error) {
        send({ type: "log", level: "error", message: `enrichment snapshot refused, the previous one stays: ${String(error)}` });
      }
      break;
    case "batch": {
      const result = thread.decodeBatch(message);
      const body = result.body.buffer as ArrayBuffer;
      // The body is transferred, not cloned: the main thread gets the bytes without copying them.
      port.postMessage(
        {
          type: "result",
          id: message.id,
          datagrams: message.exporters.length,
          body,
          rows: result.rows,
          exporters: result.exporters,
        } satisfies FromThread,
        [body],
      );
      break;
    }
    case "finish":
      clearInterval(sweeper);
      send({ type: "misses", exporters: thread.sweep(Date.now(), true), final: true });
      break;
  }
});
