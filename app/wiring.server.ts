/**
 * The one module that hands features to the kernel. app/server imports no feature and not
 * db/demo; what they contribute to the running app — background work, what to forget when the
 * stores close, their OpenAPI descriptions, the checks of the site settings whose shape they define,
 * the public pages anonymous visitors share, the demo network — is registered here. Everything that runs the app calls wireApp() before it starts the
 * services: app/entry.server.tsx, the scripts, the test helpers. Calling it again changes nothing.
 */
import { printDemoCredentialsIfLoaded } from "~db/demo/credentials";
import { loadDemoNetwork, printDemoSummary } from "~db/demo/load";
import { bmp } from "~/features/collector/bmp/station.server";
import { collectorHealthTask } from "~/features/collector/data-sources/collector-health.server";
import { flowUtilTask } from "~/features/collector/flow-util/flow-util.server";
import { flowsNetflow, flowsSflow } from "~/features/collector/runtime/collector.server";
import { forgetDataRange } from "~/features/flows/data-range.server";
import { forgetAnomalies, rootCauseAnomaliesTask } from "~/features/flows/rootcause/anomalies.server";
import { buildoutNoticesTask } from "~/features/planners/buildout-notices.server";
import { alertEvaluator } from "~/features/alerts/evaluate.server";
import { ALERTS_OPERATIONS } from "~/features/alerts/openapi.server";
import { flowsGenerator } from "~/features/collector/export/generator.server";
import { snmpPoller } from "~/features/collector/snmp/poller.server";
import { FLOWS_OPERATIONS } from "~/features/flows/openapi.server";
import { DELEGATED_USERS_OPERATIONS } from "~/features/users/delegated-users/openapi.server";
import { PLANNERS_OPERATIONS } from "~/features/planners/openapi.server";
import { rnaDefaultQueryProblem } from "~/features/rna/default-query";
import { RNA_HISTORY_OPERATIONS } from "~/features/rna/history-openapi.server";
import { PUBLIC_LOOKING_GLASS_PATH } from "~/features/lookingglass/url-state";
import { startNetcommandRunner, stopNetcommandRunner } from "~/features/netcommand/runner.server";
import { inventorySshSeedTask } from "~/features/netcommand/ssh-seed.server";
import { PUBLIC_QUERY_CACHE_TTL_MS } from "~/features/routing/lookingglass-cache.server";
import { RNA_OPERATIONS } from "~/features/rna/openapi.server";
import { ROUTING_OPERATIONS } from "~/features/routing/openapi.server";
import { rpkiRtr } from "~/features/routing/rpki/rtr-client.server";
import { peeringDbSyncTask } from "~/features/routing/peeringdb/sync.server";
import { TAGS_OPERATIONS } from "~/features/tags/openapi.server";
import { forgetAlerts } from "~/server/alerts.server";
import { outboxSweeperTask } from "~/server/outbox.server";
import { usageRetentionTask } from "~/server/usage-tracking.server";
import { describeOperations, OPERATIONS } from "~/server/api/openapi.server";
import { apiV2Operations } from "~/features/api-v2/openapi.server";
import { AS_RELATIONS_OPERATIONS } from "~/features/asrelations/openapi.server";
import { REVENUES_OPERATIONS } from "~/features/revenues/openapi.server";
import { monthCloseTask } from "~/features/revenues/revenue-cost.server";
import { TOURS_OPERATIONS } from "~/features/help/openapi.server";
import { registerComponent } from "~/server/components/registry.server";
import { dataAvailabilityTask } from "~/server/notifications/data-availability.server";
import { onStoresClosing, provideDemoNetwork, runInBackground } from "~/server/lifecycle.server";
import { sharePublicPage } from "~/server/public-page-cache.server";
import { checkSiteSettingWith } from "~/server/settings/site-setting-checks.server";

export function wireApp(): void {
  // Ping and traceroute jobs run in every app process; replicas share the work through PostgreSQL.
  runInBackground("netcommand runner", { start: startNetcommandRunner, stop: stopNetcommandRunner });
  // NETCOMMAND_SSH fills the inventory's SSH settings of routers that have none; once, at start.
  runInBackground("inventory SSH from NETCOMMAND_SSH", inventorySshSeedTask);
  // Silent exporters and decode error bursts, told to staff: once a minute, only where the collector runs.
  runInBackground("collector health", collectorHealthTask);
  // Flows (and imported routing tables) that stop arriving, and arrive again, told to staff: once a minute, in the same process.
  runInBackground("data availability", dataAvailabilityTask);
  // Interface utilisation derived from the flows (source 'flows' of interface_util_5m), every 5 minutes in the same process; off with FLOWS_UTIL=off.
  runInBackground("flow utilisation", flowUtilTask);
  // Links whose build-out forecast crosses a planner's threshold, told to that user once per crossing: hourly, in the same process.
  runInBackground("build-out notices", buildoutNoticesTask);
  // Alert rules (docs/alerts.md): the newest complete bucket every minute, on the component host only.
  runInBackground("alert rules", { ...alertEvaluator(), where: "component host" });
  onStoresClosing("flows data range", forgetDataRange);
  // The root-cause analysis's anomaly list (docs/root-cause.md): the ranges requested, one at a time, at the limiter's
  // lowest priority; kept in memory, so in every app process (each computes its own).
  runInBackground("root-cause anomalies", rootCauseAnomaliesTask);
  onStoresClosing("root-cause anomalies", forgetAnomalies);
  // Mail and team-chat alerts whose delivery failed are tried again, every 15 s in every app process (rows claimed in PostgreSQL).
  runInBackground("outbox", outboxSweeperTask);
  // Usage tracking events past USAGE_RETENTION_DAYS are deleted hourly.
  runInBackground("usage tracking retention", usageRetentionTask);
  // Revenues & Costs: the previous month's bills frozen once it is over in every billing timezone; hourly, in every app process (the first wins).
  runInBackground("month close of the bills", monthCloseTask);
  // PeeringDB JSON from PEERINGDB_SYNC_URL (off when unset) imported once a day, on the component host only.
  runInBackground("PeeringDB sync", peeringDbSyncTask);
  onStoresClosing("team-chat alerts", (stores) => forgetAlerts(stores.pg.db));
  // Ingest components (flow collector, SNMP poller, BMP station) register here with registerComponent()
  // of app/server/components: the app on embedded stores and `npm run worker` on server stores read the same list.
  // Each is off until its <COMPONENT>_LISTEN is set.
  registerComponent(flowsNetflow);
  registerComponent(flowsSflow);
  // After the collectors, so its first packets find a socket listening. The flow generator (off unless FLOWS_GENERATOR_TARGET is set) feeds a collector NetFlow v9 for the inventory's routers.
  registerComponent(flowsGenerator);
  // The SNMP poller (off unless SNMP_POLL=on) reads the interface counters of the inventory's routers with SNMP settings.
  registerComponent(snmpPoller);
  // The BMP station (off unless BMP_LISTEN is set) keeps the routing tables of the inventory's routers live from their BMP sessions.
  registerComponent(bmp);
  // The RPKI to Router client (off unless RPKI_RTR_CACHE=host:port is set) keeps the VRPs of a validating cache for route origin validation.
  registerComponent(rpkiRtr);
  describeOperations([
    ...FLOWS_OPERATIONS,
    ...DELEGATED_USERS_OPERATIONS,
    ...TAGS_OPERATIONS,
    ...ROUTING_OPERATIONS,
    ...PLANNERS_OPERATIONS,
    ...RNA_OPERATIONS,
    ...RNA_HISTORY_OPERATIONS,
    ...AS_RELATIONS_OPERATIONS,
    ...REVENUES_OPERATIONS,
    ...TOURS_OPERATIONS,
    ...ALERTS_OPERATIONS,
  ]);
  // The second client's calls, described from their api/ twins (all described by now).
  describeOperations(apiV2Operations(OPERATIONS));
  // The site settings form refuses a default query the Raw Network Analyzer could not apply.
  checkSiteSettingWith("rna_default_query", (value) => rnaDefaultQueryProblem(value));
  // An anonymous public Looking Glass page shows everybody the same answer for as long as that answer is cached.
  sharePublicPage(PUBLIC_LOOKING_GLASS_PATH, PUBLIC_QUERY_CACHE_TTL_MS);
  provideDemoNetwork({
    load: async (services) => printDemoSummary(await loadDemoNetwork(services, { days: services.config.DEMO_DAYS })),
    printCredentials: (services) => printDemoCredentialsIfLoaded(services.pg.db),
  });
}
