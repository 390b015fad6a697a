/**
 * The collector's health, told to staff (active users with the staff or superuser flag) as pop-up
 * notifications, checked once a minute in the process that runs the ingest components:
 *
 * - "Exporter <router or address> is silent": an exporter address that sent within the last 24
 *   hours has sent nothing for FLOWS_SILENT_AFTER minutes. Once per silence: again only after a
 *   datagram came (its last datagram moved) and it fell silent anew. Not judged while no listener
 *   runs: nothing can arrive then, and the page says so.
 * - "Decode errors from <router or address>": its decode errors grew since the previous check by
 *   more than max(100, 1 % of the datagrams it sent in the same time). Once per burst: again only
 *   after a check without such growth, so a steady fault does not notify every minute.
 *
 * What the previous check saw is kept in PostgreSQL (system_state `collector_health`), read and
 * written in one transaction under a row lock: a restart neither repeats the notifications of
 * silences already told nor loses the counts the next growth is measured from, and a second
 * process running the check (two workers, each with its own listeners) waits for the first
 * instead of telling staff twice.
 */
import { and, eq, or } from "drizzle-orm";
import { systemState, users } from "~db/postgres/schema";
import type { BackgroundTask } from "~/server/lifecycle.server";
import { log } from "~/server/log.server";
import { notify } from "~/server/notifications/notifications.server";
import type { Db } from "~/server/postgres.server";
import type { Services } from "~/server/services.server";
import { exporterRows, inventoryExporters, inventoryMatch, listenerRows, listenerRunning, totalsByAddress } from "./data-sources.server";
import { decodeErrorLabel, formatCount, formatMinutes } from "./labels";

export const COLLECTOR_HEALTH_KEY = "collector_health";
export const CHECK_INTERVAL_MS = 60_000;
const SENT_WITHIN_MS = 24 * 60 * 60_000;
export const DECODE_ERRORS_MIN_JUMP = 100;
export const DECODE_ERRORS_SHARE = 0.01;

type ExporterMemory = {
  /** The last datagram of the silence staff were told about, ms; null when none is told. */
  silenceOf: number | null;
  datagrams: number;
  decodeErrors: Record<string, number>;
  /** The previous check found a decode error burst (told then). */
  burst: boolean;
};
type Memory = { exporters: Record<string, ExporterMemory> };

export type HealthOutcome = {
  /** Exporters (router name or address) staff were told about now. */
  silent: string[];
  decodeErrors: string[];
  /** Exporters whose told silence ended. */
  back: string[];
  /** False when no listener ran, so silences were not judged. */
  listening: boolean;
};

/**
 * Decode error reasons that are no burst: an element the decoder does not read is skipped in every
 * record of a template that has it (a vendor's own elements, counted per field), so its count grows
 * with the exporter's traffic, not with anything going wrong; a sampled frame that is not IP (ARP,
 * LLDP, STP sampled by a switch's sFlow) is the switch's ordinary traffic, its flow kept without
 * addresses. The Data sources page lists both.
 */
const NOT_A_BURST = new Set(["unknown-element", "header_not_ip"]);

const total = (counts: Record<string, number>) =>
  Object.entries(counts).reduce((sum, [reason, n]) => (NOT_A_BURST.has(reason) ? sum : sum + n), 0);

function readMemory(value: unknown): Memory {
  const exporters = (value as Memory | null)?.exporters;
  return { exporters: exporters && typeof exporters === "object" ? exporters : {} };
}

async function staffIds(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.isActive, true), or(eq(users.isStaff, true), eq(users.isSuperuser, true))));
  return rows.map((r) => r.id);
}

/** One check at `now`; notifies staff and remembers what it saw. */
export async function checkCollectorHealth(services: Pick<Services, "pg" | "config">, now = new Date()): Promise<HealthOutcome> {
  const silentAfterMs = services.config.FLOWS_SILENT_AFTER * 60_000;
  const outcome: HealthOutcome = { silent: [], decodeErrors: [], back: [], listening: false };
  await services.pg.db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await tx
      .insert(systemState)
      .values({ key: COLLECTOR_HEALTH_KEY, value: { exporters: {} } })
      .onConflictDoNothing();
    const [row] = await tx.select().from(systemState).where(eq(systemState.key, COLLECTOR_HEALTH_KEY)).for("update");
    const before = readMemory(row?.value);
    const [rows, inventory, listeners] = await Promise.all([exporterRows(tx), inventoryExporters(tx), listenerRows(tx)]);
    outcome.listening = listeners.some((l) => listenerRunning(l, now));
    const after: Memory = { exporters: {} };
    const tell: { title: string; message: string }[] = [];
    for (const t of totalsByAddress(rows)) {
      const name = inventoryMatch(inventory, { address: t.key, udpSources: t.udpSources })?.router ?? t.key;
      const shown = name === t.key ? t.key : `${name} (${t.key})`;
      const prev = before.exporters[t.key];
      const lastSeen = t.lastSeen.getTime();
      const quietMs = now.getTime() - lastSeen;
      let silenceOf = prev?.silenceOf ?? null;
      if (silenceOf !== null && lastSeen > silenceOf) {
        outcome.back.push(name);
        silenceOf = null;
      }
      if (outcome.listening && silenceOf === null && quietMs >= silentAfterMs && quietMs < SENT_WITHIN_MS) {
        silenceOf = lastSeen;
        outcome.silent.push(name);
        tell.push({
          title: `Exporter ${name} is silent`,
          message: `Nothing received from ${shown} for ${formatMinutes(quietMs / 60_000)} (FLOWS_SILENT_AFTER is ${
            services.config.FLOWS_SILENT_AFTER
          } minutes). See Site settings › Data sources.`,
        });
      }

      let burst = false;
      const errors = total(t.decodeErrors);
      if (prev) {
        const grew = errors - total(prev.decodeErrors ?? {});
        const sent = t.datagrams - (prev.datagrams ?? 0);
        // Counters that went back (rows removed, or started afresh) give a new baseline, not a burst.
        if (grew > 0 && sent >= 0 && grew > Math.max(DECODE_ERRORS_MIN_JUMP, DECODE_ERRORS_SHARE * sent)) {
          burst = true;
          if (!prev.burst) {
            outcome.decodeErrors.push(name);
            const reasons = Object.entries(t.decodeErrors)
              .map(([reason, n]) => [reason, n - (prev.decodeErrors?.[reason] ?? 0)] as const)
              .filter(([reason, n]) => n > 0 && !NOT_A_BURST.has(reason))
              .sort((a, b) => b[1] - a[1])
              .map(([reason, n]) => `${decodeErrorLabel(reason)}: ${formatCount(n)}`);
            tell.push({
              title: `Decode errors from ${name}`,
              message: `${formatCount(grew)} decode errors from ${shown} since the previous check, with ${formatCount(sent)} datagrams (${reasons.join(
                ", ",
              )}). See Site settings › Data sources.`,
            });
          }
        }
      }
      after.exporters[t.key] = { silenceOf, datagrams: t.datagrams, decodeErrors: t.decodeErrors, burst };
    }
    if (tell.length) {
      const staff = await staffIds(tx);
      for (const n of tell) await notify(tx, staff, { ...n, doPopUp: true });
    }
    await tx.update(systemState).set({ value: after, updatedAt: now }).where(eq(systemState.key, COLLECTOR_HEALTH_KEY));
  });
  return outcome;
}

let timer: ReturnType<typeof setInterval> | null = null;
let running: Promise<unknown> | null = null;

/**
 * Every minute in the process that runs the ingest components (lifecycle `where: "component
 * host"`). The first check waits a minute, so a collector that just started has written its
 * figures before silence is judged.
 */
export const collectorHealthTask: BackgroundTask = {
  where: "component host",
  start(services) {
    if (timer) return;
    timer = setInterval(() => {
      if (running) return;
      running = checkCollectorHealth(services)
        .then((o) => {
          if (o.silent.length || o.decodeErrors.length)
            log.info(
              `collector health: silent ${o.silent.join(", ") || "none"}; decode errors from ${o.decodeErrors.join(", ") || "none"}`,
            );
        })
        .catch((error) => log.warn(`collector health check failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => (running = null));
    }, CHECK_INTERVAL_MS);
    timer.unref();
  },
  async stop() {
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  },
};
