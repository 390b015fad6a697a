/**
 * The route table: the files of app/routes and the URL pattern each one answers (Remix's flat
 * routes), and for the screens (the page modules, *.tsx) the input each one reads, found in its
 * source: the GET parameters and form fields it names and the `intent` values its forms send. A
 * screen added to app/routes is in these lists the day it lands; nothing here names a screen.
 *
 * The input is read from the module's import closure inside app/, leaving out the kernel's generic
 * modules (app/server/…, except the screens' own *-screen.server.ts), whose names belong to every
 * request rather than to a screen.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");
const APP = join(ROOT, "app");
const ROUTES_DIR = join(APP, "routes");

export type ScreenRoute = {
  /** The module's file name in app/routes, e.g. "_app.site-settings_.inventory.tsx". */
  file: string;
  /** The URL path with each dynamic segment as `:name` ("*" for a splat), e.g. "/site-settings/inventory". */
  path: string;
  /** The dynamic segments' names (Remix's `params` keys). */
  params: string[];
  /** GET parameters and form fields the screen's code reads or renders. */
  fields: string[];
  /** Values of the `intent` field its forms send and its action tells apart. */
  intents: string[];
};

/** Route files Remix would pick up (vite.config.ts ignores tests and CSS). */
export function routeFilesOnDisk(): string[] {
  return readdirSync(ROUTES_DIR)
    .filter((name) => !/\.test\.[jt]sx?$/.test(name) && !name.endsWith(".css"))
    .sort();
}

/** The path pattern of a flat route file: "_app.settings_.group.tsx" → ["settings", "group"]; "[.]" is a literal dot. */
export function routePattern(file: string): string[] {
  return file
    .replace(/\.[jt]sx?$/, "")
    .replace(/\[\.\]/g, "\u0000")
    .split(".")
    .filter((segment) => !segment.startsWith("_"))
    .map((segment) => segment.replace(/_$/, "").replace(/\u0000/g, "."));
}

/** A pathless layout ("_app.tsx"): it runs for the URLs of its children. */
export function isPathlessLayout(file: string): boolean {
  return routePattern(file).length === 0 && !file.replace(/\.[jt]sx?$/, "").endsWith("_index");
}

/** The URL path of a route file with its parameters as `:name` (a splat as `*`), and their names. */
function routePath(file: string): { path: string; params: string[] } {
  const segments = routePattern(file);
  const params = segments.filter((s) => s.startsWith("$")).map((s) => (s === "$" ? "*" : s.slice(1)));
  const path = segments.map((s) => (s === "$" ? "*" : s.startsWith("$") ? `:${s.slice(1)}` : s)).join("/");
  return { path: `/${path}`, params };
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = join(APP, specifier.slice(2));
  else if (specifier.startsWith(".")) base = resolve(dirname(from), specifier);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")])
    if (candidate.startsWith(APP) && /\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate;
  return null;
}

/** The kernel's generic modules say nothing about one screen's input. */
const isGenericKernel = (file: string) => {
  const path = relative(APP, file);
  return path.startsWith("server/") && !/-screen\.server\.ts$/.test(path);
};

function importClosure(entry: string): string[] {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length) {
    const file = queue.shift()!;
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = resolveImport(file, match[1] ?? match[2]);
      if (target && !seen.has(target) && !isGenericKernel(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return [...seen];
}

const NAME = /^[a-z][a-z0-9_.\-[\]]{0,40}$/;
/** A template literal's `${…}` parts as the first index, e.g. `r.${i}.values` → r.0.values. */
const untemplate = (text: string) => text.replace(/\$\{[^}]*\}/g, "0");

const FIELD_PATTERNS = [
  /\.(?:get|getAll|has)\(\s*["'`]([^"'`]+)["'`]\s*\)/g, // searchParams.get("q"), form.get("intent")
  /\bname=(?:\{\s*)?["'`]([^"'`]+)["'`]/g, // <input name="q">, name={`r.${i}.values`}
];
const INTENT_PATTERNS = [
  /\bname=["']intent["'][^>]*?\bvalue=(?:\{\s*)?["'`]([^"'`]+)["'`]/g, // <input name="intent" value="delete-label">
  /\bintent=(?:\{\s*)?["'`]([^"'`]+)["'`]/g, // <DeleteForm intent="delete-router">
  /\bintent\s*===\s*["'`]([^"'`]+)["'`]/g,
  /\bcase\s+["'`]([^"'`]+)["'`]\s*:/g,
];

function matches(text: string, patterns: RegExp[]): string[] {
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => untemplate(m[1]))).filter((name) => NAME.test(name));
}

/** Every page module of app/routes (the .tsx files; the .ts ones are JSON resource routes) but the pathless layouts. */
export function screenRoutes(): ScreenRoute[] {
  const files = routeFilesOnDisk().filter((file) => file.endsWith(".tsx") && !isPathlessLayout(file));
  return files.map((file) => {
    const sources = importClosure(join(ROUTES_DIR, file)).map((f) => readFileSync(f, "utf8"));
    const fields = new Set(sources.flatMap((text) => matches(text, FIELD_PATTERNS)));
    const intents = new Set(sources.flatMap((text) => matches(text, INTENT_PATTERNS)));
    return { file, ...routePath(file), fields: [...fields].sort(), intents: [...intents].sort() };
  });
}
