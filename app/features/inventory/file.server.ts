/**
 * The inventory as a YAML file (docs/inventory.md), for bulk work: export writes routers with
 * their exporters, SNMP and SSH settings (secrets only as `{ secret: set }`) and interfaces, then
 * the vantage points; import applies such a file in one transaction, all or nothing, and reports
 * what it created, updated and removed. Export → import → export gives the same file. The
 * operator's own AS (`operator_as`) travels with it: it is set once per installation, like the routers.
 */
import { inArray, notInArray } from "drizzle-orm";
import { Document, isMap, isScalar, isSeq, parseDocument, visit } from "yaml";
import { routerExporters, routers, vantagePoints } from "~db/postgres/schema";
import type { Db } from "~/server/postgres.server";
import type { Services } from "~/server/services.server";
import { interfaceDocument, routerDocument, vantagePointDocument } from "./document";
import { getOperatorAs, parseInput, readOperatorAs, writeOperatorAs } from "./inventory.server";
import { InventoryInputError, linkRemoteEnds, readRouters, readVantagePoints, writeRouter, writeVantagePoint } from "./rows.server";
import { inventoryFileSchema } from "./schema";

const INLINE = new Set(["remote", "exporters"]);
const HEADER = "# flowlens network inventory (format: docs/inventory.md)\n";

export async function exportInventory(stores: Pick<Services, "pg">): Promise<string> {
  const [routerViews, points, operator] = await Promise.all([
    readRouters(stores.pg.db),
    readVantagePoints(stores.pg.db),
    getOperatorAs(stores),
  ]);
  const doc = new Document({
    version: 1,
    ...(operator ? { operator_as: operator.asn } : {}),
    routers: routerViews.map(routerDocument),
    vantage_points: points.map(vantagePointDocument),
  });
  // Short values on one line, as people write them: `{ secret: set }`, remote ends, exporter lists.
  visit(doc, {
    Pair(_, pair) {
      if ((isMap(pair.value) || isSeq(pair.value)) && INLINE.has(String(isScalar(pair.key) ? pair.key.value : ""))) pair.value.flow = true;
    },
    Map(_, map) {
      if (map.items.length === 1 && isScalar(map.items[0].key) && map.items[0].key.value === "secret") map.flow = true;
    },
  });
  return HEADER + doc.toString({ lineWidth: 0 });
}

export type Changes = { created: string[]; updated: string[]; removed: string[]; unchanged: number };
export type ImportReport = {
  /** The operator AS as the file sets it (before → after), null when the file leaves it alone or it was that already. */
  operatorAs: { before: number | null; after: number } | null;
  routers: Changes;
  interfaces: Changes;
  vantagePoints: Changes;
  dryRun: boolean;
};

/** What each object looks like, secrets' ciphertexts included, so a changed secret counts as a change. */
async function snapshot(db: Db) {
  const [routerViews, points, secrets] = await Promise.all([
    readRouters(db),
    readVantagePoints(db),
    db
      .select({
        name: routers.name,
        a: routers.snmpCommunityEnc,
        b: routers.snmpV3AuthPasswordEnc,
        c: routers.snmpV3PrivPasswordEnc,
        d: routers.sshPrivateKeyEnc,
        e: routers.sshPasswordEnc,
      })
      .from(routers),
  ]);
  const secretsOf = new Map(secrets.map(({ name, ...enc }) => [name, enc]));
  return {
    routers: new Map(routerViews.map((r) => [r.name, JSON.stringify([{ ...routerDocument(r), interfaces: [] }, secretsOf.get(r.name)])])),
    interfaces: new Map(routerViews.flatMap((r) => r.interfaces.map((i) => [`${r.name} ${i.name}`, JSON.stringify(interfaceDocument(i))]))),
    vantagePoints: new Map(points.map((v) => [v.key, JSON.stringify(vantagePointDocument(v))])),
  };
}

function compare(before: Map<string, string>, after: Map<string, string>): Changes {
  const changes: Changes = { created: [], updated: [], removed: [], unchanged: 0 };
  for (const [name, now] of after) {
    const then = before.get(name);
    if (then === undefined) changes.created.push(name);
    else if (then !== now) changes.updated.push(name);
    else changes.unchanged++;
  }
  for (const name of before.keys()) if (!after.has(name)) changes.removed.push(name);
  return changes;
}

/** Thrown inside the transaction to undo a dry run's writes once its report is known. */
class DryRunDone extends Error {
  constructor(readonly report: ImportReport) {
    super("dry run");
  }
}

/** Reads the YAML text; problems name the line and column. */
export function parseInventoryText(text: string) {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    throw new InventoryInputError(
      doc.errors.map((e) => ({ path: "", message: `line ${e.linePos?.[0].line ?? "?"}, column ${e.linePos?.[0].col ?? "?"}: ${e.code}` })),
    );
  }
  return parseInput(inventoryFileSchema, doc.toJS());
}

/**
 * Applies an inventory file. Routers and vantage points in the file are created or replaced
 * (a router's exporters and interfaces become the file's lists); with `replace`, those not in the
 * file are removed, otherwise they stay. Nothing is written when anything is refused, or on a dry run.
 */
export async function importInventory(
  stores: Pick<Services, "pg" | "config">,
  text: string,
  options: { dryRun?: boolean; replace?: boolean } = {},
): Promise<ImportReport> {
  const file = parseInventoryText(text);
  try {
    return await stores.pg.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      const before = await snapshot(db);
      const operatorBefore = (await readOperatorAs(db))?.asn ?? null;
      // Not removed by `replace` when the file has none: without it the flows screens stop working.
      if (file.operator_as !== null) await writeOperatorAs(db, file.operator_as);
      const names = file.routers.map((r) => r.name);
      if (options.replace) {
        await db.delete(routers).where(names.length ? notInArray(routers.name, names) : undefined);
        const keys = file.vantage_points.map((v) => v.key);
        await db.delete(vantagePoints).where(keys.length ? notInArray(vantagePoints.key, keys) : undefined);
      }
      // Exporters may move between routers of the file: free them before any router claims them.
      const fileRouterIds = names.length
        ? (await db.select({ id: routers.id }).from(routers).where(inArray(routers.name, names))).map((r) => r.id)
        : [];
      if (fileRouterIds.length) await db.delete(routerExporters).where(inArray(routerExporters.routerId, fileRouterIds));
      for (const [index, router] of file.routers.entries())
        await writeRouter(db, router, { key: stores.config.INVENTORY_SECRET_KEY, path: `routers[${index}].` });
      await linkRemoteEnds(
        db,
        file.routers.map((r, index) => ({ routerName: r.name, path: `routers[${index}].`, interfaces: r.interfaces })),
      );
      for (const point of file.vantage_points) await writeVantagePoint(db, point);
      const after = await snapshot(db);
      const report: ImportReport = {
        operatorAs:
          file.operator_as !== null && file.operator_as !== operatorBefore ? { before: operatorBefore, after: file.operator_as } : null,
        routers: compare(before.routers, after.routers),
        interfaces: compare(before.interfaces, after.interfaces),
        vantagePoints: compare(before.vantagePoints, after.vantagePoints),
        dryRun: !!options.dryRun,
      };
      if (options.dryRun) throw new DryRunDone(report);
      return report;
    });
  } catch (error) {
    if (error instanceof DryRunDone) return error.report;
    throw error;
  }
}
