#!/usr/bin/env node
// The production HTTP server: Express with the Remix request handler, as remix-serve sets it up
// (compression, immutable build assets, ./public, a one-line access log), plus what remix-serve
// cannot do: it hands the app the TCP peer's address. Rate limits, login throttling and the
// trusted-proxy rules need the address the connection really comes from; remix-serve only passes
// the request headers, which any client can forge.
//
//   node server.mjs [build/server/index.js]      (PORT, HOST from the environment)
//
// The peer address travels in the internal header `x-flowlens-peer-address`. Any value a client
// sends under that name is removed first, so only this server can set it (see clientAddress in
// app/server/auth/session.server.ts).
import path from "node:path";
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

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));
app.use(morgan("tiny"));
app.use((req, _res, next) => {
  delete req.headers[PEER_ADDRESS_HEADER];
  const peer = req.socket.remoteAddress;
  if (peer) req.headers[PEER_ADDRESS_HEADER] = peer;
  next();
});
app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV }));

const port = Number(process.env.PORT || 3000);
const host = process.env.HOST;
const onListen = () => console.log(`[flowlens] listening on http://${host || "localhost"}:${port}`);
const server = host ? app.listen(port, host, onListen) : app.listen(port, onListen);
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => server.close((error) => error && console.error(error)));
}
