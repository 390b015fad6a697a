// The guided tours in Chromium, as the demo superuser (every permission, staff): the walker starts every tour from the
// header's help button on its screen and steps through every step, failing when a step's anchor (data-tour) is missing
// on its screen — so a renamed element breaks this test, not the tour; the status each walk leaves on the server; focus
// in the step, Escape, the announcement; axe on an open step. With JavaScript off, every tour's help page /help/<id>
// carries the catalogue's step titles in order. The welcome tour is walked as the demo's delegated account with the
// site's welcome page switched on for the test (off in the demo) and off again after it.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOURS, type Tour } from "~/features/help/tours";
import { appURL, launchBrowser, newPage, screenshot, type PageHandle } from "./browser";
import { DEMO_USERS, logIn } from "./login";
import { setSiteCheckbox } from "./site-settings";

const AXE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../node_modules/axe-core/axe.min.js");
const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const WALKED = TOURS.filter((t) => !t.audience.welcome);

let browser: Browser;
const open: PageHandle[] = [];

async function adminPage(javaScriptEnabled = true): Promise<Page> {
  const handle = await newPage(browser, { javaScriptEnabled, bypassCSP: true });
  open.push(handle);
  await logIn(handle.page, DEMO_USERS.admin);
  return handle.page;
}

/** Opens the tour's screen and starts the tour from the header's help button. */
async function startFromHelpButton(page: Page, tour: Tour): Promise<void> {
  await page.goto(appURL(tour.path));
  const header = page.locator("[data-testid=header-actions]");
  await header.locator("[data-testid=help-menu] > summary").click();
  const entry = header.locator(`[data-testid=help-tour][data-tour-id="${tour.id}"]`);
  // The start button is drawn once the page runs its scripts; a tour left Started (an earlier try) starts over.
  await entry.getByRole("button", { name: /^(Start the tour|From the start)$/ }).click();
}

/** The open step: its card, which must be the tour's step `index`, with the anchor present on the page. */
async function expectStep(page: Page, tour: Tour, index: number): Promise<void> {
  const step = tour.steps[index];
  const card = page.locator(`[data-testid=tour-step][data-tour-id="${tour.id}"][data-step="${index}"]`);
  try {
    await card.waitFor({ timeout: 30_000 });
  } catch {
    await screenshot(page, `tour ${tour.id} step ${index + 1}`);
    const anchors = await page.locator(`[data-tour="${step.anchor}"]`).count();
    throw new Error(
      `${tour.id}, step ${index + 1} ("${step.title}"): not shown on ${page.url()}; [data-tour="${step.anchor}"] found ${anchors} times`,
    );
  }
  expect(await page.locator(`[data-tour="${step.anchor}"]`).count(), `${tour.id} step ${index + 1}: anchor ${step.anchor}`).toBeGreaterThan(
    0,
  );
  expect(await card.getByRole("heading").innerText()).toBe(step.title);
}

/** Starts the tour from the help button and steps through every step to Finish; the server records it Finished. */
async function walk(page: Page, tour: Tour): Promise<void> {
  await startFromHelpButton(page, tour);
  for (let i = 0; i < tour.steps.length; i++) {
    await expectStep(page, tour, i);
    const last = i === tour.steps.length - 1;
    await page
      .locator("[data-testid=tour-step]")
      .getByRole("button", { name: last ? "Finish" : "Next" })
      .click();
  }
  await page.locator("[data-testid=tour-step]").waitFor({ state: "detached" });
  await expect.poll(async () => (await statesOf(page))[tour.id]?.status, { message: tour.id }).toBe("Finished");
}

async function statesOf(page: Page): Promise<Record<string, { status: string; step: number }>> {
  const res = await page.context().request.get(appURL("/usertracking/tours/"));
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { available: string[]; states: { tourId: string; status: string; step: number }[] };
  return Object.fromEntries(body.states.map((s) => [s.tourId, s]));
}

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const h of open) await h.context.close().catch(() => {});
  await browser?.close();
});

describe("guided tours (JavaScript on)", () => {
  it("walks every tour on its screens, every step's anchor present, and records it Finished", async () => {
    const page = await adminPage();
    const available = (await (await page.context().request.get(appURL("/usertracking/tours/"))).json()) as { available: string[] };
    expect(available.available).toEqual(TOURS.filter((t) => !t.audience.welcome).map((t) => t.id));
    for (const tour of WALKED) {
      await walk(page, tour);
    }
  }, 900_000);

  it("walks the welcome tour as a delegated account on a site with the welcome page enabled", async () => {
    const pages = {
      newPage: async () => {
        const handle = await newPage(browser, { bypassCSP: true });
        open.push(handle);
        return handle;
      },
    };
    await setSiteCheckbox(pages, "welcome_page_enabled", true);
    try {
      const { page } = await pages.newPage();
      await logIn(page, DEMO_USERS.delegated);
      const available = (await (await page.context().request.get(appURL("/usertracking/tours/"))).json()) as { available: string[] };
      expect(available.available).toContain("welcome");
      await walk(
        page,
        TOURS.find((t) => t.id === "welcome")!,
      );
    } finally {
      await setSiteCheckbox(pages, "welcome_page_enabled", false);
    }
  }, 300_000);

  it("moves focus into the step, announces it, ends with Escape and resumes at the step reached", async () => {
    const page = await adminPage();
    const tour = TOURS.find((t) => t.id === "control-plane")!;
    await startFromHelpButton(page, tour);
    await expectStep(page, tour, 0);
    await expect
      .poll(() => page.evaluate(() => !!document.activeElement?.closest("[data-testid=tour-step]")), { message: "focus in the step" })
      .toBe(true);
    expect(await page.locator("[data-testid=tour-announcement]").innerText()).toContain(
      `step 1 of ${tour.steps.length}: ${tour.steps[0].title}`,
    );
    expect(await page.locator("[data-testid=tour-step]").getAttribute("role")).toBe("dialog");
    await page.locator("[data-testid=tour-step]").getByRole("button", { name: "Next" }).click();
    await expectStep(page, tour, 1);
    await expect
      .poll(() => page.evaluate(() => !!document.activeElement?.closest("[data-testid=tour-step]")), { message: "focus in the next step" })
      .toBe(true);
    await page.keyboard.press("Escape");
    await page.locator("[data-testid=tour-step]").waitFor({ state: "detached" });
    await expect.poll(async () => (await statesOf(page))[tour.id]).toMatchObject({ status: "Started", step: 1 });
    // The help button offers to resume at the step reached.
    await page.reload();
    const header = page.locator("[data-testid=header-actions]");
    await header.locator("[data-testid=help-menu] > summary").click();
    await header
      .locator(`[data-testid=help-tour][data-tour-id="${tour.id}"]`)
      .getByRole("button", { name: "Resume the tour at step 2" })
      .click();
    await expectStep(page, tour, 1);
  });

  it("an open step passes axe (WCAG 2.1 AA, serious and critical)", async () => {
    const page = await adminPage();
    const tour = TOURS.find((t) => t.id === "analytics-chapter-1")!;
    await startFromHelpButton(page, tour);
    await expectStep(page, tour, 0);
    await page.addScriptTag({ path: AXE });
    const findings = await page.evaluate(async (tags) => {
      const axe = (
        window as unknown as {
          axe: {
            run: (c: Element, o: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }>;
          };
        }
      ).axe;
      const card = document.querySelector("[data-testid=tour-step]")!;
      const result = await axe.run(card, { runOnly: { type: "tag", values: tags } });
      return result.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    }, WCAG_AA);
    expect(findings).toEqual([]);
  });
});

describe("guided tours' help pages (JavaScript off)", () => {
  it("every tour's help page carries its step titles in order, linked from the help button and the FAQ", async () => {
    const page = await adminPage(false);
    for (const tour of WALKED) {
      const res = await page.goto(appURL(`/help/${tour.id}`));
      expect([tour.id, res?.status()]).toEqual([tour.id, 200]);
      expect(await page.locator("[data-testid=help-step-title]").allInnerTexts()).toEqual(tour.steps.map((s) => s.title));
      expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(tour.title);
    }
    // The help button of a screen lists that screen's tours with their help pages, without JavaScript too.
    await page.goto(appURL("/border-planner"));
    const header = page.locator("[data-testid=header-actions]");
    await header.locator("[data-testid=help-menu] > summary").click();
    const links = await header
      .locator("[data-testid=help-menu] [data-testid=help-tour] a")
      .evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(links).toEqual(["/help/border-planner", "/help/demolytics", "/help/how-to-read-a-95th"]);
    await page.goto(appURL("/faq"));
    const faqLinks = await page.locator("[data-testid=faq-tours] a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(faqLinks).toEqual(WALKED.map((t) => `/help/${t.id}`));
    expect(await page.locator("[data-testid=faq-section]").count()).toBeGreaterThanOrEqual(11);
  });
});
