/**
 * Bench step 2b: a Flow Explorer deep link as an operator opens it from a shared URL (30 days, two
 * filters, logged in): time to first byte and total, and the JavaScript the page loads (the
 * module scripts and modulepreloads its HTML names, raw and gzip-compressed, from build/client).
 */
import { readFileSync, statSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { timedRequest, type Timing } from "./http-request";

export const DEEP_LINK =
  "/flow-explorer?dimension=AS_SRC_INGRESS&dateRange=LAST_30_DAYS&filter=ROUTER_IN%3Afra-er1%2Cfra-er2&filter=AS_HND_INGRESS%3A%2115169";

const CSRF = "benchcsrftoken0123456789abcdef01";

/** Logs the demo operator in through auth/login/ and returns the Cookie header of the session. */
export function operatorCookie(agent: http.Agent, port: number): Promise<string> {
  return loginCookie(agent, port, "operator@flowlens.example", "flowlens-operator");
}

/** Logs a user in through auth/login/ and returns the Cookie header of the session (CSRF cookie included). */
export async function loginCookie(agent: http.Agent, port: number, email: string, password: string): Promise<string> {
  const res = await timedRequest(agent, port, "/auth/login/", {
    method: "POST",
    headers: { "content-type": "application/json", cookie: `csrftoken=${CSRF}`, "x-csrftoken": CSRF },
    body: JSON.stringify({ email, password }),
    keepBody: true,
    timeoutMs: 60_000,
  });
  if (res.status !== 200) throw new Error(`auth/login/ answered HTTP ${res.status}: ${res.body.slice(0, 200)}`);
  const cookies = (res.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]);
  return [...cookies, `csrftoken=${CSRF}`].join("; ");
}

export type PageJs = { files: number; raw: number; gzip: number };

/** The JS files a page's HTML references (/assets/*.js), measured on disk in build/client. */
export function pageJavaScript(html: string, clientDir: string): PageJs {
  const urls = new Set([...html.matchAll(/["'](\/assets\/[^"'?#]+\.js)["']/g)].map((m) => m[1]));
  let raw = 0;
  let gzip = 0;
  for (const url of urls) {
    const file = path.join(clientDir, url);
    raw += statSync(file).size;
    gzip += gzipSync(readFileSync(file), { level: 9 }).length;
  }
  return { files: urls.size, raw, gzip };
}

export async function measureDeepLink(
  agent: http.Agent,
  port: number,
  cookie: string,
  requests: number,
  warmups: number,
  clientDir: string,
) {
  const samples: Timing[] = [];
  let html = "";
  for (let i = 0; i < warmups + requests; i++) {
    const res = await timedRequest(agent, port, DEEP_LINK, { headers: { cookie }, keepBody: i === 0, timeoutMs: 120_000 });
    if (res.status !== 200) throw new Error(`GET ${DEEP_LINK} answered HTTP ${res.status}`);
    if (i === 0) html = res.body;
    if (i >= warmups) samples.push(res);
  }
  if (!html.includes('data-testid="flow-table"')) throw new Error("the deep link's HTML has no server-rendered table");
  return { samples, js: pageJavaScript(html, clientDir), bytes: Math.round(samples.reduce((a, s) => a + s.bytes, 0) / samples.length) };
}
