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
import { routers } from "~db/postgres/schema";
import { bmpStatusRows, bmpUnknownSourceRows } from "../bmp/status.server";
import { canonicalIp } from "../enrich/address";
import { exporterKeyOrText } from "../exporter-address";
import { listedUnknownSenders } from "../unknown-senders";
import { flowUtilState } from "../flow-util/flow-util.server";
import { confirmCapacityChange } from "../snmp/capacity-confirm.server";
import { snmpStatusRows } from "../snmp/status.server";
import {
  exporterRows,
  inventoryExporters,
  inventoryMatch,
  listenerRows,
  listenerRunning,
  otherUdpSources,
  totalsByAddress,
  type ExporterRow,
} from "./data-sources.server";
import {
  bmpMessageLabel,
  bmpPeerKindLabel,
  COMPONENT_VARIABLES,
  componentLabel,
  decodeErrorLabel,
  dropLabel,
  formatCount,
  formatMinutes,
  formatSamplingRate,
  protocolLabel,
  reasonCounts,
  ribViewLabel,
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
  const [settings, listeners, rows, inventory, snmpRows, flowUtil, bmpRows, bmpUnknown, loopbacks] = await Promise.all([
    getUserSettings(services.pg.db, user.id),
    listenerRows(services.pg.db),
    exporterRows(services.pg.db),
    inventoryExporters(services.pg.db),
    snmpStatusRows(services.pg.db),
    flowUtilState(services),
    bmpStatusRows(services.pg.db),
    bmpUnknownSourceRows(services.pg.db),
    services.pg.db.select({ loopback: routers.loopback }).from(routers),
  ]);
  const timezone = safeTimezone(settings.timezone);
  const date = (d: Date) => formatDateLongBare(d, timezone);
  const silentAfterMinutes = services.config.FLOWS_SILENT_AFTER;
  const silentFor = (lastSeen: Date) => {
    const minutes = (now.getTime() - lastSeen.getTime()) / 60_000;
    return minutes >= silentAfterMinutes ? `Silent for ${formatMinutes(minutes)}` : null;
  };

  const heard = new Set<string>();
  const matched = rows.map((row) => ({ row, match: inventoryMatch(inventory, row) }));
  const known = matched
    .filter(({ match }) => match !== null)
    .map(({ row, match }) => {
      heard.add(match!.key);
      const { router } = match!;
      const address = exporterKeyOrText(row.address);
      return {
        key: `${row.address} ${row.protocol} ${row.subAgentId}`,
        router,
        routerLink: routerLink(router),
        address,
        subAgent: row.protocol === "sflow5" ? formatCount(row.subAgentId) : null,
        udpSources: otherUdpSources(address, row.udpSources),
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
        subAgent: null as string | null,
        udpSources: [] as string[],
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

  const unknownTotals = totalsByAddress(matched.filter(({ match }) => match === null).map(({ row }) => row));
  const unknown = listedUnknownSenders(unknownTotals, (t) => t.key, now).map((t) => ({
    address: t.key,
    udpSources: t.udpSources,
    protocols: t.protocols.map(protocolLabel).join(", "),
    packets: formatCount(t.datagrams),
    firstSeen: date(t.firstSeen),
    lastSeen: date(t.lastSeen),
    ifIndexes: t.ifIndexes.join(", "),
    adoptLink: adoptLink(t.key),
  }));

  const listed = listeners
    .filter((l) => l.component !== "bmp")
    .map((l) => ({
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

  const bmp = bmpSection(bmpRows, bmpUnknown, listeners, {
    date,
    now,
    // An address adopted since it was refused leaves the list, though the router has not streamed yet.
    known: new Set([...inventory.keys(), ...loopbacks.map((r) => canonicalIp(r.loopback) ?? r.loopback)]),
  });

  return {
    timezone,
    silentAfterMinutes,
    snmp,
    bmp,
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

type Figures = { label: string; count: string }[];

/** { key: n } as labelled counts in the catalogue's order (or by label), zero counts left out. */
function figures(counts: Record<string, number>, label: (key: string) => string, order: readonly string[] = []): Figures {
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return Object.entries(counts)
    .filter(([, n]) => typeof n === "number" && Number.isFinite(n) && n > 0)
    .sort(([a], [b]) => rank(a) - rank(b) || label(a).localeCompare(label(b)))
    .map(([key, n]) => ({ label: label(key), count: formatCount(n) }));
}

const VIEW_ORDER = ["post-policy", "loc-rib", "pre-policy"];
const MESSAGE_ORDER = ["route-monitoring", "peer-up", "peer-down", "statistics-report", "initiation", "termination", "route-mirroring"];

/**
 * The BMP section: the station's listener, per router its session (up since, or closed and why),
 * the names it gave, its peers, current routes per RIB view, messages per type, decode errors, what
 * was skipped and the last error; then every peer; then the sources refused to adopt.
 */
function bmpSection(
  rows: Awaited<ReturnType<typeof bmpStatusRows>>,
  unknown: Awaited<ReturnType<typeof bmpUnknownSourceRows>>,
  listeners: Awaited<ReturnType<typeof listenerRows>>,
  options: { date: (d: Date) => string; now: Date; known: Set<string> },
) {
  const { date, now } = options;
  const stations = listeners
    .filter((l) => l.component === "bmp")
    .map((l) => ({
      key: `${l.address} ${l.host} ${l.pid}`,
      address: l.address,
      host: `${l.host} (pid ${l.pid})`,
      since: date(l.startedAt),
      running: listenerRunning(l, now),
      heartbeat: date(l.heartbeatAt),
    }));
  const routerRows = rows.map((r) => {
    const up = r.state === "up";
    const peersUp = up ? r.peers.filter((p) => p.state === "up").length : 0;
    return {
      router: r.router,
      routerLink: routerLink(r.router),
      address: r.address,
      vantagePoint: r.vantagePoint,
      up,
      session: up
        ? `Up since ${date(r.sessionStartedAt)}`
        : `Closed at ${date(r.sessionClosedAt ?? r.updatedAt)}${r.closeReason ? ` (${r.closeReason})` : ""}${
            r.routesWithdrawn ? "; its routes were withdrawn" : ""
          }`,
      sessions: formatCount(r.sessions),
      system: [r.sysName, r.sysDescr].filter(Boolean).join(" — "),
      peers: up ? `${formatCount(peersUp)} of ${formatCount(r.peers.length)} up` : "Session closed",
      routes: figures(r.routes, ribViewLabel, VIEW_ORDER),
      routesCountedAt: r.routesCountedAt ? date(r.routesCountedAt) : null,
      messages: figures(r.messages, bmpMessageLabel, MESSAGE_ORDER),
      decodeErrors: formatCount(r.decodeErrors),
      skipped: figures(r.skipped, (what) => what),
      lastError: r.lastError && r.lastErrorAt ? `${date(r.lastErrorAt)}: ${r.lastError}` : null,
    };
  });
  const peers = rows.flatMap((r) =>
    r.peers.map((p) => ({
      key: `${r.router} ${p.peerType} ${p.address} ${p.distinguisher}`,
      router: r.router,
      address: p.address,
      asn: `AS${p.asn}`,
      kind: bmpPeerKindLabel(p.peerType, p.distinguisher),
      views: p.views.map(ribViewLabel).join(", ") || "–",
      state:
        r.state !== "up"
          ? "Session closed"
          : p.state === "up"
            ? `Up since ${p.upSince ? date(new Date(p.upSince)) : "the session began"}`
            : `Down since ${p.downAt ? date(new Date(p.downAt)) : "–"}${p.downReason ? `: ${p.downReason}` : ""}`,
      down: r.state === "up" && p.state !== "up",
      routes: figures(r.peerRoutes[p.address] ?? {}, ribViewLabel, VIEW_ORDER),
      statistics: Object.entries(p.statistics).map(([name, value]) => `${name}: ${formatCount(value)}`),
      statisticsAt: p.statisticsAt ? date(new Date(p.statisticsAt)) : null,
    })),
  );
  const toAdopt = listedUnknownSenders(
    unknown.filter((u) => !options.known.has(u.address)),
    (u) => u.address,
    now,
  ).map((u) => ({
    address: u.address,
    attempts: formatCount(u.attempts),
    firstSeen: date(u.firstSeen),
    lastSeen: date(u.lastSeen),
    adoptLink: adoptLink(u.address),
  }));
  return { stations, running: stations.some((s) => s.running), routers: routerRows, peers, unknown: toAdopt };
}

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
