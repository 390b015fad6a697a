/**
 * The built app as the benches start it: server.mjs on a free loopback port over a data dir of
 * its own with the demo network, stopped by process group. Shared by bench:load and
 * bench:public-lg.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { timedRequest } from "./http-request";

const START_WAIT_MS = 15 * 60_000;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** Starts `server.mjs build/server/index.js` of `appDir`; resolves once /healthz answers 200. */
export async function startApp(options: {
  appDir: string;
  dataDir: string;
  demoDays: number;
  logFile: string;
  env?: Record<string, string>;
}): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  mkdirSync(options.dataDir, { recursive: true });
  const out = createWriteStream(options.logFile, { flags: "w" });
  const child = spawn(process.execPath, ["server.mjs", "build/server/index.js"], {
    cwd: options.appDir,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: options.dataDir,
      DEMO_DATA: "on",
      DEMO_DAYS: String(options.demoDays),
      NODE_ENV: "production",
      DATABASE_URL: "",
      CLICKHOUSE_URL: "",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const agent = new http.Agent({ keepAlive: false });
  const deadline = Date.now() + START_WAIT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}); see ${options.logFile}`);
    const status = await timedRequest(agent, port, "/healthz", { timeoutMs: 10_000 }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return { port, child };
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`the app did not answer /healthz within ${START_WAIT_MS / 60_000} min`);
}

export async function stopApp(child: ChildProcess) {
  if (child.exitCode !== null || !child.pid) return;
  process.kill(-child.pid, "SIGTERM");
  const exited = new Promise((r) => child.once("exit", r));
  const timer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, "SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Turns the site setting "Public Looking Glass enabled" on, through the site settings form as an admin would. */
export async function enablePublicLookingGlass(agent: http.Agent, port: number, adminCookie: string) {
  const page = await timedRequest(agent, port, "/site-settings", { headers: { cookie: adminCookie }, keepBody: true, timeoutMs: 60_000 });
  const form = /<form[^>]*aria-label="Site settings"[^>]*>([\s\S]*?)<\/form>/.exec(page.body)?.[1];
  if (!form) throw new Error(`the site settings form was not found (HTTP ${page.status})`);
  const fields = new URLSearchParams();
  const unescape = (v: string) =>
    v
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  for (const m of form.matchAll(/<input\b([^>]*)>/g)) {
    const attrs = m[1];
    const name = /\bname="([^"]*)"/.exec(attrs)?.[1];
    if (!name) continue;
    const value = unescape(/\bvalue="([^"]*)"/.exec(attrs)?.[1] ?? "");
    if (/type="checkbox"/.test(attrs)) {
      if (/\bchecked\b/.test(attrs) || name === "public_looking_glass_enabled") fields.set(name, "on");
    } else fields.set(name, value);
  }
  for (const m of form.matchAll(/<textarea\b[^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/textarea>/g)) fields.set(m[1], unescape(m[2]));
  if (!fields.has("intent")) fields.set("intent", "site");
  const csrf = /csrftoken=([^;]+)/.exec(adminCookie)?.[1] ?? "";
  fields.set("csrfmiddlewaretoken", csrf);
  const res = await timedRequest(agent, port, "/site-settings", {
    method: "POST",
    headers: { cookie: adminCookie, "content-type": "application/x-www-form-urlencoded" },
    body: fields.toString(),
    timeoutMs: 60_000,
  });
  if (res.status !== 302 && res.status !== 303 && res.status !== 200)
    throw new Error(`saving the site settings answered HTTP ${res.status}`);
}
