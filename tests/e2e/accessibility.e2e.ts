// Accessibility: an automated WCAG 2.1 AA check (axe-core) over every screen, logged out, as the demo superuser and as
// the delegated user, with JavaScript off (the server's HTML with the app's scripts blocked, axe injected) and, where the
// scripts change what a screen offers, on (the same server answer, hydrated), in one test per screen;
// the main journeys by keyboard alone with a visible focus; the phone layout (390×844); the public legal pages; the
// incompatible-browser warning only where a screen needs a modern browser; no menu item for tools not built yet.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { APIResponse, Browser, Cookie, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appURL, describeBothModes, launchBrowser, newPage, type BrowserMode } from "./browser";
import { firstRoutingMinute } from "./controlplane-page";
import { DEMO_USERS, logIn, type Credentials } from "./login";

const AXE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../node_modules/axe-core/axe.min.js");
const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const { admin: ADMIN, delegated: DELEGATED } = DEMO_USERS;
const LG_RESULTS = "/lookingglass?selectedVantagePoints=%5B%22all%22%5D&queryType=IP_PREFIX_QUERY&queryTerm=203.0.113.0%2F24";
const PUBLIC_LG_RESULTS = "/public/lookingglass?selectedVantagePoints=%5B%22all%22%5D&queryType=IP_PREFIX_QUERY&queryTerm=203.0.113.0%2F24";

/** Serious and critical WCAG 2.1 AA findings of the page as it is now, one line per rule with the elements. */
async function axeFindings(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (c: Document, o: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: tags } });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  }, WCAG_AA);
}

type Scan = { findings: string[]; h1: number };

/**
 * Screens scanned with JavaScript on as well as off: those whose scripts change what a screen reader or a keyboard meets
 * (controls added, replaced or removed: the Looking Glass's interactive table, the planners' column picker and detail,
 * the date pickers, the filter chips, the restriction's value search), and one page per kind of visitor for the shell
 * (the header's menu replaces two of its forms). On every other screen the scripts hydrate the server's HTML into the
 * same landmarks, headings, controls, labels and ARIA attributes (compared element by element with the demo network
 * in both modes), so a second axe scan would read the same page again: those are scanned once, as the server sends them.
 */
/** The root-cause analysis of AS2906 (a demo content network) over the last full day. */
const ROOT_CAUSE_RESULT = `/flow-explorer/rootcause?${new URLSearchParams({
  dimension: "AS_SRC_INGRESS",
  value: "2906",
  start: new Date((Math.floor(Date.now() / 3_600_000) - 25) * 3_600_000).toISOString().replace(/\.000Z$/, "Z"),
  duration: "1d",
})}`;
const BOTH_MODES = new Set([
  "/login",
  "/flow-explorer",
  "/flow-explorer?view=sankey&dimension2=AS_DST_INGRESS",
  "/as-flows-analysis",
  `/border-planner?group=router&dateRange=LAST_7_DAYS&link=${encodeURIComponent("lon-er1|ae4")}`,
  "/core-planner?dateRange=LAST_90_DAYS",
  LG_RESULTS,
  `${LG_RESULTS}&ribView=post-policy&community=65535%3A666`,
  "/manage-delegated-users?new=1",
  "/alerts",
  "/rna?timeseries=exporter_name",
  "/as-relations?asn=3356",
]);
/** The delegated user's screens in both modes: their restriction changes the filter bar and the planner. */
const DELEGATED_BOTH_MODES = new Set(["/flow-explorer", "/border-planner"]);

/**
 * The findings of a screen with JavaScript off and, when asked, on, from one server answer. axe is injected as a script,
 * which the app's Content-Security-Policy forbids, so every scan opens the URL with the given cookies in a page that
 * bypasses the policy (the policy itself is checked in security-headers.e2e.ts). With JavaScript off axe cannot run in
 * the page itself, so the app's script files are blocked instead: the server's HTML, never hydrated. The server cannot
 * tell the two modes apart, so it renders the page once: the answer to the first page's navigation is kept and given to
 * the second page's, which hydrates it (its later requests, such as a lazily loaded table's, reach the server).
 */
async function scanModes(browser: Browser, cookies: Cookie[], url: string, withJavaScript: boolean): Promise<[string, Scan][]> {
  const target = appURL(url);
  let served: { response: APIResponse; body: Buffer } | null = null;
  const scanIn = async (javaScriptEnabled: boolean): Promise<Scan> => {
    const handle = await newPage(browser, { javaScriptEnabled: true, bypassCSP: true });
    try {
      await handle.context.addCookies(cookies);
      await handle.page.route("**/*", async (route) => {
        const request = route.request();
        if (!javaScriptEnabled && request.resourceType() === "script") return route.abort();
        if (request.isNavigationRequest() && request.url() === target && request.frame() === handle.page.mainFrame()) {
          if (served) return route.fulfill({ response: served.response, body: served.body });
          const response = await route.fetch({ maxRedirects: 0 });
          const body = await response.body();
          // A redirect is not kept: the page it leads to is answered by the server as usual, in each mode.
          if (response.status() < 300 || response.status() >= 400) served = { response, body };
          return route.fulfill({ response, body });
        }
        return route.continue();
      });
      // With JavaScript, scan the settled page: lazily loaded parts (the Looking Glass's interactive table) replace the
      // server's markup after "load", and a scan in between reads a page that is half one and half the other.
      await handle.page.goto(target, { waitUntil: javaScriptEnabled ? "networkidle" : "load" });
      return { findings: await axeFindings(handle.page), h1: await handle.page.locator("h1").count() };
    } finally {
      await handle.context.close();
    }
  };
  const scans: [string, Scan][] = [["JavaScript off", await scanIn(false)]];
  if (withJavaScript) scans.push(["JavaScript on", await scanIn(true)]);
  return scans;
}

/** No serious or critical finding and one h1 on `url`, with JavaScript off and, with `withJavaScript`, on. */
async function expectAccessible(browser: Browser, cookies: Cookie[], url: string, withJavaScript: boolean) {
  for (const [label, scan] of await scanModes(browser, cookies, url, withJavaScript)) {
    expect(scan.findings, `${url} (${label})`).toEqual([]);
    expect(scan.h1, `one h1 on ${url} (${label})`).toBe(1);
  }
}

const modesOf = (both: boolean) => (both ? "JavaScript on and off" : "JavaScript off, the same structure as on");

/**
 * One session per demo user for the whole file: the scans only read pages, and each login costs the server a password
 * hash (the login itself is tested by shell.e2e.ts, login-feedback.e2e.ts and the keyboard journey below).
 */
const sessions = new Map<string, Promise<Cookie[]>>();
function sessionOf(browser: Browser, user: Credentials): Promise<Cookie[]> {
  let cookies = sessions.get(user.email);
  if (!cookies) {
    cookies = (async () => {
      const { context, page } = await newPage(browser);
      try {
        await logIn(page, user);
        return await context.cookies();
      } finally {
        await context.close();
      }
    })();
    sessions.set(user.email, cookies);
  }
  return cookies;
}

/** The browser the axe scans share (each scan in a context of its own), launched before the first test. */
let scanBrowser: Browser | undefined;
const browserForScans = () => {
  if (!scanBrowser) throw new Error("accessibility.e2e.ts: the scans' browser is launched in beforeAll");
  return scanBrowser;
};

/** Site settings the anonymous screens need (self-signup, public Looking Glass), set as the superuser; restored after. */
async function setSiteFlags(flags: {
  enable_user_self_signup: boolean;
  public_looking_glass_enabled: boolean;
}): Promise<Record<string, boolean>> {
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser);
    await logIn(page, ADMIN);
    await page.goto(appURL("/site-settings"));
    const form = page.locator("form[aria-label='Site settings']");
    const before: Record<string, boolean> = {};
    for (const [name, on] of Object.entries(flags)) {
      const box = form.locator(`input[name=${name}]`);
      before[name] = await box.isChecked();
      if (before[name] !== on) await box.setChecked(on, { force: true });
    }
    await Promise.all([page.waitForURL(/saved=site/), form.getByRole("button", { name: "Save site settings" }).click()]);
    return before;
  } finally {
    await browser.close();
  }
}

let restore: Record<string, boolean> | null = null;
beforeAll(async () => {
  restore = await setSiteFlags({ enable_user_self_signup: true, public_looking_glass_enabled: true });
  scanBrowser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await scanBrowser?.close();
  if (restore) await setSiteFlags(restore as { enable_user_self_signup: boolean; public_looking_glass_enabled: boolean });
}, 180_000);

/** The demo user's session in this test's context: the page is logged in without a login of its own. */
async function useSession(m: BrowserMode, user: Credentials) {
  await m.context.addCookies(await sessionOf(browserForScans(), user));
}

describe("WCAG 2.1 AA (axe) logged out", () => {
  for (const url of ["/login", "/signup", "/password-reset", "/public/lookingglass", PUBLIC_LG_RESULTS, "/imprint", "/privacy-policy"]) {
    it(`no serious or critical finding on ${url} (${modesOf(BOTH_MODES.has(url))})`, async () => {
      await expectAccessible(browserForScans(), [], url, BOTH_MODES.has(url));
    });
  }
});

describe("WCAG 2.1 AA (axe) as the superuser", () => {
  const screens = [
    "/flow-explorer",
    "/flow-explorer?view=sankey&dimension2=AS_DST_INGRESS",
    "/as-flows-egress",
    "/as-flows-analysis",
    "/border-planner",
    `/border-planner?group=router&dateRange=LAST_7_DAYS&link=${encodeURIComponent("lon-er1|ae4")}`,
    "/core-planner",
    "/core-planner?dateRange=LAST_90_DAYS",
    "/revenues-and-costs",
    LG_RESULTS,
    // A community filter and a chosen table: the private form's two more fields.
    `${LG_RESULTS}&ribView=post-policy&community=65535%3A666`,
    // The Raw Network Analyzer with its timeseries (the chart replaces the table with JavaScript) and aggregated with a bad prefix.
    "/rna?timeseries=exporter_name",
    "/rna?aggregationPrefixV4=24&aggregationPrefixV6=200",
    // The root-cause analysis: its form, and an analysis of the last day of a demo content network's traffic.
    "/flow-explorer/rootcause",
    ROOT_CAUSE_RESULT,
    "/help",
    "/help/analytics-chapter-1",
    // AS Relations with a neighbour's detail open.
    "/as-relations",
    "/as-relations?asn=3356",
    "/faq",
    "/notifications",
    "/notifications?archived=1",
    "/settings",
    "/site-settings",
    "/site-settings/inventory",
    "/site-settings/inventory?router=fra-er1",
    "/site-settings/data-sources",
    "/site-settings/routing-data",
    // The community labels' form with the demo's first label open for editing.
    "/site-settings/routing-data?edit_label=1",
    "/manage-tags",
    "/manage-tags?kind=ROUTER",
    // The confirm step of deleting the demo network's first tag (a shared one).
    "/manage-tags?delete_tag=1",
    "/manage-users",
    "/manage-users?new=1",
    "/manage-users?user=2",
    "/manage-users?view=requests",
    "/manage-users?view=audit",
    "/manage-delegated-users",
    "/manage-delegated-users?new=1",
    // The Alerts screen: the list with the new-rule form, and that form prefilled from a Flow Explorer view.
    "/alerts",
    "/alerts?new=1&dimension=AS_HND_INGRESS&filter=AS_SRC_INGRESS%3A2906&ipVersion=4",
    "/mappings/applications",
    "/mappings/infrastructures",
    "/mappings/as",
    "/mappings/as?id=3320",
    "/no-such-page",
  ];
  for (const url of screens) {
    it(`no serious or critical finding on ${url} (${modesOf(BOTH_MODES.has(url))})`, async () => {
      await expectAccessible(browserForScans(), await sessionOf(browserForScans(), ADMIN), url, BOTH_MODES.has(url));
    });
  }

  it("no serious or critical finding on the Control Plane with results", async () => {
    // The query is made with JavaScript (the form in both modes is controlplane.e2e.ts's); its answer is scanned in both.
    const cookies = await sessionOf(browserForScans(), ADMIN);
    const { context, page } = await newPage(browserForScans());
    let url: URL;
    try {
      await context.addCookies(cookies);
      await page.goto(appURL("/controlplane"), { waitUntil: "networkidle" });
      const form = page.locator("form[aria-label='Control Plane query']");
      await page.fill("form[aria-label='Control Plane query'] input[name=start]", await firstRoutingMinute(page));
      await page.fill("form[aria-label='Control Plane query'] input[name=queryTerm]", "* 3320");
      await Promise.all([page.waitForURL(/queryTerm=/), form.locator("button[type=submit]").click()]);
      await page.locator("[data-testid=controlplane-table] tbody tr").first().waitFor();
      url = new URL(page.url());
    } finally {
      await context.close();
    }
    await expectAccessible(browserForScans(), cookies, url.pathname + url.search, true);
  });
});

describeBothModes("charts' text alternative as the superuser", (m) => {
  it("labels the charts' SVG and points to the table", async () => {
    await useSession(m, ADMIN);
    await m.goto("/flow-explorer");
    const chart = m.page.locator("[data-testid=timeseries-chart] svg[role=img]").first();
    expect(await chart.getAttribute("aria-label")).toMatch(
      // A bucket that has not ended is left out of the drawing, and the text alternative says so too.
      /^Stacked area chart of traffic in bit\/s over time, .* The table below the chart lists the figures\.( The buckets? from .* (is|are) not complete and (is|are) not drawn\.)?$/,
    );
    await m.goto("/flow-explorer?view=sankey&dimension2=AS_DST_INGRESS");
    const sankey = m.page.locator("[data-testid=sankey-chart] svg[role=img]").first();
    expect(await sankey.getAttribute("aria-label")).toMatch(
      /^Sankey diagram of traffic in bit\/s with \d+ nodes .* to .* The table below the chart lists the figures\.$/,
    );
  });
});

describe("WCAG 2.1 AA (axe) as the delegated user", () => {
  for (const url of ["/flow-explorer", "/border-planner", "/faq", "/notifications", "/settings", "/no-such-page"]) {
    it(`no serious or critical finding on ${url} (${modesOf(DELEGATED_BOTH_MODES.has(url))})`, async () => {
      await expectAccessible(browserForScans(), await sessionOf(browserForScans(), DELEGATED), url, DELEGATED_BOTH_MODES.has(url));
    });
  }
});

describeBothModes("settings of the delegated user", (m) => {
  it("shows no Core Planner settings (the demo's delegated user may use the Border Planner, not the Core Planner)", async () => {
    await useSession(m, DELEGATED);
    await m.goto("/settings");
    const text = await m.page.locator("main").innerText();
    expect(text).toContain("Timezone");
    expect(text).not.toContain("Core Planner");
    expect(await m.page.locator("input[name=intlinks_util_threshold_medium]").count()).toBe(0);
    expect(await m.page.locator("input[name=extlinks_util_threshold_medium]").count()).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Keyboard only

/** Whether the focused element (or the input wrapper around it) shows a focus indicator: an outline or a box-shadow. */
async function focusVisible(page: Page): Promise<{ tag: string; visible: boolean }> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    if (!active || active === document.body) return { tag: "body", visible: false };
    let el: HTMLElement | null = active;
    for (let depth = 0; el && depth < 3; depth++, el = el.parentElement) {
      const s = getComputedStyle(el);
      const outline = s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0;
      if (outline || (s.boxShadow && s.boxShadow !== "none")) return { tag: active.outerHTML.slice(0, 80), visible: true };
    }
    return { tag: active.outerHTML.slice(0, 80), visible: false };
  });
}

/** Presses Tab (checking every stop shows its focus) until `matches` holds for the focused element; at most `limit` presses. */
async function tabTo(page: Page, matches: string, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    const focus = await focusVisible(page);
    expect(focus.visible, `focus indicator on ${focus.tag}`).toBe(true);
    if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, matches)) return;
  }
  throw new Error(`${matches} not reached with ${limit} Tab presses`);
}

describeBothModes("keyboard only", (m) => {
  it("logs in", async () => {
    await m.goto("/login");
    await tabTo(m.page, "input[name=email]");
    await m.page.keyboard.type(ADMIN.email);
    await tabTo(m.page, "input[name=password]");
    await m.page.keyboard.type(ADMIN.password);
    await Promise.all([m.page.waitForURL((url) => url.pathname !== "/login"), m.page.keyboard.press("Enter")]);
    expect(new URL(m.page.url()).pathname).toBe("/flow-explorer");
  });

  it("runs a Flow Explorer view", async () => {
    await logIn(m.page, ADMIN);
    await m.goto("/flow-explorer");
    await tabTo(m.page, "select[name=dimension]");
    const before = await m.page.locator("select[name=dimension]").inputValue();
    await m.page.keyboard.press("ArrowDown");
    const chosen = await m.page.locator("select[name=dimension]").inputValue();
    expect(chosen).not.toBe(before);
    if (m.javaScriptEnabled) {
      // With JavaScript a changed option applies itself, and the keyboard user keeps their place:
      // the form drawn for the new URL gives the focus back to the same control, visibly.
      await m.page.waitForURL((url) => url.searchParams.get("dimension") === chosen);
      await m.page.waitForFunction(() => (document.activeElement as HTMLSelectElement | null)?.name === "dimension");
      expect((await focusVisible(m.page)).visible).toBe(true);
    } else {
      await tabTo(m.page, "form[aria-label$='options'] button[type=submit]");
      await Promise.all([m.page.waitForURL((url) => url.searchParams.get("dimension") === chosen), m.page.keyboard.press("Enter")]);
    }
    await m.page.locator("[data-testid=timeseries-chart]").waitFor();
  });

  it("changes the Border Planner's grouping and opens a link's detail", async () => {
    await logIn(m.page, ADMIN);
    await m.goto("/border-planner?dateRange=LAST_7_DAYS");
    await tabTo(m.page, "select[name=group]");
    for (let i = 0; i < 3 && (await m.page.locator("select[name=group]").inputValue()) !== "router"; i++)
      await m.page.keyboard.press("ArrowDown");
    expect(await m.page.locator("select[name=group]").inputValue()).toBe("router");
    await tabTo(m.page, "[data-testid=planner-apply]");
    await Promise.all([m.page.waitForURL((url) => url.searchParams.get("group") === "router"), m.page.keyboard.press("Enter")]);
    await tabTo(m.page, "[data-testid=planner-open-detail]", 150);
    await Promise.all([m.page.waitForURL((url) => url.searchParams.has("link")), m.page.keyboard.press("Enter")]);
    await m.page.locator("[data-testid=planner-detail]").waitFor();
  });

  it("filters the Raw Network Analyzer with an nfdump expression and sorts by a column", async () => {
    await logIn(m.page, ADMIN);
    await m.goto("/rna");
    await tabTo(m.page, "input[name=q]");
    await m.page.keyboard.type("proto tcp");
    await Promise.all([m.page.waitForURL((url) => url.searchParams.get("q") === "proto tcp"), m.page.keyboard.press("Enter")]);
    await m.page.locator("[data-testid=rna-table] tbody tr").first().waitFor();
    await tabTo(m.page, "[data-testid=rna-sort-bytes_scaled]", 200);
    expect((await focusVisible(m.page)).visible).toBe(true);
    await Promise.all([m.page.waitForURL((url) => url.searchParams.get("sort") === "bytes_scaled:desc"), m.page.keyboard.press("Enter")]);
    await m.page.locator("th[aria-sort=descending] [data-testid=rna-sort-bytes_scaled]").waitFor();
  });

  it("adds an alert rule on the Alerts screen", async () => {
    const name = `Keyboard rule (${m.label})`;
    await logIn(m.page, ADMIN);
    await m.goto("/alerts");
    await tabTo(m.page, "form[aria-label='Add an alert rule'] input[name=name]", 150);
    await m.page.keyboard.type(name);
    await tabTo(m.page, "form[aria-label='Add an alert rule'] input[name=value]");
    await m.page.keyboard.type("2906");
    await tabTo(m.page, "form[aria-label='Add an alert rule'] input[name=threshold]");
    await m.page.keyboard.type("900G");
    await Promise.all([m.page.waitForURL(/saved=created/), m.page.keyboard.press("Enter")]);
    const row = m.page.locator("[data-testid=alerts-table] tbody tr", { hasText: name });
    await row.waitFor();
    // Leave nothing behind: its delete link (above the form: from the top of the page) and the confirm step, by keyboard as well.
    const rule = new URL(m.page.url()).searchParams.get("rule");
    await m.goto(`/alerts?rule=${rule}`);
    await tabTo(m.page, `a[href='/alerts?delete=${rule}']`, 200);
    await Promise.all([m.page.waitForURL(/delete=/), m.page.keyboard.press("Enter")]);
    await tabTo(m.page, "[data-testid=alert-delete-step] button[type=submit]", 100);
    await Promise.all([m.page.waitForURL(/saved=deleted/), m.page.keyboard.press("Enter")]);
    expect(await m.page.locator("[data-testid=alerts-table] tbody tr", { hasText: name }).count()).toBe(0);
  });

  it("queries the Looking Glass", async () => {
    await logIn(m.page, ADMIN);
    await m.goto("/lookingglass");
    await tabTo(m.page, "input[value=all]");
    await m.page.keyboard.press("Space");
    await tabTo(m.page, "select[name=queryType]");
    for (let i = 0; i < 6 && (await m.page.locator("select[name=queryType]").inputValue()) !== "IpPrefixQuery"; i++)
      await m.page.keyboard.press("ArrowDown");
    expect(await m.page.locator("select[name=queryType]").inputValue()).toBe("IpPrefixQuery");
    await tabTo(m.page, "input[name=queryTerm]");
    await m.page.keyboard.type("203.0.113.0/24");
    await m.page.keyboard.press("Enter");
    await m.page.locator("[data-testid=lookingglass-table] tbody tr").first().waitFor({ timeout: 60_000 });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Phone: 390×844

describeBothModes("phone layout (390×844)", (m) => {
  async function phone() {
    const handle = await m.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await logIn(handle.page, ADMIN);
    return handle.page;
  }

  it("folds the header's actions into the menu, without horizontal overflow", async () => {
    const page = await phone();
    await page.goto(appURL("/faq"));
    const header = page.locator("header").first();
    const overflow = await header.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(overflow.scroll).toBeLessThanOrEqual(overflow.client);
    expect(await page.locator("[data-testid=header-actions]").isVisible()).toBe(false);
    await page.locator("[data-testid=phone-menu] > summary").click();
    const menu = page.locator("[data-testid=phone-menu]");
    for (const name of ["Notifications", "Settings", "Site settings", "Log out", "Flow Explorer", "Looking Glass"]) {
      const item = menu.getByText(name, { exact: false }).first();
      expect(await item.isVisible(), name).toBe(true);
      const box = (await item.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await Promise.all([page.waitForURL(/\/login/), menu.getByRole("button", { name: "Log out" }).click()]);
  });

  it("covers nothing of the page with the footer or anything fixed", async () => {
    const page = await phone();
    await page.goto(appURL("/settings"));
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    // The last element of the page's content and the footer's links: what the finger hits there is the element itself.
    for (const selector of ["main form[action='/consent'] button", "footer a[href='/privacy-policy']"]) {
      const hit = await page.locator(selector).evaluate((el) => {
        const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return { inView: r.bottom <= window.innerHeight && r.top >= 0, own: !!top && (top === el || el.contains(top)) };
      });
      expect(hit, selector).toEqual({ inView: true, own: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Shell pages

describeBothModes("imprint and privacy policy", (m) => {
  it("are public pages whose text staff write in the site settings, shown as text", async () => {
    await logIn(m.page, ADMIN);
    await m.goto("/site-settings");
    const form = m.page.locator("form[aria-label='Imprint and privacy policy']");
    const save = async (text: string) => {
      await form.locator("textarea[name=imprint_text]").fill(text);
      // Wait for the save itself: after the first one the address already says saved=legal.
      const saved = m.page.waitForResponse(
        (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/site-settings"),
      );
      await form.getByRole("button", { name: "Save imprint and privacy policy" }).click();
      await saved;
      await m.page.waitForURL(/saved=legal/);
    };
    await save("# Operator\nflowlens Demo Carrier\n\n<b>not bold</b>");

    const anonymous = await m.newPage();
    const res = await anonymous.page.goto(appURL("/imprint"));
    expect(res?.status()).toBe(200);
    expect(await anonymous.page.locator("h1").innerText()).toBe("Imprint");
    const text = anonymous.page.locator("[data-testid=legal-text]");
    expect(await text.locator("h2").innerText()).toBe("Operator");
    expect(await text.innerText()).toContain("<b>not bold</b>");
    expect(await text.locator("b").count()).toBe(0);

    await save("");
    await anonymous.page.goto(appURL("/imprint"));
    expect(await text.innerText()).toContain("has not filled in the imprint yet");
    // Linked from every logged-in page's footer.
    expect(await m.page.locator("footer a[href='/imprint']").count()).toBe(1);
  });
});

describeBothModes("menu", (m) => {
  it("lists only the tools that exist; their paths give the not-found page", async () => {
    await logIn(m.page, ADMIN);
    await m.goto("/faq");
    const menu = (await m.page.locator("nav[aria-label=Tools]").innerText()).split("\n").map((item) => item.trim());
    expect(menu).toContain("Flow Explorer");
    expect(menu).toContain("Users");
    expect(menu).toContain("Delegated Users");
    expect(menu).toContain("Core Planner");
    expect(menu).toContain("Border Planner");
    expect(menu).toContain("Raw Network Analyzer");
    expect(menu).toContain("AS Relations");
    expect(menu).toContain("Revenues & Costs");
    // A path that names no tool answers the not-found page, not a placeholder.
    const res = await m.goto("/no-such-tool");
    expect(res?.status()).toBe(404);
    expect(await m.page.locator("body").innerText()).not.toContain("Not available yet");
  });
});

describe("incompatible-browser warning", () => {
  it("shows only on screens that need a modern browser, not to text browsers on the public Looking Glass or the login", async () => {
    const browser = await launchBrowser();
    try {
      const { page } = await newPage(browser, { userAgent: "w3m/0.5.3+git20230121", javaScriptEnabled: false });
      for (const url of ["/public/lookingglass", "/login", "/imprint"]) {
        await page.goto(appURL(url));
        expect(await page.locator("[data-testid=browser-warning]").count(), url).toBe(0);
      }
      await logIn(page, ADMIN);
      await page.goto(appURL("/faq"));
      expect(await page.locator("[data-testid=browser-warning]").count()).toBe(0);
      await page.goto(appURL("/flow-explorer"));
      expect(await page.locator("[data-testid=browser-warning]").count()).toBe(1);
    } finally {
      await browser.close();
    }
  });
});

describe("locked filter chip", () => {
  it("marks a delegated user's restriction with an icon, not an emoji", async () => {
    const browser = await launchBrowser();
    try {
      const { page } = await newPage(browser);
      await logIn(page, DELEGATED);
      await page.goto(appURL("/flow-explorer"));
      const chip = page.locator("[data-testid=filter-chip][data-locked]").first();
      await chip.waitFor();
      expect(await chip.locator("svg[data-testid=locked-icon]").count()).toBe(1);
      expect(await chip.innerText()).not.toContain("🔒");
    } finally {
      await browser.close();
    }
  });
});
