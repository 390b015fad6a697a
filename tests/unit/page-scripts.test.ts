// The counting behind the public Looking Glass's JavaScript budget (bench/page-scripts.ts), checked against sums taken
// here by hand, and the page's own script as it is inlined (public-page-script.ts): valid JavaScript carrying the
// server's time-outs, nothing that could end its <script> element early.
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { pageScripts } from "../../bench/page-scripts";
import { publicPageScript } from "~/features/lookingglass/ui/public-page-script";
import { loadsAppScripts, WITHOUT_APP_SCRIPTS_HANDLE } from "~/lib/page-scripts";

const gz = (text: string) => gzipSync(Buffer.from(text), { level: 9 }).length;

describe("pageScripts", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "page-scripts-"));
  const client = path.join(dir, "client");
  const pub = path.join(dir, "public");
  mkdirSync(path.join(client, "assets"), { recursive: true });
  mkdirSync(pub, { recursive: true });
  const entry = "import './chunk.js';".repeat(50);
  const chunk = "export const x = 1;".repeat(80);
  const own = "console.log('public');";
  writeFileSync(path.join(client, "assets/entry.js"), entry);
  writeFileSync(path.join(client, "assets/chunk.js"), chunk);
  writeFileSync(path.join(pub, "own.js"), own);

  it("counts script files, modulepreloads and inline scripts (the loader data too), each gzipped on its own", () => {
    const data = 'window.__remixContext = {"state":{"loaderData":{"root":{"a":1}}}};';
    const html = `<html><head><link rel="modulepreload" href="/assets/chunk.js"/><link rel="stylesheet" href="/assets/x.css"/>
      <script>${data}</script></head><body><script type="module" src="/assets/entry.js"></script>
      <script src="/own.js?v=1"></script><script type="module" src="/assets/entry.js"></script><script></script></body></html>`;
    const js = pageScripts(html, client, pub);
    expect(js.scripts.map((s) => s.source).sort()).toEqual(
      ["/assets/chunk.js", "/assets/entry.js", "/own.js", expect.stringMatching(/^inline: window\.__remixContext/)].sort(),
    );
    expect(js.raw).toBe(entry.length + chunk.length + own.length + data.length);
    expect(js.gzip).toBe(gz(entry) + gz(chunk) + gz(own) + gz(data));
  });

  it("refuses a script it cannot find, or one from another origin", () => {
    expect(() => pageScripts('<script src="/assets/missing.js"></script>', client, pub)).toThrow(/missing\.js/);
    expect(() => pageScripts('<script src="https://cdn.example/x.js"></script>', client, pub)).toThrow(/another origin/);
  });
});

describe("the public Looking Glass's own script", () => {
  const labels = { IDLE: "Ready", PENDING: "Querying…", ABORTED: "Aborted" };

  it("is one self-contained call with the server's time-outs", () => {
    const source = publicPageScript({ IpPrefixQuery: 15, PingQuery: 40 }, labels);
    expect(() => new Function(source)).not.toThrow();
    expect(source).toMatch(/^\(function publicLookingGlassPage\(config\)/);
    expect(source).toContain('"timeouts":{"IpPrefixQuery":15,"PingQuery":40}');
    expect(source).not.toMatch(/\bimport\b|\brequire\(|__vite|__name\(/);
  });

  it("cannot close its <script> element from the data it carries", () => {
    const source = publicPageScript({ "</script><script>alert(1)//": 1 }, labels);
    expect(source).not.toContain("</script>");
    expect(() => new Function(source)).not.toThrow();
  });

  it("stays far below the budget on its own", () => {
    expect(gz(publicPageScript({ AsPathQuery: 15, IpPrefixQuery: 15, PingQuery: 40, TracerouteQuery: 60 }, labels))).toBeLessThan(4_000);
  });
});

describe("loadsAppScripts", () => {
  it("is false only when a matched route's handle says so", () => {
    expect(loadsAppScripts([undefined, { needsModernBrowser: true }])).toBe(true);
    expect(loadsAppScripts([undefined, WITHOUT_APP_SCRIPTS_HANDLE])).toBe(false);
    expect(loadsAppScripts([{ appScripts: "no" }])).toBe(true);
  });
});
