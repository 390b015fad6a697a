#!/usr/bin/env node
// The production HTTP server: Express with the Remix request handler, as remix-serve sets it up
// (compression, immutable build assets, ./public, a one-line access log), plus what remix-serve
// cannot do: it hands the app the TCP peer's address. Rate limits, login throttling and the
// trusted-proxy rules need the address the connection really comes from; remix-serve only passes
// the request headers, which any client can forge.
//
//   node server.mjs [build/server/index.js]      (PORT, HOST from the environment)
//
// Also here: the security headers of every answer, the public pages served from their cache, and
// optionally (EVENT_LOOP_STATS_MS) a log line with the event loop's delay, to see what blocks it.
//
// The peer address travels in the internal header `x-flowlens-peer-address`. Any value a client
// sends under that name is removed first, so only this server can set it (see clientAddress in
// app/server/auth/session.server.ts).
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";
import morgan from "morgan";

export const PEER_ADDRESS_HEADER = "x-flowlens-peer-address";

const buildPath = path.resolve(process.argv[2] ?? "build/server/index.js");
const build = await import(pathToFileURL(buildPath).href);
installGlobals({ nativeFetch: build.future?.v3_singleFetch });
/** What the app exports for this server (app/entry.server.tsx). */
const entry = build.entry.module;

const app = express();
app.disable("x-powered-by");
// Before anything reads the request: whether X-Forwarded-* count depends on who the peer is.
app.use((req, _res, next) => {
  delete req.headers[PEER_ADDRESS_HEADER];
  const peer = req.socket.remoteAddress;
  if (peer) req.headers[PEER_ADDRESS_HEADER] = peer;
  next();
});
app.use(securityHeaders);
// First: a cached public page is a map lookup, sent pre-compressed (no file-system checks, no log line).
app.use(sharedPublicPages);
app.use(compression());
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));
app.use(morgan("tiny"));
app.use(oneUserAtATime(new entry.RequestAdmission(entry.getConfig().REQUESTS_PER_USER)));
// Each request runs in its own scope: the ClickHouse query limits count its queries for its user, and
// the loaders of a GET share one read of the session, the style and the menu.
const remix = createRequestHandler({ build, mode: process.env.NODE_ENV });
app.all("*", (req, res, next) => entry.runInRequestScope(req.headers, () => remix(req, res, next), req.method));

/** A request as the app's header and cache helpers read it (no full Fetch Request needed). */
function requestLike(req) {
  return {
    method: req.method,
    url: req.originalUrl,
    headers: { get: (name) => req.get(name) ?? null },
  };
}

/**
 * The security headers (app/server/security-headers.server.ts) go on every answer — static files,
 * JSON, redirects — unless the answer set them itself (documents bring their own policy). They are
 * filled in just before the head is written, when the answer's own headers are known.
 */
function securityHeaders(req, res, next) {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    // The peer and X-Forwarded-Proto decide HTTPS (the proxy trust of TRUST_PROXY); the socket its own protocol.
    const defaults = entry.defaultHeaders({ headers: requestLike(req).headers, url: `${req.protocol}://localhost/` });
    for (const [name, value] of Object.entries(defaults)) if (!res.hasHeader(name)) res.setHeader(name, value);
    return writeHead.apply(this, args);
  };
  next();
}

/** Bounds the requests one user has in progress (app/server/request-admission.server.ts): beyond it 429 at once. */
function oneUserAtATime(admission) {
  return (req, res, next) => {
    const request = requestLike(req);
    const key = entry.admissionKey(request);
    if (!key) return next();
    if (!admission.enter(key)) {
      const answer = entry.tooManyRequests(request);
      res.status(answer.status).set(answer.headers).end(answer.body);
      return;
    }
    let left = false;
    const leave = () => {
      if (!left) admission.leave(key);
      left = true;
    };
    res.on("finish", leave);
    res.on("close", leave);
    next();
  };
}

/** Public pages anonymous visitors share (app/server/public-page-cache.server.ts), before Remix runs. */
function sharedPublicPages(req, res, next) {
  const request = requestLike(req);
  const key = entry.pageCacheKey(request);
  const page = key && entry.cachedPage(key);
  if (!page) return next();
  const gzip = /\bgzip\b/.test(req.get("accept-encoding") ?? "");
  const body = gzip ? page.gzip : page.html;
  res.status(page.status);
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("Content-Security-Policy", page.contentSecurityPolicy);
  res.setHeader("Cache-Control", "no-cache");
  res.setHeader("Vary", "Accept-Encoding, Cookie");
  res.setHeader("Content-Length", body.length);
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  const cookie = entry.csrfCookieFor(request);
  if (cookie) res.setHeader("Set-Cookie", cookie);
  res.end(req.method === "HEAD" ? undefined : body);
}

const port = Number(process.env.PORT || 3000);
const host = process.env.HOST;
const onListen = () => console.log(`[flowlens] listening on http://${host || "localhost"}:${port}`);
const server = host ? app.listen(port, host, onListen) : app.listen(port, onListen);
const statsMs = Number(process.env.EVENT_LOOP_STATS_MS || 0);
if (statsMs > 0) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  setInterval(() => {
    const ms = (ns) => (ns / 1e6).toFixed(1);
    console.log(
      `[flowlens] event loop delay over ${statsMs} ms: max ${ms(delay.max)} ms, p99 ${ms(delay.percentile(99))} ms, mean ${ms(delay.mean)} ms`,
    );
    delay.reset();
  }, statsMs).unref();
}
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => server.close((error) => error && console.error(error)));
}
