#!/usr/bin/env node
// `npm start`: builds the app when the build is missing or older than the sources, then serves it
// with server.mjs (Express + the Remix handler). Configuration comes from the environment and, if present, a .env file.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);

if (fs.existsSync(".env")) process.loadEnvFile(".env");

const BUILD_ENTRY = path.join(root, "build/server/index.js");
const SOURCES = ["app", "db", "public", "vite.config.ts", "package.json", "postcss.config.cjs"];

function newestMtime(target) {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const buildTime = fs.statSync(BUILD_ENTRY, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const sourceTime = Math.max(...SOURCES.map(newestMtime));
if (buildTime < sourceTime) {
  console.log(buildTime ? "Sources changed since the last build: building…" : "No build yet: building the app…");
  const started = Date.now();
  const result = spawnSync(process.execPath, ["node_modules/@remix-run/dev/dist/cli.js", "vite:build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) {
    console.error("The build failed; see the messages above.");
    process.exit(result.status ?? 1);
  }
  console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

const env = { NODE_ENV: "production", PORT: "3000", ...process.env };
const server = spawn(process.execPath, ["server.mjs", BUILD_ENTRY], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
