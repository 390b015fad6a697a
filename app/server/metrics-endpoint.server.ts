/**
 * GET /metrics: the Prometheus scrape. It does not exist (404) until METRICS_TOKEN is set, and then
 * answers only a request bearing that token — never a session, so a logged-in browser cannot read
 * it and a scraper needs no account. The token is compared in constant time (as hashes, so its
 * length does not leak either).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { componentHealth } from "./components/supervisor.server";
import { renderPrometheus, PROMETHEUS_CONTENT_TYPE } from "./metrics-exposition.server";
import { metricSeries } from "./metrics.server";

const digest = (text: string) => createHash("sha256").update(text).digest();

function sameToken(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

const plain = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers } });

export function metricsResponse(request: Request, token: string | undefined): Response {
  if (!token) return plain(404, "Not Found\n");
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.get("Authorization") ?? "");
  if (!match)
    return plain(401, "Unauthorized: send Authorization: Bearer <METRICS_TOKEN>\n", { "WWW-Authenticate": 'Bearer realm="metrics"' });
  if (!sameToken(match[1], token)) return plain(403, "Forbidden\n");
  const memory = process.memoryUsage();
  const body = renderPrometheus(metricSeries(), componentHealth(), {
    residentMemoryBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    startTimeSeconds: Math.round(Date.now() / 1000 - process.uptime()),
  });
  return new Response(body, { status: 200, headers: { "Content-Type": PROMETHEUS_CONTENT_TYPE, "Cache-Control": "no-store" } });
}
