/**
 * Whether new data keeps arriving, told to staff (active, non-delegated accounts with the staff or
 * superuser flag) as pop-up notifications, checked once a minute in the process that runs the
 * ingest components:
 *
 * - flows: the end of the newest 5-minute bucket of flows_5m, against FLOWS_STALE_AFTER minutes;
 * - routing: the newest entry of the routing history (rib_entries), against ROUTING_STALE_AFTER.
 *
 * When a store's newest data is older than its limit, staff are told once ("No new flow data since
 * …"); when newer data arrives after that, once more ("Flow data arrives again"). A store where data
 * never arrived is not judged (an installation without flows or without imported routing tables is
 * not nagged); one whose data has all expired since is judged by the newest data seen before.
 *
 * What the previous check saw is kept in PostgreSQL (system_state `data_availability`), read and
 * written under a row lock in one transaction: a restart does not repeat a notification, and two
 * processes checking do not both tell.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { systemState } from "~db/postgres/schema";
import { formatDateLong } from "~/lib/date-format";
import { chQuery, type ClickhouseHandle } from "../clickhouse/query.server";
import type { BackgroundTask } from "../lifecycle.server";
import { log } from "../log.server";
import type { Db } from "../postgres.server";
import type { Services } from "../services.server";
import { getUserSettings } from "../settings/user-settings.server";
import { notify, staffAndSuperusers } from "./notifications.server";

export const DATA_AVAILABILITY_KEY = "data_availability";
export const DATA_CHECK_INTERVAL_MS = 60_000;

export type DataStoreName = "flows" | "routing";

type StoreCheck = {
  name: DataStoreName;
  /** The data people read of, in the notifications. */
  label: string;
  labelCapital: string;
  /** The setting whose minutes are the limit. */
  setting: "FLOWS_STALE_AFTER" | "ROUTING_STALE_AFTER";
  /** Unix seconds of the newest data; NULL when the table is empty. */
  sql: string;
};

const STORES: StoreCheck[] = [
  {
    name: "flows",
    label: "flow data",
    labelCapital: "Flow data",
    setting: "FLOWS_STALE_AFTER",
    // The bucket's end: a bucket starting at 10:00 holds flows up to 10:05.
    sql: "SELECT if(count() = 0, NULL, toUnixTimestamp(max(time)) + 300) AS newest FROM flows_5m",
  },
  {
    name: "routing",
    label: "routing data",
    labelCapital: "Routing data",
    setting: "ROUTING_STALE_AFTER",
    sql: "SELECT if(count() = 0, NULL, toUnixTimestamp(max(timestamp))) AS newest FROM rib_entries",
  },
];

const NewestRow = z.object({
  newest: z
    .union([z.number(), z.string()])
    .nullish()
    .transform((v) => (v === null || v === undefined ? null : Number(v) * 1000)),
});

type StoreMemory = {
  /** The newest data seen by any check, ms; null while none ever arrived. */
  newest: number | null;
  /** The newest data when staff were told it stopped, ms; null when no gap is told. */
  toldStale: number | null;
};
type Memory = { stores: Partial<Record<DataStoreName, StoreMemory>> };

export type DataAvailabilityOutcome = {
  /** Stores whose data staff were told stopped now. */
  stale: DataStoreName[];
  /** Stores whose told gap ended now. */
  back: DataStoreName[];
};

function readMemory(value: unknown): Memory {
  const stores = (value as Memory | null)?.stores;
  return { stores: stores && typeof stores === "object" ? stores : {} };
}

function minutesText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 120) return `${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} hours` : `${Math.round(hours / 24)} days`;
}

async function newestOf(ch: ClickhouseHandle, store: StoreCheck): Promise<number | null> {
  const [row] = await chQuery(ch, { name: `notifications.newest.${store.name}`, sql: store.sql, params: {}, schema: NewestRow });
  return row?.newest ?? null;
}

/** Tells each recipient with the times in their own timezone. */
async function tell(db: Db, userIds: number[], notice: (timezone: string) => { title: string; message: string }) {
  for (const userId of userIds) {
    const { timezone } = await getUserSettings(db, userId);
    await notify(db, [userId], { ...notice(timezone), doPopUp: true });
  }
}

/** One check at `now`: reads the newest data of each store, notifies staff, remembers what it saw. */
export async function checkDataAvailability(
  services: Pick<Services, "pg" | "ch" | "config">,
  now = new Date(),
): Promise<DataAvailabilityOutcome> {
  // Read before the transaction: no PostgreSQL row stays locked while ClickHouse answers.
  const newest = new Map<DataStoreName, number | null>();
  for (const store of STORES) newest.set(store.name, await newestOf(services.ch, store));
  const outcome: DataAvailabilityOutcome = { stale: [], back: [] };
  await services.pg.db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await tx
      .insert(systemState)
      .values({ key: DATA_AVAILABILITY_KEY, value: { stores: {} } })
      .onConflictDoNothing();
    const [row] = await tx.select().from(systemState).where(eq(systemState.key, DATA_AVAILABILITY_KEY)).for("update");
    const before = readMemory(row?.value);
    const after: Memory = { stores: {} };
    let staff: number[] | null = null;
    const recipients = async () => (staff ??= await staffAndSuperusers(tx));
    for (const store of STORES) {
      const prev = before.stores[store.name] ?? { newest: null, toldStale: null };
      const current = newest.get(store.name) ?? null;
      const seen = current === null ? prev.newest : Math.max(current, prev.newest ?? current);
      let toldStale = prev.toldStale;
      if (toldStale !== null && current !== null && current > toldStale) {
        const gapFrom = toldStale;
        outcome.back.push(store.name);
        toldStale = null;
        await tell(tx, await recipients(), (tz) => ({
          title: `${store.labelCapital} arrives again`,
          message: `New ${store.label} up to ${formatDateLong(new Date(current), tz)} arrived after the gap since ${formatDateLong(
            new Date(gapFrom),
            tz,
          )}.`,
        }));
      }
      const limitMs = services.config[store.setting] * 60_000;
      if (toldStale === null && seen !== null && now.getTime() - seen >= limitMs) {
        outcome.stale.push(store.name);
        toldStale = seen;
        await tell(tx, await recipients(), (tz) => ({
          title: `No new ${store.label} since ${formatDateLong(new Date(seen), tz)}`,
          message: `The newest ${store.label} is ${minutesText(now.getTime() - seen)} old (${store.setting} is ${
            services.config[store.setting]
          } minutes). ${store.name === "flows" ? "See Site settings › Data sources: /site-settings/data-sources" : "Check the routing table import."}`,
        }));
      }
      after.stores[store.name] = { newest: seen, toldStale };
    }
    await tx.update(systemState).set({ value: after, updatedAt: now }).where(eq(systemState.key, DATA_AVAILABILITY_KEY));
  });
  return outcome;
}

let timer: ReturnType<typeof setInterval> | null = null;
let running: Promise<unknown> | null = null;

/**
 * Every minute in the process that runs the ingest components (lifecycle `where: "component
 * host"`), so one process checks however many web replicas run.
 */
export const dataAvailabilityTask: BackgroundTask = {
  where: "component host",
  start(services) {
    if (timer) return;
    timer = setInterval(() => {
      if (running) return;
      running = checkDataAvailability(services)
        .then((o) => {
          if (o.stale.length || o.back.length)
            log.info(`data availability: stale ${o.stale.join(", ") || "none"}; arriving again ${o.back.join(", ") || "none"}`);
        })
        .catch((error) => log.warn(`data availability check failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => (running = null));
    }, DATA_CHECK_INTERVAL_MS);
    timer.unref();
  },
  async stop() {
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  },
};
