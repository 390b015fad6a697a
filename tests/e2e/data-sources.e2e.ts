// The Data sources page in the browser, with JavaScript on and off, against an app server of this file's own: its
// PostgreSQL is seeded before the start with what a collector would have written (exporters not in the inventory, one
// router's exporter with figures), since the shared server of the run has no collector to send to. Staff reach the page
// from the site settings, adopt an exporter in two clicks ("Adopt", then "Add the router" on the prefilled form) and find
// it among the inventory's exporters; the router's SNMP polls (seeded as failing) are listed with their figures; the page
// passes axe and fits a phone's width (screenshots of both are kept).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import {
  bmpRouterStatus,
  bmpUnknownSources,
  collectorExporters,
  collectorListeners,
  routers,
  snmpPollStatus,
  systemState,
  users,
} from "~db/postgres/schema";
import { createRouter } from "~/features/inventory/inventory.server";
import { hashPassword } from "~/server/password.server";
import { openPostgres } from "~/server/postgres.server";
import { describeBothModes, newPage, screenshot, type BrowserMode } from "./browser";
import { logIn } from "./login";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const AXE = path.join(ROOT, "node_modules/axe-core/axe.min.js");
const STAFF = { email: "staff@sources.example", password: "data-sources-staff-password" };
const EXPORTER = { js: "192.0.2.77", nojs: "192.0.2.78" };
const BMP_SOURCE = { js: "203.0.113.61", nojs: "203.0.113.62" };
let base = "";
let server: ChildProcess | null = null;
let dataDir = "";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** What a collector would have written, and a staff user, into the PostgreSQL the server will open. */
async function seed(dir: string) {
  const pg = await openPostgres({ dataDir: dir });
  try {
    await pg.db.insert(users).values({
      email: STAFF.email,
      firstName: "Staff",
      passwordHash: await hashPassword(STAFF.password),
      isStaff: true,
      hasConsented: true,
      consentedAt: new Date(),
    });
    await createRouter(
      { pg, config: { INVENTORY_SECRET_KEY: undefined } as never },
      { name: "fra1-r1", city: "Frankfurt", country: "Germany", loopback: "198.51.100.1", exporters: ["192.0.2.1"] },
    );
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
    // The router is polled by SNMP (its community is not needed for the page) and its last two polls timed out.
    const [router] = await pg.db
      .update(routers)
      .set({ snmpVersion: "2c" })
      .where(eq(routers.name, "fra1-r1"))
      .returning({ id: routers.id });
    await pg.db.insert(snmpPollStatus).values({
      routerId: router.id,
      lastPollAt: minutesAgo(2),
      lastSuccessAt: minutesAgo(12),
      lastErrorAt: minutesAgo(2),
      lastErrorKind: "timeout",
      lastError: "No answer (time-out)",
      failures: 2,
      failureTold: true,
      interfacesPolled: 48,
      interfacesMissing: ["et-0/0/9"],
      capacityChanges: [{ interface: "ae0", inventory_bps: 40e9, device_bps: 30e9 }],
    });
    // The flow-derived utilisation wrote up to ten minutes ago (its runs only move this forward).
    await pg.db.insert(systemState).values({ key: "flows_util", value: { through: Math.floor(Date.now() / 300_000) * 300 - 600 } });
    // A listener of a process that ended two hours ago: listed as not running.
    await pg.db.insert(collectorListeners).values({
      component: "flows-netflow",
      address: "0.0.0.0:2055",
      host: "collector1",
      pid: 4242,
      startedAt: minutesAgo(600),
      heartbeatAt: minutesAgo(120),
    });
    await pg.db.insert(collectorExporters).values([
      {
        address: "192.0.2.1",
        protocol: "ipfix",
        firstSeen: minutesAgo(600),
        lastSeen: minutesAgo(1),
        datagrams: 2_345_678,
        flows: 12_345_678,
        flowsStored: 12_345_000,
        templateMisses: 42,
        decodeErrors: { truncated: 17 },
        drops: { queue_full: 678 },
        samplingRates: [1000],
        clockSkewed: true,
        clockSkewMs: 125_000,
      },
      // The listener of an IPv6 socket writes IPv4 senders mapped.
      {
        address: `::ffff:${EXPORTER.js}`,
        protocol: "netflow9",
        firstSeen: minutesAgo(90),
        lastSeen: minutesAgo(2),
        datagrams: 1_234,
        unknownIfIndexes: [5, 9],
      },
      {
        address: EXPORTER.nojs,
        protocol: "sflow5",
        firstSeen: minutesAgo(80),
        lastSeen: minutesAgo(3),
        datagrams: 4_321,
        unknownIfIndexes: [11],
      },
      // sFlow agents heard through another address: one through fra1-r1's exporter address (a relay), one through a NAT.
      { address: "10.60.0.1", protocol: "sflow5", subAgentId: 2, udpSources: ["192.0.2.1"], lastSeen: minutesAgo(1), datagrams: 66 },
      { address: "10.61.0.1", protocol: "sflow5", udpSources: ["203.0.113.161"], lastSeen: minutesAgo(1), datagrams: 61 },
    ]);
    // What a BMP station wrote: fra1-r1 streams with two peers (one down), and two addresses were refused.
    await pg.db.insert(bmpRouterStatus).values({
      routerId: router.id,
      vantagePoint: "fra1",
      address: "198.51.100.1",
      station: "station1 (pid 4343)",
      state: "up",
      sysName: "fra1-r1.example.net",
      sysDescr: "Example OS 7.4",
      sessions: 2,
      sessionStartedAt: minutesAgo(30),
      peers: [
        {
          address: "192.0.2.7",
          asn: 64501,
          bgpId: "192.0.2.7",
          peerType: 0,
          distinguisher: "",
          views: ["post-policy", "pre-policy"],
          state: "up",
          upSince: minutesAgo(29).toISOString(),
          downAt: null,
          downReason: null,
          statistics: { "Routes in Adj-RIB-In": 912_345 },
          statisticsAt: minutesAgo(1).toISOString(),
        },
        {
          address: "192.0.2.8",
          asn: 64502,
          bgpId: "192.0.2.8",
          peerType: 1,
          distinguisher: "64500:7",
          views: ["post-policy"],
          state: "down",
          upSince: null,
          downAt: minutesAgo(4).toISOString(),
          downReason: "The peer closed the session with a NOTIFICATION: Cease, Administrative Shutdown (6/2)",
          statistics: {},
          statisticsAt: null,
        },
      ],
      messages: { "route-monitoring": 1_234_567, "peer-up": 2, "peer-down": 1, initiation: 1 },
      decodeErrors: 3,
      skipped: { "EVPN messages (not stored)": 17 },
      routes: { "post-policy": 912_345, "pre-policy": 950_000, "loc-rib": 0 },
      peerRoutes: { "192.0.2.7": { "post-policy": 912_345, "pre-policy": 950_000 } },
      routesCountedAt: minutesAgo(1),
      lastError: "route-monitoring message: attribute length beyond the UPDATE",
      lastErrorAt: minutesAgo(7),
    });
    await pg.db.insert(bmpUnknownSources).values([
      { address: BMP_SOURCE.js, firstSeen: minutesAgo(60), lastSeen: minutesAgo(5), attempts: 14 },
      { address: BMP_SOURCE.nojs, firstSeen: minutesAgo(50), lastSeen: minutesAgo(6), attempts: 3 },
    ]);
  } finally {
    await pg.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(process.env.E2E_TMPDIR || tmpdir(), "flowlens-e2e-sources-"));
  await seed(dataDir);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith("VITEST") || k === "TEST") delete env[k];
  delete env.DATABASE_URL;
  Object.assign(env, { PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, NODE_ENV: "production", DEMO_DATA: "off" });
  const child = spawn(process.execPath, ["server.mjs", "build/server/index.js"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  server = child;
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the app server exited during start:\n${output}`);
    const ok = await fetch(`${base}/healthz`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) break;
    if (i > 600) throw new Error(`the app server did not answer /healthz within 5 minutes:\n${output}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}, 600_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (server.exitCode === null) server.kill("SIGKILL");
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

/** Serious and critical WCAG 2.1 AA findings; axe is injected in a page that bypasses the CSP, scripts blocked with JavaScript off. */
async function axeFindings(m: BrowserMode, url: string): Promise<string[]> {
  const handle = await newPage(m.browser, { baseURL: base, javaScriptEnabled: true, bypassCSP: true });
  try {
    await handle.context.addCookies(await m.context.cookies());
    if (!m.javaScriptEnabled)
      await handle.page.route("**/*", (route) => (route.request().resourceType() === "script" ? route.abort() : route.continue()));
    await handle.page.goto(m.url(url), { waitUntil: "load" });
    await handle.page.addScriptTag({ path: AXE });
    return await handle.page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run: (
              c: Document,
              o: object,
            ) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }>;
          };
        }
      ).axe;
      const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
      return result.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    });
  } finally {
    await handle.context.close();
  }
}

const unknownRow = (page: Page, address: string) => page.getByTestId("unknown-exporters-table").locator("tr", { hasText: address });

describeBothModes(
  "data sources",
  (m) => {
    it("adopts an exporter in two clicks and then lists it among the inventory's exporters", async () => {
      const address = m.javaScriptEnabled ? EXPORTER.js : EXPORTER.nojs;
      const name = `exporter-${address.replace(/\./g, "-")}`;
      await logIn(m.page, STAFF, base);
      await m.goto("/site-settings");
      await Promise.all([m.page.waitForURL(/\/site-settings\/data-sources$/), m.page.getByRole("link", { name: "data sources" }).click()]);
      await m.page.getByRole("heading", { name: "Data sources", level: 1 }).waitFor();
      await m.page.getByTestId("no-listener").waitFor();
      const listener = await m.page.getByTestId("listeners-table").locator("tbody tr").innerText();
      for (const text of ["NetFlow v5/v9 and IPFIX", "0.0.0.0:2055", "collector1 (pid 4242)", "Not running"])
        expect(listener).toContain(text);
      const known = m.page.getByTestId("exporters-table").locator("tr", { hasText: "IPFIX" });
      const knownText = await known.innerText();
      for (const figure of [
        "IPFIX",
        "2,345,678",
        "12,345,678",
        "12,345,000",
        "Truncated datagram: 17",
        "Write queue full (the store was slower than the network): 678",
        "1:1,000",
      ])
        expect(knownText).toContain(figure);
      expect(knownText).toContain("Clock off by 125 s: flows timed by arrival");
      // An sFlow agent: its address and sub-agent, the UDP source beside it; the router is the one that source belongs to.
      const relayed = await m.page.getByTestId("exporters-table").locator("tr", { hasText: "10.60.0.1" }).innerText();
      for (const text of ["fra1-r1", "sub-agent 2", "192.0.2.1", "sFlow v5", "66"]) expect(relayed).toContain(text);
      const natted = await unknownRow(m.page, "10.61.0.1").innerText();
      for (const text of ["203.0.113.161", "sFlow v5", "61"]) expect(natted).toContain(text);
      expect(await unknownRow(m.page, address).innerText()).toContain(m.javaScriptEnabled ? "1,234" : "4,321");
      const snmp = await m.page.getByTestId("snmp-table").locator("tbody tr", { hasText: "fra1-r1" }).innerText();
      for (const text of [
        "198.51.100.1:161 (SNMP v2c)",
        "Failing (2 polls)",
        "Time-out",
        "No answer (time-out)",
        "48",
        "et-0/0/9",
        "ae0: 30.0 Gbit/s on the device, 40.0 Gbit/s in the inventory",
      ])
        expect(snmp).toContain(text);
      expect(await m.page.getByTestId("flow-util").innerText()).toMatch(/from the flows its router exported, are written up to \S/);

      // Click 1: "Adopt" opens the inventory's new-router form, filled in from the exporter.
      await Promise.all([
        m.page.waitForURL(/\/site-settings\/inventory\?adopt=/),
        m.page.getByRole("link", { name: `Adopt ${address}` }).click(),
      ]);
      const form = m.page.locator('form[aria-label="Add a router"]');
      await m.page.getByTestId("adopt-notice").waitFor();
      expect(await form.locator("input[name=name]").inputValue()).toBe(name);
      expect(await form.locator("textarea[name=exporters]").inputValue()).toBe(address);
      // Click 2: save.
      await Promise.all([m.page.waitForURL(/saved=router-created/), form.getByRole("button", { name: "Add the router" }).click()]);
      await m.page.getByTestId("inventory-saved").waitFor();
      expect(await m.page.getByTestId("unnamed-ifindexes").innerText()).toContain(m.javaScriptEnabled ? "5, 9" : "11");

      await m.goto("/site-settings/data-sources");
      await m.page.getByRole("heading", { name: "Data sources", level: 1 }).waitFor();
      const adopted = m.page.getByTestId("exporters-table").locator("tr", { hasText: name });
      expect(await adopted.innerText()).toContain(address);
      expect(await m.page.getByText(`Adopt ${address}`).count()).toBe(0);
      expect(await m.page.getByRole("link", { name: `Adopt ${address}` }).count()).toBe(0);
      if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
    });

    it("shows the routers' BMP sessions and peers, and adopts a refused BMP source", async () => {
      const address = m.javaScriptEnabled ? BMP_SOURCE.js : BMP_SOURCE.nojs;
      await logIn(m.page, STAFF, base);
      await m.goto("/site-settings/data-sources");
      await m.page.getByRole("heading", { name: "BMP", level: 2 }).waitFor();
      // No station has a heartbeat here: the page says how to start one.
      expect(await m.page.getByTestId("no-bmp-station").innerText()).toContain("BMP_LISTEN");
      const session = await m.page.getByTestId("bmp-routers-table").locator("tbody tr", { hasText: "fra1-r1" }).innerText();
      for (const text of [
        "Vantage point fra1",
        "198.51.100.1",
        "Up since",
        "2 sessions so far",
        "fra1-r1.example.net — Example OS 7.4",
        "1 of 2 up",
        "Post-policy Adj-RIB-In: 912,345",
        "Pre-policy Adj-RIB-In: 950,000",
        "Route monitoring: 1,234,567",
        "EVPN messages (not stored): 17",
        "route-monitoring message: attribute length beyond the UPDATE",
      ])
        expect(session).toContain(text);
      const peers = m.page.getByTestId("bmp-peers-table");
      const up = await peers.locator("tbody tr", { hasText: "192.0.2.7" }).innerText();
      for (const text of [
        "AS64501",
        "Global instance",
        "Post-policy Adj-RIB-In, Pre-policy Adj-RIB-In",
        "Up since",
        "Routes in Adj-RIB-In: 912,345",
      ])
        expect(up).toContain(text);
      const down = await peers.locator("tbody tr", { hasText: "192.0.2.8" }).innerText();
      for (const text of ["AS64502", "RD instance 64500:7", "Down since", "Cease, Administrative Shutdown"]) expect(down).toContain(text);
      const refused = await m.page.getByTestId("bmp-unknown-table").locator("tr", { hasText: address }).innerText();
      expect(refused).toContain(m.javaScriptEnabled ? "14" : "3");

      await Promise.all([
        m.page.waitForURL(/\/site-settings\/inventory\?adopt=/),
        m.page.getByRole("link", { name: `Adopt ${address}` }).click(),
      ]);
      const form = m.page.locator('form[aria-label="Add a router"]');
      await m.page.getByTestId("adopt-notice").waitFor();
      expect(await form.locator("input[name=loopback]").inputValue()).toBe(address);
      await Promise.all([m.page.waitForURL(/saved=router-created/), form.getByRole("button", { name: "Add the router" }).click()]);
      await m.goto("/site-settings/data-sources");
      await m.page.getByRole("heading", { name: "BMP", level: 2 }).waitFor();
      expect(await m.page.getByRole("link", { name: `Adopt ${address}` }).count()).toBe(0);
      if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
    });

    it("passes axe, and fits a phone's width: only the tables scroll sideways", async () => {
      await logIn(m.page, STAFF, base);
      await m.goto("/site-settings/data-sources");
      await m.page.getByRole("heading", { name: "Data sources", level: 1 }).waitFor();
      await screenshot(m.page, `data-sources desktop (${m.label})`);
      expect(await axeFindings(m, "/site-settings/data-sources")).toEqual([]);
      const phone = await m.newPage({ viewport: { width: 390, height: 844 } });
      await logIn(phone.page, STAFF, base);
      await phone.page.goto(m.url("/site-settings/data-sources"));
      await phone.page.getByRole("heading", { name: "Data sources", level: 1 }).waitFor();
      await screenshot(phone.page, `data-sources phone (${m.label})`);
      expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  },
  { baseURL: () => base },
);
