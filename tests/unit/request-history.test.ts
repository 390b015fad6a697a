/**
 * The browser's request history: the 30 newest calls of every client of the tab, without the CSRF
 * header, cookies or a token; and the curl text of one call: quoted for a POSIX shell (a single
 * quote in the body survives), $FLOWLENS_TOKEN in place of a token, no secret of the session.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { createApiClient } from "~/lib/api-client";
import { curlOf, historyHeaders, RequestHistory, shellQuote, type HistoryEntry } from "~/lib/request-history";

const ok = () => new Response('{"ok":true}', { status: 200, headers: { "Content-Type": "application/json" } });

const entry = (overrides: Partial<HistoryEntry> = {}): HistoryEntry => ({
  body: null,
  data: null,
  headers: { Accept: "application/json; version=17" },
  method: "GET",
  params: {},
  path: "api/x/",
  timestamp: 0,
  uid: "u",
  url: "/api/x/",
  verboseName: "api/x/",
  ...overrides,
});

describe("request history", () => {
  it("keeps the 30 newest calls, newest first", () => {
    const history = new RequestHistory();
    for (let i = 0; i < 45; i++) history.add(entry({ uid: String(i), path: `api/x${i}/` }));
    expect(history.list()).toHaveLength(30);
    expect(history.list()[0].path).toBe("api/x44/");
    expect(history.list()[29].path).toBe("api/x15/");
  });

  it("is shared by the clients given it, capped at 30, with the spec's fields and no CSRF header", async () => {
    const history = new RequestHistory();
    const a = createApiClient({ fetch: async () => ok(), history });
    const b = createApiClient({ fetch: async () => ok(), history });
    for (let i = 0; i < 20; i++) await a.request(`api/a${i}/`, { params: { q: String(i) } });
    for (let i = 0; i < 20; i++) await b.request("api/mapping/", { method: "PUT", body: { i }, verboseName: `Save ${i}` });
    const list = history.list();
    expect(list).toHaveLength(30);
    expect(new Set(list.map((e) => e.uid)).size).toBe(30);
    expect(list[0]).toMatchObject({ method: "PUT", path: "api/mapping/", url: "/api/mapping/", body: { i: 19 }, verboseName: "Save 19" });
    expect(list[29]).toMatchObject({ method: "GET", path: "api/a10/", url: "/api/a10/?q=10", params: { q: "10" }, data: { ok: true } });
    expect(Object.keys(list[0]).sort()).toEqual(
      ["body", "data", "headers", "method", "params", "path", "timestamp", "uid", "url", "verboseName"].sort(),
    );
    for (const e of list) expect(Object.keys(e.headers).map((h) => h.toLowerCase())).not.toContain("x-csrftoken");
    expect(list[0].headers["Content-Type"]).toBe("application/json");
  });

  it("drops the CSRF header, cookies and tokens whatever their case", () => {
    expect(historyHeaders({ "X-CSRFToken": "s", cookie: "sessionid=s", AUTHORIZATION: "Token fl_s", Accept: "a" })).toEqual({
      Accept: "a",
    });
  });
});

describe("copy as curl", () => {
  const secretEntry = entry({
    method: "POST",
    path: "api/rna/",
    url: "/api/rna/?x=a b",
    headers: {
      Accept: "application/json; version=17",
      "Content-Type": "application/json",
      "X-CSRFToken": "csrfsecret",
      Cookie: "sessionid=abc",
    },
    body: { filter: 'it\'s "quoted" $HOME `id`', n: 1 },
  });

  it("names $FLOWLENS_TOKEN and no secret", () => {
    const text = curlOf(secretEntry, "https://flowlens.example");
    expect(text).toContain('-H "Authorization: Token $FLOWLENS_TOKEN"');
    expect(text).not.toMatch(/csrfsecret|sessionid|X-CSRFToken|Cookie/i);
    expect(text).toBe(
      `curl -sS -X 'POST' -H 'Accept: application/json; version=17' -H 'Content-Type: application/json' ` +
        `-H "Authorization: Token $FLOWLENS_TOKEN" --data-raw '{"filter":"it'\\''s \\"quoted\\" $HOME \`id\`","n":1}' ` +
        `'https://flowlens.example/api/rna/?x=a%20b'`,
    );
    expect(curlOf(entry(), "http://localhost:3000")).toBe(
      `curl -sS -H 'Accept: application/json; version=17' -H "Authorization: Token $FLOWLENS_TOKEN" 'http://localhost:3000/api/x/'`,
    );
  });

  it("quotes so that a shell hands curl the exact body and URL", () => {
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
    // A shell reads the words back: replace curl by printf to see what it would receive.
    const text = curlOf(secretEntry, "https://flowlens.example").replace(/^curl /, "printf '%s\\n' ");
    const words = execFileSync("sh", ["-c", text], { env: { ...process.env, FLOWLENS_TOKEN: "fl_tok", HOME: "/nowhere" } })
      .toString()
      .split("\n");
    expect(words).toContain("Authorization: Token fl_tok");
    expect(words).toContain(JSON.stringify(secretEntry.body));
    expect(words).toContain("https://flowlens.example/api/rna/?x=a%20b");
  });
});
