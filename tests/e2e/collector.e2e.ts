// The flow collector end to end, with JavaScript on and off: NetFlow v9 datagrams sent over UDP to the running app
// (its flows-netflow listener, tests/e2e/global-setup.ts) from a loopback address the inventory does not know. Staff
// find the exporter under "Not in inventory yet" on Data sources with its datagrams and ifIndexes, adopt it (Adopt,
// then Add the router) and name its ingress ifIndex as an external interface with a neighbour AS. Flows with known
// bytes, packets and sampling rates, ending now, then show on api/flows/ (ROUTER_IN filtered to the new router) with
// bit/s = Σ bytes × sampling rate × 8 / the bucket's seconds, computed here independently, and the Flow Explorer shows
// that figure as it formats it. The router is deleted at the end, so the demo's inventory is as the next file expects.
import dgram from "node:dgram";
import type { APIRequestContext, BrowserContext, Page } from "playwright-core";
import { expect, inject, it } from "vitest";
import { encodeNetflow9, IE, type FieldValue, type TemplateSpec } from "../fixtures/flow-encoders";
import { formatUnix } from "~/lib/date-format";
import { formatBitsPerSecond } from "~/lib/units";
import { describeBothModes, type BrowserMode } from "./browser";
import { DEMO_USERS, logIn } from "./login";

const BUCKET_SECONDS = 300;
/** How long the collector may take to store flows and count its exporters, and to load an inventory change. */
const DEADLINE_MS = 150_000;
const POLL_MS = 1_000;
const IN_IF = 17;
const OUT_IF = 42;
const NEIGHBOUR_AS = 64_496; // RFC 5398 documentation AS
const SAMPLING = [1000, 512, 2048];

const target = inject("netflowTarget");

/** Two distinct loopback addresses per run, outside 127.0.0.x and the demo exporters' 127.0.1.x. */
function exporterAddresses(): { on: string; off: string } {
  const pick = () => `127.0.${2 + Math.floor(Math.random() * 253)}.${1 + Math.floor(Math.random() * 254)}`;
  const on = pick();
  let off = pick();
  while (off === on) off = pick();
  return { on, off };
}
const EXPORTERS = exporterAddresses();

/** IPv4 flows with their start and end as uptime, the sampling interval in each record (RFC 3954 field types). */
const TEMPLATE: TemplateSpec = {
  id: 256,
  fields: [
    { id: IE.sourceIPv4Address, length: 4 },
    { id: IE.destinationIPv4Address, length: 4 },
    { id: IE.sourceTransportPort, length: 2 },
    { id: IE.destinationTransportPort, length: 2 },
    { id: IE.protocolIdentifier, length: 1 },
    { id: IE.ingressInterface, length: 4 },
    { id: IE.egressInterface, length: 4 },
    { id: IE.octetDeltaCount, length: 4 },
    { id: IE.packetDeltaCount, length: 4 },
    { id: IE.flowStartSysUpTime, length: 4 },
    { id: IE.flowEndSysUpTime, length: 4 },
    { id: IE.samplingInterval, length: 4 },
  ],
};

type Flow = { bytes: number; packets: number; sampling: number };

/** A NetFlow v9 exporter on one loopback address: its own socket, boot time and packet sequence. */
class Exporter {
  private sequence = 0;
  private readonly bootSec = Math.floor(Date.now() / 1000) - 3600;
  private constructor(
    readonly address: string,
    private readonly socket: dgram.Socket,
  ) {}

  static async open(address: string): Promise<Exporter> {
    const socket = dgram.createSocket("udp4");
    await new Promise<void>((resolve, reject) => {
      socket.once("error", reject);
      socket.bind({ address, port: 0 }, () => {
        socket.off("error", reject);
        resolve();
      });
    });
    return new Exporter(address, socket);
  }

  /** One datagram (template and data) of `flows` that all ended at `endSec`; resolves once sent, then a pause. */
  async send(flows: Flow[], endSec: number): Promise<void> {
    const nowSec = Math.floor(Date.now() / 1000);
    // Export time and uptime are consistent, so the decoder dates each flow end exactly at endSec.
    const uptime = (sec: number) => (sec - this.bootSec) * 1000;
    const records: FieldValue[][] = flows.map((f, i) => [
      "198.51.100.10",
      "203.0.113.20",
      40_000 + i,
      443,
      6,
      IN_IF,
      OUT_IF,
      f.bytes,
      f.packets,
      uptime(endSec) - 30_000,
      uptime(endSec),
      f.sampling,
    ]);
    const datagram = encodeNetflow9({
      sysUptimeMs: uptime(nowSec),
      unixSecs: nowSec,
      sequence: this.sequence++,
      sourceId: 0,
      sets: [
        { kind: "template", templates: [TEMPLATE] },
        { kind: "data", template: TEMPLATE, records },
      ],
    });
    const [host, port] = splitTarget(target);
    await new Promise<void>((resolve, reject) => this.socket.send(datagram, port, host, (error) => (error ? reject(error) : resolve())));
    // Paced: a busy machine's socket buffer never sees a burst.
    await sleep(20);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}

function splitTarget(text: string): [string, number] {
  const colon = text.lastIndexOf(":");
  return [text.slice(0, colon).replace(/^\[|\]$/g, ""), Number(text.slice(colon + 1))];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls `probe` until it returns a value (not undefined) or the deadline passes; the last failure is reported. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = DEADLINE_MS): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  let last = "";
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${deadlineMs / 1000} s${last ? ` (last: ${last})` : ""}`);
    await sleep(POLL_MS);
  }
}

type FlowsResponse = {
  timeseries: { buckets: number[]; series: { key: string; name: string; values: number[] }[] };
  window: number;
  table: { key: string; name: string; bps: number; bytes: string }[];
  range: { start: number; end: number; adjusted: string } | null;
};

/** POST api/flows/ with the context's session cookie and CSRF token, as the browser's own calls do. */
async function flowsOf(request: APIRequestContext, context: BrowserContext, base: string, body: object): Promise<FlowsResponse> {
  const csrf = (await context.cookies(base)).find((c) => c.name === "csrftoken")?.value ?? "";
  const res = await request.post(new URL("/api/flows/", base + "/").toString(), {
    data: body,
    headers: { "X-CSRFToken": csrf, Accept: "application/json" },
    failOnStatusCode: false,
  });
  if (res.status() !== 200) throw new Error(`api/flows/ answered ${res.status()}: ${(await res.text()).slice(0, 300)}`);
  return (await res.json()) as FlowsResponse;
}

/** The router's traffic in one 5-minute bucket: bytes and bit/s of the table, the bucket's bit/s in the timeseries. */
async function routerBucket(page: Page, base: string, router: string, bucket: number) {
  const data = await flowsOf(page.context().request, page.context(), base, {
    dimension: "ROUTER_IN",
    startTimestamp: bucket,
    endTimestamp: bucket + BUCKET_SECONDS,
    filters: [`ROUTER_IN:${router}`],
    window: BUCKET_SECONDS,
  });
  // Before any flow of that bucket is stored the range falls back to the newest data: not this bucket yet.
  if (!data.range || data.range.start !== bucket) return null;
  const row = data.table.find((r) => r.key === router);
  const index = data.timeseries.buckets.indexOf(bucket);
  const series = data.timeseries.series.find((s) => s.key === router);
  return {
    bytes: row ? BigInt(row.bytes) : 0n,
    tableBps: row?.bps ?? 0,
    seriesBps: index >= 0 && series ? series.values[index] : 0,
    window: data.window,
    buckets: data.timeseries.buckets,
  };
}

const unknownRow = (page: Page, address: string) => page.getByTestId("unknown-exporters-table").locator("tr", { hasText: address });

async function deleteRouter(m: BrowserMode, name: string) {
  await m.goto(`/site-settings/inventory?router=${encodeURIComponent(name)}`);
  await Promise.all([
    m.page.waitForURL(/saved=router-deleted/),
    m.page.locator(`form[aria-label="Delete router ${name}"]`).getByRole("button").click(),
  ]);
}

describeBothModes("flow collector", (m) => {
  it.skipIf(!target)(
    "adopts an unknown exporter, then its flows show on api/flows/ and in the Flow Explorer with the right bit/s",
    async () => {
      const address = m.javaScriptEnabled ? EXPORTERS.on : EXPORTERS.off;
      const router = `exporter-${address.replace(/\./g, "-")}`;
      const base = new URL(m.url("/")).origin;
      const exporter = await Exporter.open(address);
      let adopted = false;
      try {
        // 1. Flows from an exporter nobody put in the inventory: stored, and the exporter counted with its ifIndexes.
        const early = Math.floor(Date.now() / 1000);
        for (let i = 0; i < 3; i++) await exporter.send([{ bytes: 1500, packets: 1, sampling: 1000 }], early);

        await logIn(m.page, DEMO_USERS.admin);
        await m.goto("/site-settings");
        await Promise.all([
          m.page.waitForURL(/\/site-settings\/data-sources$/),
          m.page.getByRole("link", { name: "data sources" }).click(),
        ]);
        const listener = m.page.getByTestId("listeners-table").locator("tr", { hasText: target });
        const listenerText = await listener.innerText();
        expect(listenerText).toContain("NetFlow v5/v9 and IPFIX");
        expect(listenerText).toContain("Running");
        // The collector adds its counts to PostgreSQL every few seconds: the page is read again until they are there.
        const row = await until(`${address} under "Not in inventory yet" with 3 datagrams`, async () => {
          await m.goto("/site-settings/data-sources");
          const cells = await unknownRow(m.page, address)
            .locator("td")
            .allInnerTexts()
            .catch(() => []);
          return cells[3] === "3" ? cells : undefined;
        });
        expect(row[0]).toBe(address);
        // Address, UDP source (the exporter's own address here), protocol, datagrams, first and last seen, ifIndexes.
        expect(row[1]).toBe("Same as address");
        expect(row[2]).toContain("NetFlow v9");
        expect(row[6]).toBe(`${IN_IF}, ${OUT_IF}`);

        // 2. Adoption in two clicks: "Adopt" opens the prefilled new-router form, "Add the router" saves it.
        await Promise.all([
          m.page.waitForURL(/\/site-settings\/inventory\?adopt=/),
          m.page.getByRole("link", { name: `Adopt ${address}` }).click(),
        ]);
        const form = m.page.locator('form[aria-label="Add a router"]');
        // With JavaScript the URL changes before the new page has rendered: wait for the prefilled values.
        await expect.poll(() => form.locator("textarea[name=exporters]").inputValue()).toBe(address);
        await expect.poll(() => form.locator("input[name=name]").inputValue()).toBe(router);
        await Promise.all([m.page.waitForURL(/saved=router-created/), form.getByRole("button", { name: "Add the router" }).click()]);
        adopted = true;
        expect(await m.page.getByTestId("unnamed-ifindexes").innerText()).toMatch(new RegExp(`\\b${IN_IF}, ${OUT_IF}\\b`));

        // 3. The ingress ifIndex named as an external interface towards a neighbour AS, from the list's link.
        await Promise.all([
          m.page.waitForURL(new RegExp(`ifindex=${IN_IF}`)),
          m.page.getByRole("link", { name: `Add an interface with ifIndex ${IN_IF}` }).click(),
        ]);
        const iface = m.page.locator(`form[aria-label="Add an interface to ${router}"]`);
        await expect.poll(() => iface.locator("input[name=ifindex]").inputValue()).toBe(String(IN_IF));
        await iface.locator("input[name=name]").fill("et-0/0/1");
        await iface.locator("input[name=capacity_gbps]").fill("100");
        await iface.locator("select[name=kind]").selectOption("external");
        await iface.locator("select[name=peering]").selectOption("Transit");
        await iface.locator("input[name=neighbour_as]").fill(String(NEIGHBOUR_AS));
        await Promise.all([m.page.waitForURL(/saved=interface-created/), iface.getByRole("button", { name: "Add the interface" }).click()]);
        const interfaceRow = await m.page.getByTestId("interfaces-table").locator("tr", { hasText: "et-0/0/1" }).innerText();
        expect(interfaceRow).toContain(String(IN_IF));
        expect(interfaceRow).toContain(String(NEIGHBOUR_AS));

        // The exporter is now one of a known router's.
        await m.goto("/site-settings/data-sources");
        expect(await m.page.getByTestId("exporters-table").locator("tr", { hasText: router }).innerText()).toContain(address);
        expect(await m.page.getByRole("link", { name: `Adopt ${address}` }).count()).toBe(0);

        // 4. An operator reads the flows. The collector attributes flows to the router once it has loaded the
        // inventory again: probe flows, dated in an earlier bucket than the measured ones, are sent until one shows.
        const operator = await m.newPage();
        await logIn(operator.page, DEMO_USERS.operator, base);
        await until(`flows from ${address} attributed to ${router}`, async () => {
          const probeEnd = Math.floor(Date.now() / 1000) - BUCKET_SECONDS;
          await exporter.send([{ bytes: 64, packets: 1, sampling: 1 }], probeEnd);
          const seen = await routerBucket(operator.page, base, router, Math.floor(probeEnd / BUCKET_SECONDS) * BUCKET_SECONDS);
          return seen && seen.bytes > 0n ? true : undefined;
        });

        // 5. Flows of known size ending now, in two datagrams; the expectation is computed here, not read back.
        const flows: Flow[] = [
          { bytes: 1_234_567, packets: 1_000, sampling: SAMPLING[0] },
          { bytes: 98_765, packets: 77, sampling: SAMPLING[1] },
          { bytes: 4_321, packets: 3, sampling: SAMPLING[2] },
          { bytes: 600_001, packets: 450, sampling: SAMPLING[0] },
          { bytes: 1_500, packets: 1, sampling: SAMPLING[1] },
        ];
        const end = Math.floor(Date.now() / 1000);
        const bucket = Math.floor(end / BUCKET_SECONDS) * BUCKET_SECONDS;
        await exporter.send(flows.slice(0, 3), end);
        await exporter.send(flows.slice(3), end);
        const sampledBytes = flows.reduce((sum, f) => sum + BigInt(f.bytes) * BigInt(f.sampling), 0n);
        const expectedBps = (Number(sampledBytes) * 8) / BUCKET_SECONDS;

        const figures = await until(`${sampledBytes} bytes of ${router} in the bucket of ${bucket}`, async () => {
          const seen = await routerBucket(operator.page, base, router, bucket);
          if (seen && seen.bytes > sampledBytes) throw new Error(`more than sent: ${seen.bytes} bytes`);
          return seen && seen.bytes === sampledBytes ? seen : undefined;
        });
        expect(figures.window).toBe(BUCKET_SECONDS);
        expect(figures.buckets).toEqual([bucket]);
        expect(figures.seriesBps).toBe(expectedBps);
        expect(figures.tableBps).toBe(expectedBps);

        // 6. The Flow Explorer at the URL of that filter, dimension and bucket: the screen's figure, as it formats it.
        await m.page.context().clearCookies();
        await logIn(m.page, DEMO_USERS.operator);
        const search = new URLSearchParams({
          dimension: "ROUTER_IN",
          filter: `ROUTER_IN:${router}`,
          dateRange: "CUSTOM",
          start: String(bucket),
          end: String(bucket + BUCKET_SECONDS),
          table: "detailed",
        });
        const res = await m.goto(`/flow-explorer?${search}`);
        expect(res?.status()).toBe(200);
        const shown = formatBitsPerSecond(expectedBps);
        expect(await m.page.getByTestId("total").innerText()).toContain(`Total: ${shown} (1 value)`);
        const table = m.page.getByTestId("flow-table");
        const timeHeader = await table.locator("thead th").first().innerText();
        const timezone = /Time \((.+)\)/.exec(timeHeader)?.[1] ?? "UTC";
        expect(await table.locator("tbody tr").count()).toBe(1);
        const cells = (await table.locator("tbody tr td").allInnerTexts()).map((c) => c.trim());
        // The bucket of "now" has not ended yet: the table marks it as incomplete (the chart leaves it out).
        expect([formatUnix(bucket, timezone), `${formatUnix(bucket, timezone)} (incomplete)`]).toContain(cells[0]);
        expect(cells[1]).toContain(router);
        expect(cells[2]).toBe(shown);
        await m.screenshot(`flow collector explorer (${m.label})`);

        // 7. The same records in the Raw Network Analyzer, already stored: the router's records bigger than the probes
        // (64 bytes at rate 1), i.e. the five sent, with the bytes they stand for.
        const rna = new URLSearchParams({
          filter: `EXPORTER:${router}`,
          q: "bytes > 64",
          start: String(bucket - 60),
          end: String(end + 120),
        });
        expect((await m.goto(`/rna?${rna}`))?.status()).toBe(200);
        expect(await m.page.getByTestId("rna-total").innerText()).toBe(`${flows.length} records`);
        expect((await m.page.getByTestId("rna-sum-bytes").innerText()).replace(/\D/g, "")).toBe(String(sampledBytes));
        if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
      } finally {
        await exporter.close();
        if (adopted) {
          await m.page.context().clearCookies();
          await logIn(m.page, DEMO_USERS.admin);
          await deleteRouter(m, router);
        }
      }
    },
    DEADLINE_MS * 3,
  );
});
