/**
 * A page loader's or action's unexpected failure (what Remix hands to entry.server.tsx's
 * handleError) reaches the staff's team-chat alert through the same machinery as a 500 of
 * endpoint(): one post per burst with its count, the page's path without its query (a single-fetch
 * data request named by its page), no secrets. Thrown answers (a Response, data(), a 404 or 403
 * error response) and requests the browser abandoned are not posted.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { data } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertsSettled } from "~/server/alerts.server";
import { isPageFailure, pagePathOf, reportPageFailure } from "~/server/page-failure-alert.server";
import { useServicesForTests } from "~/server/services.server";
import { openTestStores, type TestStores } from "../helpers/stores";

type Received = { path: string; authorization: string | undefined; body: { text: string; flowlens: Record<string, unknown> } };

let received: Received[] = [];
let server: Server;
let stores: TestStores;

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    request.on("end", () => {
      received.push({ path: request.url ?? "", authorization: request.headers.authorization, body: JSON.parse(text) });
      response.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  stores = await openTestStores({
    env: {
      ALERT_WEBHOOK_URL: `http://127.0.0.1:${port}/hooks/main`,
      ALERT_WEBHOOK_USER: "flowlens-alerts",
      ALERT_WEBHOOK_PASSWORD: "pw",
    },
  });
  useServicesForTests(stores);
}, 120_000);

afterAll(async () => {
  await alertsSettled();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await stores?.dispose();
});

describe("page failures in the team-chat alert", () => {
  it("posts a loader's failures once per burst, with the page's path and count and nothing of the query", async () => {
    received = [];
    const request = () => new Request("http://flowlens.example/flow-explorer.data?filters=%5B%5D&token=abc123456789");
    await reportPageFailure(new TypeError("Cannot read properties of undefined (reading 'rows')"), request());
    await reportPageFailure(new TypeError("Cannot read properties of undefined (reading 'rows')"), request());
    await alertsSettled();
    expect(received).toHaveLength(1);
    const [post] = received;
    expect(post.path).toBe("/hooks/main");
    expect(post.authorization).toBe(`Basic ${Buffer.from("flowlens-alerts:pw").toString("base64")}`);
    expect(post.body.flowlens).toMatchObject({
      kind: "server error",
      path: "/flow-explorer",
      count: 2,
      message: "GET /flow-explorer: TypeError: Cannot read properties of undefined (reading 'rows')",
    });
    expect(JSON.stringify(post.body)).not.toContain("abc123456789");
    expect(JSON.stringify(post.body)).not.toContain("filters");
  });

  it("posts an action's failure under its method", async () => {
    received = [];
    await reportPageFailure(new Error("relation does not exist"), new Request("http://flowlens.example/site-settings", { method: "POST" }));
    await alertsSettled();
    expect(received.map((r) => r.body.flowlens.message)).toEqual(["POST /site-settings: Error: relation does not exist"]);
  });

  it("does not post thrown answers or requests the browser abandoned", async () => {
    received = [];
    const page = new Request("http://flowlens.example/manage-users");
    const gone = new AbortController();
    gone.abort();
    const abandoned = new Request("http://flowlens.example/manage-users", { signal: gone.signal });
    const answers: unknown[] = [
      new Response(null, { status: 302, headers: { Location: "/login" } }),
      data({ detail: "You do not have permission to perform this action." }, { status: 403 }),
      { status: 404, statusText: "Not Found", internal: true, data: "No route matches URL", error: new Error("No route matches URL") },
      { status: 503, statusText: "Service Unavailable", internal: false, data: { exception_code: "server_busy" } },
    ];
    for (const answer of answers) {
      expect(isPageFailure(answer, page)).toBe(false);
      await reportPageFailure(answer, page);
    }
    expect(isPageFailure(new Error("boom"), abandoned)).toBe(false);
    await reportPageFailure(new Error("boom"), abandoned);
    expect(isPageFailure(new Error("boom"), page)).toBe(true);
    await alertsSettled();
    expect(received).toEqual([]);
  });

  it("names a single-fetch data request by its page", () => {
    expect(pagePathOf(new URL("http://h/_root.data"))).toBe("/");
    expect(pagePathOf(new URL("http://h/site-settings/usage.data?weeks=4"))).toBe("/site-settings/usage");
    expect(pagePathOf(new URL("http://h/rna"))).toBe("/rna");
  });
});
