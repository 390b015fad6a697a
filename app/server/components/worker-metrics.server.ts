/**
 * `GET /metrics` of `npm run worker`: the worker runs the ingest components on server stores, and
 * their figures (the collectors' counters, the BMP station's sessions and routes) live in its
 * process, not in the web replicas. With WORKER_METRICS_LISTEN set (host:port, [IPv6]:port or
 * :port) it answers the same scrape as the app's /metrics — the same METRICS_TOKEN, the same text —
 * and nothing else (404).
 */
import http from "node:http";
import { log } from "../log.server";
import { metricsResponse } from "../metrics-endpoint.server";
import { parseListenAddress } from "./contract.server";

export const WORKER_METRICS_VARIABLE = "WORKER_METRICS_LISTEN";

export type WorkerMetricsServer = { address: string; port: number; close: () => Promise<void> };

/** Throws the ConfigError of a malformed WORKER_METRICS_LISTEN (checked before the stores are opened). */
export function checkWorkerMetricsListen(env: Record<string, string | undefined>): void {
  const raw = env[WORKER_METRICS_VARIABLE];
  if (raw !== undefined && raw.trim() !== "") parseListenAddress(WORKER_METRICS_VARIABLE, raw);
}

/** Starts the scrape listener when WORKER_METRICS_LISTEN is set; null otherwise. A malformed value is a ConfigError. */
export async function serveWorkerMetrics(
  env: Record<string, string | undefined>,
  token: string | undefined,
): Promise<WorkerMetricsServer | null> {
  const raw = env[WORKER_METRICS_VARIABLE];
  if (raw === undefined || raw.trim() === "") return null;
  const listen = parseListenAddress(WORKER_METRICS_VARIABLE, raw);
  if (!token) log.warn(`${WORKER_METRICS_VARIABLE} is set but METRICS_TOKEN is not: the worker's /metrics answers 404 until it is`);
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" || path !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not Found\n");
      return;
    }
    const headers = new Headers();
    if (typeof req.headers.authorization === "string") headers.set("Authorization", req.headers.authorization);
    const response = metricsResponse(new Request("http://worker/metrics", { headers }), token);
    void response.text().then((body) => {
      res.writeHead(response.status, Object.fromEntries(response.headers)).end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = server.address();
  const port = typeof bound === "object" && bound ? bound.port : listen.port;
  const address = listen.host.includes(":") ? `[${listen.host}]:${port}` : `${listen.host}:${port}`;
  log.info(`worker metrics on http://${address}/metrics`);
  return {
    address,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
