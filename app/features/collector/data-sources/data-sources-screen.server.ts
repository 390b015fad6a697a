/**
 * The /site-settings/data-sources screen: which collector listeners run, what every exporter in
 * the inventory sent (datagrams, flows, what was stored, decode errors, drops, sampling, clock),
 * and the exporters that send but are in no router's exporter addresses yet, each with an "Adopt"
 * link to the inventory's new-router form prefilled from it (inventory-screen.server.ts, `adopt`).
 * Read only, so no action; GET parameters are not used, and any given are ignored.
 */
import { data, redirect } from "@remix-run/node";
import { formatDateLongBare, safeTimezone } from "~/lib/date-format";
import { formatBitsPerSecond } from "~/lib/units";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { getUserSettings } from "~/server/settings/user-settings.server";
import { exporterKeyOrText } from "../exporter-address";
import { flowUtilState } from "../flow-util/flow-util.server";
import { confirmCapacityChange } from "../snmp/capacity-confirm.server";
import { snmpStatusRows } from "../snmp/status.server";
import { exporterRows, inventoryExporters, listenerRows, listenerRunning, totalsByAddress, type ExporterRow } from "./data-sources.server";
import {
  COMPONENT_VARIABLES,
  componentLabel,
  decodeErrorLabel,
  dropLabel,
  formatCount,
  formatMinutes,
  formatSamplingRate,
  protocolLabel,
  reasonCounts,
  SNMP_ERROR_LABELS,
} from "./labels";

export const DATA_SOURCES_PATH = "/site-settings/data-sources";
const INVENTORY_PATH = "/site-settings/inventory";

const routerLink = (name: string) => `${INVENTORY_PATH}?${new URLSearchParams({ router: name })}`;
export const adoptLink = (address: string) => `${INVENTORY_PATH}?${new URLSearchParams({ adopt: address })}`;

function clockSkewText(row: ExporterRow): string | null {
  if (!row.clockSkewed) return null;
  const seconds = Math.round(Math.abs(row.clockSkewMs ?? 0) / 1000);
  return `Clock off by ${formatCount(seconds)} s: flows timed by arrival`;
}

const CAPACITY_NOTICES: Record<string, string> = {
  applied: "The device's capacity is now the inventory's.",
  stale: "That capacity change is no longer listed (a later poll or another person changed it); nothing was applied.",
};

export async function loadDataSourcesScreen(
  services: Pick<Services, "pg" | "config">,
  user: Pick<UserContext, "id">,
  now = new Date(),
  url?: URL,
) {
  const [settings, listeners, rows, inventory, snmpRows, flowUtil] = await Promise.all([
    getUserSettings(services.pg.db, user.id),
    listenerRows(services.pg.db),
    exporterRows(services.pg.db),
    inventoryExporters(services.pg.db),
    snmpStatusRows(services.pg.db),
    flowUtilState(services),
  ]);
  const timezone = safeTimezone(settings.timezone);
  const date = (d: Date) => formatDateLongBare(d, timezone);
  const silentAfterMinutes = services.config.FLOWS_SILENT_AFTER;
  const silentFor = (lastSeen: Date) => {
    const minutes = (now.getTime() - lastSeen.getTime()) / 60_000;
    return minutes >= silentAfterMinutes ? `Silent for ${formatMinutes(minutes)}` : null;
  };

  const heard = new Set<string>();
  const known = rows
    .filter((row) => inventory.has(exporterKeyOrText(row.address)))
    .map((row) => {
      const key = exporterKeyOrText(row.address);
      heard.add(key);
      const router = inventory.get(key)!;
      return {
        key: `${row.address} ${row.protocol}`,
        router,
        routerLink: routerLink(router),
        address: key,
        protocol: protocolLabel(row.protocol),
        datagrams: formatCount(row.datagrams),
        flows: formatCount(row.flows),
        stored: formatCount(row.flowsStored),
        decodeErrors: reasonCounts(row.decodeErrors, decodeErrorLabel),
        templateMisses: formatCount(row.templateMisses),
        drops: reasonCounts(row.drops, dropLabel),
        samplingRates: [...new Set(row.samplingRates ?? [])].sort((a, b) => a - b).map(formatSamplingRate),
        lastPacket: date(row.lastSeen) as string | null,
        clockSkew: clockSkewText(row),
        silent: silentFor(row.lastSeen),
      };
    });
  // Exporter addresses of the inventory that nothing was received from yet: listed, so a typo shows.
  for (const [key, router] of inventory)
    if (!heard.has(key))
      known.push({
        key,
        router,
        routerLink: routerLink(router),
        address: key,
        protocol: "",
        datagrams: "0",
        flows: "0",
        stored: "0",
        decodeErrors: [],
        templateMisses: "0",
        drops: [],
        samplingRates: [],
        lastPacket: null,
        clockSkew: null,
        silent: null,
      });
  known.sort((a, b) => a.router.localeCompare(b.router) || a.address.localeCompare(b.address) || a.protocol.localeCompare(b.protocol));

  const unknown = totalsByAddress(rows.filter((row) => !inventory.has(exporterKeyOrText(row.address)))).map((t) => ({
    address: t.key,
    protocols: t.protocols.map(protocolLabel).join(", "),
    packets: formatCount(t.datagrams),
    firstSeen: date(t.firstSeen),
    lastSeen: date(t.lastSeen),
    ifIndexes: t.ifIndexes.join(", "),
    adoptLink: adoptLink(t.key),
  }));

  const listed = listeners.map((l) => ({
    key: `${l.component} ${l.address} ${l.host} ${l.pid}`,
    component: componentLabel(l.component),
    address: l.address,
    host: `${l.host} (pid ${l.pid})`,
    since: date(l.startedAt),
    running: listenerRunning(l, now),
    heartbeat: date(l.heartbeatAt),
  }));

  // SNMP: a router failing now is one whose last poll failed (failures in a row > 0).
  const snmp = snmpRows.map((r) => ({
    router: r.router,
    routerLink: routerLink(r.router),
    target: `${r.address}:${r.port}`,
    version: r.version === "3" ? "SNMPv3" : "SNMP v2c",
    lastPoll: r.lastPollAt ? date(r.lastPollAt) : null,
    lastSuccess: r.lastSuccessAt ? date(r.lastSuccessAt) : null,
    failing: r.failures > 0,
    failures: r.failures,
    lastError:
      r.lastErrorAt && r.lastErrorKind
        ? { at: date(r.lastErrorAt), kind: SNMP_ERROR_LABELS[r.lastErrorKind] ?? r.lastErrorKind, text: r.lastError ?? "" }
        : null,
    interfacesPolled: formatCount(r.interfacesPolled),
    missing: r.interfacesMissing,
    capacityChanges: r.capacityChanges.map((c) => ({
      interface: c.interface,
      deviceBps: c.device_bps,
      text: `${c.interface}: ${formatBitsPerSecond(c.device_bps)} on the device, ${formatBitsPerSecond(c.inventory_bps)} in the inventory`,
    })),
  }));

  return {
    timezone,
    silentAfterMinutes,
    snmp,
    capacityNotice: CAPACITY_NOTICES[url?.searchParams.get("capacity") ?? ""] ?? null,
    // The end of the last 5-minute interval the flow-derived utilisation wrote (its watermark).
    flowUtil: {
      on: services.config.FLOWS_UTIL === "on",
      through: flowUtil ? date(new Date(flowUtil.through * 1000)) : null,
    },
    listeners: listed,
    anyRunning: listed.some((l) => l.running),
    listenVariables: Object.entries(COMPONENT_VARIABLES).map(([component, variable]) => ({ variable, label: componentLabel(component) })),
    known,
    unknown,
  };
}

export type DataSourcesScreen = Awaited<ReturnType<typeof loadDataSourcesScreen>>;

/** POST /site-settings/data-sources intent=confirm-capacity: staff apply a device's capacity to the inventory (PRG). */
export async function dataSourcesAction(
  services: Services,
  user: { id: number; email: string },
  form: FormData,
  clientAddress: string | null,
) {
  if (form.get("intent") !== "confirm-capacity") throw data({ detail: "Unknown action." }, { status: 400 });
  const router = String(form.get("router") ?? "");
  const iface = String(form.get("interface") ?? "");
  const deviceBps = Number(form.get("deviceBps"));
  if (!router || !iface || !Number.isSafeInteger(deviceBps) || deviceBps <= 0)
    throw data({ detail: "The router, interface and capacity of the change are required." }, { status: 400 });
  const outcome = await confirmCapacityChange(services.pg.db, user, { router, interface: iface, deviceBps }, clientAddress);
  return redirect(`/site-settings/data-sources?capacity=${outcome}`);
}
