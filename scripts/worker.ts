/**
 * npm run worker
 * Runs the ingest components (flow collector, SNMP poller, BMP station: each on when its
 * `<COMPONENT>_…` variables are set) when DATABASE_URL and CLICKHOUSE_URL point at servers; the
 * web processes then never listen or poll. Stops gracefully on SIGTERM or SIGINT.
 */
import { StoreUnavailableError } from "~/server/clickhouse.server";
import { ComponentStartError } from "~/server/components/supervisor.server";
import { runWorker } from "~/server/components/worker.server";
import { ConfigError } from "~/server/env.server";
import { loadDotEnvFile } from "~/server/script-services.server";
import { wireApp } from "~/wiring.server";

loadDotEnvFile();
// The components the features register are handed to the kernel here, as for the app.
wireApp();
runWorker().then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof ConfigError || error instanceof StoreUnavailableError || error instanceof ComponentStartError) {
      console.error(`flowlens worker cannot start.\n${error.message}`);
    } else console.error(error);
    process.exit(1);
  },
);
