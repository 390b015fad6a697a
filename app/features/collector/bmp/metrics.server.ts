/**
 * The BMP station's Prometheus figures, kept in the process that runs the station (the app on
 * embedded stores, `npm run worker` on server stores, which serves them on WORKER_METRICS_LISTEN).
 */
import { describeMetric } from "~/server/metrics.server";

export const BMP_METRICS = {
  sessions: "flowlens_bmp_sessions",
  messages: "flowlens_bmp_messages_total",
  routes: "flowlens_bmp_routes",
  decodeErrors: "flowlens_bmp_decode_errors_total",
  rowsWritten: "flowlens_bmp_rows_written_total",
  rowsPending: "flowlens_bmp_rows_pending",
  readingPaused: "flowlens_bmp_reading_paused",
  sweeps: "flowlens_bmp_sweeps_total",
  refused: "flowlens_bmp_refused_connections_total",
  skipped: "flowlens_bmp_skipped_total",
} as const;

export function describeBmpMetrics(): void {
  describeMetric(BMP_METRICS.sessions, "BMP sessions open (TCP connections of inventory routers).");
  describeMetric(BMP_METRICS.messages, "BMP messages received, by type (route-monitoring, peer-up, …).");
  describeMetric(
    BMP_METRICS.routes,
    "Current routes (not withdrawn) per router and RIB view, from the routing table; counted every minute.",
  );
  describeMetric(BMP_METRICS.decodeErrors, "BMP messages whose content could not be decoded, and sessions closed for a framing error.");
  describeMetric(BMP_METRICS.rowsWritten, "Routing rows (announcements and withdrawals) written to rib_entries by the BMP station.");
  describeMetric(BMP_METRICS.rowsPending, "Routing rows waiting for the store.");
  describeMetric(BMP_METRICS.readingPaused, "1 while the BMP station has stopped reading its sessions because the store is behind.");
  describeMetric(BMP_METRICS.sweeps, "Withdrawals of a peer's or a router's routes (peer down, End-of-RIB, stale routes), by reason.");
  describeMetric(BMP_METRICS.refused, "BMP connections refused: the source address is no inventory router's.");
  describeMetric(
    BMP_METRICS.skipped,
    "BMP messages counted and not stored (other address families, Adj-RIB-Out, route mirroring), by what.",
  );
}
