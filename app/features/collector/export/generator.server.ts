/**
 * The `flows-generator` ingest component: sends NetFlow v9 for every router of the inventory to a
 * collector (FLOWS_GENERATOR_TARGET), so the whole path — UDP, decoding, enrichment, storage, the
 * screens — can be seen working without a router, on the demo network or on an operator's own
 * inventory (to try a collector before pointing routers at it).
 *
 * Each router exports from its first exporter address of the target's family when this machine
 * has that address (on Linux every 127.0.0.0/8 address is local, which the demo's exporters use),
 * so the collector sees the router the inventory names; otherwise its flows leave from the default
 * address, and the collector sees another exporter (logged once per router). Flows come from
 * flow-model.ts, packets from netflow9-writer.ts; the inventory is read again every minute and the
 * routing table every ten, so edits show without a restart.
 */
import { createSocket, type Socket } from "node:dgram";
import { once } from "node:events";
import { lookup } from "node:dns/promises";
import { formatIpAddress, ipVersion, parseIpAddress } from "~/lib/ip";
import { chQuery } from "~/server/clickhouse/query.server";
import type { ComponentContext, ComponentEnv, ComponentHealth, IngestComponent } from "~/server/components/contract.server";
import { ConfigError } from "~/server/env.server";
import type { Services } from "~/server/services.server";
import { listInventoryVantagePoints, listRouters, type RouterView } from "~/features/inventory/inventory.server";
import { parseReplayTarget, type ReplayTarget } from "../pcap/replay.server";
import { buildNetworkModel, seededRandom, type ModelRouter, type NetworkModel, type Random, type RibRoute } from "./flow-model";
import { Netflow9Writer, type ExportFlow } from "./netflow9-writer";
import { ribSampleRow, ribSampleStatement, type RibSampleRow } from "./rib-sample-sql";

export const GENERATOR_NAME = "flows-generator";
export const DEFAULT_RATE = 200;
/** Beyond this a generator would compete with the collector it feeds for the same CPU. */
export const MAX_RATE = 20_000;

export type GeneratorSettings = { target: ReplayTarget; rate: number };

export type GeneratorOptions = {
  /** Seed of the flows' random source; default: the start time, so restarts do not repeat the same flows. */
  seed?: number;
  /** How often flows are made and the export buffers looked at. */
  tickMs?: number;
  /** How often the inventory is read again. */
  inventoryRefreshMs?: number;
  /** How often the routing table is read again. */
  ribRefreshMs?: number;
};

const TICK_MS = 100;
const INVENTORY_REFRESH_MS = 60_000;
const RIB_REFRESH_MS = 600_000;
/** An export buffer is sent when it holds this many flows or its oldest flow waited this long, as routers do. */
const FLUSH_FLOWS = 20;
const FLUSH_AFTER_MS = 1_000;

export function generatorSettings(env: ComponentEnv): GeneratorSettings | null {
  const targetText = env.get("TARGET");
  const rateText = env.get("RATE");
  if (targetText === undefined) {
    if (rateText !== undefined)
      throw new ConfigError(`Invalid configuration:\n  ${env.prefix}RATE: is set, but ${env.prefix}TARGET is not`);
    return null;
  }
  const target = parseReplayTarget(targetText);
  if (!target)
    throw new ConfigError(
      `Invalid configuration:\n  ${env.prefix}TARGET: expected host:port or [IPv6]:port of a flow collector, port 1-65535 (got "${targetText}")`,
    );
  let rate = DEFAULT_RATE;
  if (rateText !== undefined) {
    rate = /^\d{1,9}$/.test(rateText.trim()) ? Number(rateText.trim()) : NaN;
    if (!(rate >= 1 && rate <= MAX_RATE))
      throw new ConfigError(
        `Invalid configuration:\n  ${env.prefix}RATE: expected a whole number of flows per second from 1 to ${MAX_RATE} (got "${rateText}")`,
      );
  }
  return { target, rate };
}

/** 127.0.0.0/8 and ::1. */
function isLoopback(address: string): boolean {
  const parsed = parseIpAddress(address);
  if (!parsed) return false;
  return parsed.version === 4 ? parsed.value >> 24n === 127n : parsed.value === 1n;
}

/** One router as the generator exports it: its writer (sequence, templates) and the socket its packets leave from. */
type Exporter = {
  routerId: number;
  writer: Netflow9Writer;
  /** The address the socket is bound to, or null: the default socket. */
  source: string | null;
  socket: Socket;
  pending: ExportFlow[];
  pendingSinceMs: number;
};

function toModelRouter(router: RouterView): ModelRouter {
  return {
    name: router.name,
    interfaces: router.interfaces.map((i) => ({
      ifindex: i.ifindex,
      kind: i.kind,
      peering: i.peering,
      neighbourAs: i.neighbour_as,
      capacity: i.capacity,
      remoteRouter: i.remote?.router ?? null,
    })),
  };
}

export function createFlowsGenerator(options: GeneratorOptions = {}): IngestComponent<GeneratorSettings> {
  const tickMs = options.tickMs ?? TICK_MS;
  const inventoryRefreshMs = options.inventoryRefreshMs ?? INVENTORY_REFRESH_MS;
  const ribRefreshMs = options.ribRefreshMs ?? RIB_REFRESH_MS;

  let context: ComponentContext<GeneratorSettings> | null = null;
  let services: Services | null = null;
  let target: { address: string; port: number; family: 4 | 6; text: string } | null = null;
  let random: Random = seededRandom(0);
  let model: NetworkModel | null = null;
  let routers: RouterView[] = [];
  let ribRows: RibSampleRow[] = [];
  let ribLoadedAtMs = -Infinity;
  let inventoryLoadedAtMs = -Infinity;
  const exporters = new Map<string, Exporter>();
  /** What has been said once: a router's source address, the documentation ranges, send errors. */
  const told = new Set<string>();
  let defaultSocket: Socket | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let busy: Promise<void> = Promise.resolve();
  let owed = 0;
  let lastTickMs = 0;
  let sendErrors = 0;

  const tellOnce = (key: string, say: () => void) => {
    if (told.has(key)) return;
    told.add(key);
    say();
  };

  function countSendError(error: Error) {
    sendErrors += 1;
    context?.metrics.increment("send_errors");
    tellOnce(`send-error:${error.message}`, () =>
      context?.log.warn(`sending to ${target?.text} failed: ${error.message} (counted in send_errors)`),
    );
  }

  async function openSocket(address: string | null): Promise<Socket> {
    const socket = createSocket(target!.family === 6 ? "udp6" : "udp4");
    await new Promise<void>((resolve, reject) => {
      const failed = (error: Error) => {
        socket.close();
        reject(error);
      };
      socket.once("error", failed);
      socket.bind({ address: address ?? undefined, port: 0, exclusive: true }, () => {
        socket.off("error", failed);
        resolve();
      });
    });
    // Errors of a socket in use (e.g. ICMP unreachable reported by the system) are counted, never thrown.
    socket.on("error", countSendError);
    return socket;
  }

  async function defaultSocketOf(): Promise<Socket> {
    defaultSocket ??= await openSocket(null);
    return defaultSocket;
  }

  /** The source address a router's packets should leave from, or null with the reason told once. */
  function sourceFor(router: RouterView): string | null {
    const family = target!.family;
    const address = router.exporters.find((a) => ipVersion(a) === family);
    if (!address) {
      tellOnce(`source:${router.name}:none`, () =>
        context?.log.warn(
          `router ${router.name} has no IPv${family} exporter address; its flows leave from this machine's default address, so the collector sees them as another exporter`,
        ),
      );
      return null;
    }
    // A loopback source cannot reach another machine: the system would drop the packets.
    if (isLoopback(address) && !isLoopback(target!.address)) {
      tellOnce(`source:${router.name}:loopback`, () =>
        context?.log.warn(
          `router ${router.name} exports from ${address}, a loopback address that cannot reach ${target!.text}; its flows leave from the default address, so the collector sees them as another exporter`,
        ),
      );
      return null;
    }
    return address;
  }

  async function exporterFor(router: RouterView, nowMs: number): Promise<Exporter> {
    const wanted = sourceFor(router);
    const existing = exporters.get(router.name);
    if (existing && existing.routerId === router.id && existing.source === wanted) return existing;
    if (existing) await closeExporter(existing);
    let source = wanted;
    let socket: Socket;
    try {
      socket = source === null ? await defaultSocketOf() : await openSocket(source);
    } catch (error) {
      tellOnce(`source:${router.name}:${source}:bind`, () =>
        context?.log.warn(
          `router ${router.name} exports from ${source}, which is not an address of this machine (${error instanceof Error ? error.message : String(error)}); its flows leave from the default address, so the collector sees them as another exporter`,
        ),
      );
      source = null;
      socket = await defaultSocketOf();
    }
    if (source !== null)
      tellOnce(`source:${router.name}:${source}:ok`, () => context?.log.info(`router ${router.name} exports from ${source}`));
    // Uptime as if the router booted some days ago: the counter's arithmetic is then exercised as on a real one.
    const bootTimeMs = nowMs - (1 + (router.id % 20)) * 86_400_000;
    const exporter: Exporter = {
      routerId: router.id,
      writer: new Netflow9Writer({ sourceId: router.id, bootTimeMs }),
      source,
      socket,
      pending: [],
      pendingSinceMs: 0,
    };
    exporters.set(router.name, exporter);
    return exporter;
  }

  async function closeExporter(exporter: Exporter) {
    if (exporter.socket === defaultSocket) return;
    exporter.socket.close();
    await once(exporter.socket, "close");
  }

  async function loadRib(stores: Services) {
    ribRows = await chQuery(stores.ch, { ...ribSampleStatement(), schema: ribSampleRow });
    ribLoadedAtMs = Date.now();
  }

  /** Reads the inventory (and, when due, the routing table) and rebuilds the model and the exporters. */
  async function refresh(stores: Services, nowMs: number) {
    const [routerViews, vantagePoints] = await Promise.all([listRouters(stores), listInventoryVantagePoints(stores)]);
    if (nowMs - ribLoadedAtMs >= ribRefreshMs) await loadRib(stores);
    inventoryLoadedAtMs = nowMs;
    routers = routerViews;
    const byVantagePoint = new Map<string, RibRoute[]>();
    const all: RibRoute[] = [];
    for (const row of ribRows) {
      const route = { prefix: row.prefix, asPath: row.as_path.map(Number), nextHop: row.bgp_next_hop || null };
      all.push(route);
      if (!byVantagePoint.has(row.vantage_point)) byVantagePoint.set(row.vantage_point, []);
      byVantagePoint.get(row.vantage_point)!.push(route);
    }
    const tableOf = new Map<string, RibRoute[]>();
    for (const vp of vantagePoints) {
      const routes = byVantagePoint.get(vp.key);
      if (routes?.length && !tableOf.has(vp.router)) tableOf.set(vp.router, routes);
    }
    model = buildNetworkModel(routers.map(toModelRouter), (name) => tableOf.get(name) ?? all);
    for (const name of model.withoutInterfaces)
      tellOnce(`no-interfaces:${name}`, () => context?.log.warn(`router ${name} has no interface in the inventory; no flows for it`));
    if (model.remoteFromDocumentation)
      tellOnce("remote-documentation", () =>
        context?.log.warn("the routing table is empty: remote addresses come from documentation ranges"),
      );
    if (model.ownFromDocumentation)
      tellOnce("own-documentation", () =>
        context?.log.warn(
          "the routing table has no locally originated prefix of a family: the operator's side comes from documentation ranges",
        ),
      );
    const current = new Set(model.routers);
    for (const [name, exporter] of exporters) {
      if (current.has(name)) continue;
      exporters.delete(name);
      await closeExporter(exporter);
    }
    for (const router of routers) if (current.has(router.name)) await exporterFor(router, nowMs);
  }

  function send(exporter: Exporter, packet: Uint8Array): Promise<void> {
    return new Promise((resolve) =>
      exporter.socket.send(packet, target!.port, target!.address, (error) => {
        if (error) countSendError(error);
        else {
          context?.metrics.increment("datagrams");
          context?.metrics.increment("bytes", packet.length);
        }
        resolve();
      }),
    );
  }

  async function tick() {
    const stores = services!;
    const nowMs = Date.now();
    if (nowMs - inventoryLoadedAtMs >= inventoryRefreshMs) {
      try {
        await refresh(stores, nowMs);
      } catch (error) {
        // The last model keeps going: a store that does not answer for a while must not stop the flows.
        inventoryLoadedAtMs = nowMs;
        context?.log.warn(`reading the inventory or the routing table failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (!model || !model.routers.length) return;
    // After a stall (a busy machine, a slow refresh), at most one second is made up: never a burst.
    const rate = context!.settings.rate;
    owed = Math.min(owed + (rate * (nowMs - lastTickMs)) / 1000, rate);
    lastTickMs = nowMs;
    const count = Math.floor(owed);
    owed -= count;
    for (let i = 0; i < count; i++) {
      const name = model.pickRouter(random);
      const exporter = exporters.get(name);
      if (!exporter) continue;
      if (!exporter.pending.length) exporter.pendingSinceMs = nowMs;
      exporter.pending.push(model.flow(name, random, nowMs));
    }
    context?.metrics.increment("flows", count);
    for (const exporter of exporters.values()) {
      const due =
        exporter.pending.length >= FLUSH_FLOWS || (exporter.pending.length > 0 && nowMs - exporter.pendingSinceMs >= FLUSH_AFTER_MS);
      // With nothing due the writer still gives a packet of templates when their refresh is due.
      const packets = exporter.writer.write(due ? exporter.pending : [], nowMs);
      if (due) exporter.pending = [];
      // One after the other: the order is the sequence, and the socket buffer stays bounded.
      for (const packet of packets) await send(exporter, packet);
    }
  }

  function schedule() {
    if (!running) return;
    timer = setTimeout(() => {
      busy = tick()
        .catch((error) => context?.log.error(`generating flows failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(schedule);
    }, tickMs);
  }

  return {
    name: GENERATOR_NAME,
    configure: generatorSettings,
    async start(stores, ctx) {
      context = ctx;
      services = stores;
      const { host, port, family } = ctx.settings.target;
      let address: string;
      try {
        address = ipVersion(host) ? formatIpAddress(parseIpAddress(host)!) : (await lookup(host, { family })).address;
      } catch (error) {
        throw new Error(
          `FLOWS_GENERATOR_TARGET ${host}: the name does not resolve (${error instanceof Error ? error.message : String(error)})`,
        );
      }
      target = { address, port, family, text: family === 6 ? `[${address}]:${port}` : `${address}:${port}` };
      random = seededRandom(options.seed ?? Date.now());
      told.clear();
      sendErrors = 0;
      owed = 0;
      await refresh(stores, Date.now());
      lastTickMs = Date.now();
      running = true;
      schedule();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await busy;
      for (const exporter of exporters.values()) await closeExporter(exporter);
      exporters.clear();
      if (defaultSocket) {
        defaultSocket.close();
        await once(defaultSocket, "close");
        defaultSocket = null;
      }
      model = null;
    },
    health(): ComponentHealth {
      if (!running || !target || !context) return { ok: false, detail: "not running" };
      const count = model?.routers.length ?? 0;
      if (!count) return { ok: false, detail: `no router with interfaces in the inventory; nothing sent to ${target.text}` };
      const errors = sendErrors ? `; ${sendErrors} send errors` : "";
      return { ok: true, detail: `sending ${context.settings.rate} flows/s of ${count} routers to ${target.text}${errors}` };
    },
  };
}

/** The instance the app registers (app/wiring.server.ts). */
export const flowsGenerator = createFlowsGenerator();
