/**
 * npm run inventory -- export [FILE]
 * npm run inventory -- import FILE [--dry-run] [--replace]
 * The network inventory (routers, exporters, SNMP/SSH settings, interfaces, vantage points) as a
 * YAML file, for bulk work (docs/inventory.md). Export writes to FILE or stdout; import applies a
 * file all or nothing and prints what it created, updated and removed. Exit code 1 on any error,
 * with each refused field named by its place in the file.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { exportInventory, importInventory, type Changes } from "~/features/inventory/file.server";
import { InventoryInputError } from "~/features/inventory/inventory.server";
import { InventorySecretError } from "~/features/inventory/secrets.server";
import { StoreUnavailableError } from "~/server/clickhouse.server";
import { ConfigError } from "~/server/env.server";
import { startScriptPostgres } from "~/server/script-services.server";

const USAGE = "usage: npm run inventory -- export [FILE] | import FILE [--dry-run] [--replace]";

class UsageError extends Error {}

type Command = { kind: "export"; file: string | null } | { kind: "import"; file: string; dryRun: boolean; replace: boolean };

function parseArguments(argv: string[]): Command {
  const [kind, ...rest] = argv;
  const flags = rest.filter((a) => a.startsWith("--"));
  const files = rest.filter((a) => !a.startsWith("--"));
  if (kind === "export") {
    if (flags.length) throw new UsageError(`unknown option ${flags[0]}; ${USAGE}`);
    if (files.length > 1) throw new UsageError(`export takes at most one file; ${USAGE}`);
    return { kind, file: files[0] ?? null };
  }
  if (kind === "import") {
    const unknown = flags.find((f) => f !== "--dry-run" && f !== "--replace");
    if (unknown) throw new UsageError(`unknown option ${unknown}; ${USAGE}`);
    if (files.length !== 1) throw new UsageError(`import takes one file; ${USAGE}`);
    return { kind, file: files[0], dryRun: flags.includes("--dry-run"), replace: flags.includes("--replace") };
  }
  throw new UsageError(USAGE);
}

function changeLine(what: string, c: Changes): string {
  const named = (n: string[]) => (n.length ? ` (${n.join(", ")})` : "");
  return `${what}: ${c.created.length} created${named(c.created)}, ${c.updated.length} updated${named(c.updated)}, ${c.removed.length} removed${named(c.removed)}, ${c.unchanged} unchanged`;
}

async function main(): Promise<number> {
  const command = parseArguments(process.argv.slice(2));
  // Read before the store opens: a typo in the name should not cost a start-up.
  let text = "";
  if (command.kind === "import") {
    try {
      text = readFileSync(command.file, "utf8");
    } catch {
      throw new UsageError(`${command.file}: cannot read the file`);
    }
  }
  const stores = await startScriptPostgres();
  try {
    if (command.kind === "export") {
      const yaml = await exportInventory(stores);
      if (command.file) writeFileSync(command.file, yaml);
      else process.stdout.write(yaml);
      return 0;
    }
    try {
      const report = await importInventory(stores, text, command);
      if (report.operatorAs) console.log(`operator AS: ${report.operatorAs.before ?? "not set"} → ${report.operatorAs.after}`);
      console.log(changeLine("routers", report.routers));
      console.log(changeLine("interfaces", report.interfaces));
      console.log(changeLine("vantage points", report.vantagePoints));
      if (report.dryRun) console.log("dry run: nothing was written");
      return 0;
    } catch (error) {
      if (!(error instanceof InventoryInputError || error instanceof InventorySecretError)) throw error;
      const lines =
        error instanceof InventoryInputError ? error.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)) : [error.message];
      for (const line of lines) console.error(`${command.file}: ${line}`);
      console.error("nothing was written");
      return 1;
    }
  } finally {
    await stores.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof StoreUnavailableError && /in use by process/.test(error.message)) {
      console.error(`${error.message}. Stop the server (npm start) first; or run both on PostgreSQL and ClickHouse servers.`);
    } else if (error instanceof UsageError || error instanceof ConfigError || error instanceof StoreUnavailableError) {
      console.error(error.message);
    } else {
      console.error(error);
    }
    process.exit(1);
  },
);
