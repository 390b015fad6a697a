/**
 * npm run demo:load [-- --days N]
 * Loads the demo network into the configured stores (embedded or servers), if they are empty.
 */
import { loadDemoNetwork, printDemoSummary, printDemoCredentials } from "~db/demo/load";
import { ConfigError } from "~/server/env.server";
import { StoreUnavailableError } from "~/server/clickhouse.server";
import { startScriptServices } from "~/server/script-services.server";
import { wireApp } from "~/wiring.server";
import { storesAreEmpty } from "~/server/services.server";

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function main() {
  wireApp();
  const { config, services } = await startScriptServices();
  try {
    if (!(await storesAreEmpty(services))) {
      console.error("The stores already hold users or traffic; the demo network is only loaded into empty stores.");
      process.exitCode = 2;
      return;
    }
    const days = argument("days");
    const summary = await loadDemoNetwork(services, { days: days ? Number(days) : config.DEMO_DAYS });
    printDemoSummary(summary);
    printDemoCredentials(summary.users);
  } finally {
    await services.close();
  }
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof StoreUnavailableError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
