/**
 * Every script a page loads or inlines, as its HTML names them: `<script src>` and
 * `<link rel="modulepreload">` files (read from build/client, or ./public for files outside
 * /assets/), and the text of every inline `<script>` — the Remix loader data and route manifest
 * included. Each is gzip-compressed on its own (level 9, as a server would send it) and summed.
 * The public Looking Glass's budget (30 KB) is asserted on this figure
 * (tests/e2e/public-lookingglass-page.e2e.ts) and reported by `npm run bench:public-lg`.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export type PageScript = { source: string; raw: number; gzip: number };
export type PageScripts = { scripts: PageScript[]; raw: number; gzip: number };

const gzipLength = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length;

/** The scripts of `html`; `clientDir` is build/client, `publicDir` the app's ./public. */
export function pageScripts(html: string, clientDir: string, publicDir: string): PageScripts {
  const scripts: PageScript[] = [];
  const files = new Set<string>();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const src = /\ssrc\s*=\s*["']([^"']+)["']/i.exec(m[1])?.[1];
    if (src) files.add(src);
    else if (m[2].trim()) {
      const text = Buffer.from(m[2], "utf8");
      scripts.push({ source: `inline: ${m[2].trim().slice(0, 40)}…`, raw: text.length, gzip: gzipLength(text) });
    }
  }
  for (const m of html.matchAll(/<link\b([^>]*)>/gi)) {
    if (!/\brel\s*=\s*["']?modulepreload/i.test(m[1])) continue;
    const href = /\shref\s*=\s*["']([^"']+)["']/i.exec(m[1])?.[1];
    if (href) files.add(href);
  }
  for (const url of files) {
    const pathname = new URL(url, "http://page.invalid").pathname;
    if (/^[a-z]+:\/\//i.test(url) && !url.startsWith("http://page.invalid")) throw new Error(`a script from another origin: ${url}`);
    const file = [path.join(clientDir, pathname), path.join(publicDir, pathname)].find((f) => existsSync(f));
    if (!file) throw new Error(`the script ${url} is neither in ${clientDir} nor in ${publicDir}`);
    const bytes = readFileSync(file);
    scripts.push({ source: pathname, raw: bytes.length, gzip: gzipLength(bytes) });
  }
  return { scripts, raw: scripts.reduce((a, s) => a + s.raw, 0), gzip: scripts.reduce((a, s) => a + s.gzip, 0) };
}
