/** The inventory's descriptions of interfaces named by flow keys ("router|interface"), in one query. */
import { eq, inArray } from "drizzle-orm";
import { interfaces, routers } from "~db/postgres/schema";
import type { Services } from "~/server/services.server";
import { INTERFACE_SEPARATOR } from "~/features/filter/dimensions";

/** key → description, for the keys whose interface is in the inventory with a description. */
export async function interfaceDescriptions(stores: Pick<Services, "pg">, keys: Iterable<string>): Promise<Map<string, string>> {
  const wanted = new Set(keys);
  const routerNames = new Set(
    [...wanted]
      .map((k) => k.split(INTERFACE_SEPARATOR))
      .filter((p) => p.length === 2)
      .map((p) => p[0]),
  );
  const found = new Map<string, string>();
  if (!routerNames.size) return found;
  const rows = await stores.pg.db
    .select({ router: routers.name, name: interfaces.name, description: interfaces.description })
    .from(interfaces)
    .innerJoin(routers, eq(interfaces.routerId, routers.id))
    .where(inArray(routers.name, [...routerNames]));
  for (const r of rows) {
    const key = `${r.router}${INTERFACE_SEPARATOR}${r.name}`;
    if (wanted.has(key) && r.description) found.set(key, r.description);
  }
  return found;
}
