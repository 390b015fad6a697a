// The application shell: health endpoint, login page, 404 page. Browser tests run with JavaScript on and off.
import { describe, expect, it } from "vitest";
import { appURL, describeBothModes } from "./browser";

const NOT_FOUND_TEXT_1 = "We are sorry, the page you requested cannot be found.";
const NOT_FOUND_TEXT_2 = "The URL may be misspelled or the page you are looking for is no longer available.";

describe("GET /healthz", () => {
  it("returns 200 with both stores ok", async () => {
    const res = await fetch(appURL("/healthz"), { redirect: "manual" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type") ?? "").toMatch(/application\/json/);
    const body = await res.json();
    expect(body).toMatchObject({
      status: "ok",
      postgres: { ok: true },
      clickhouse: { ok: true },
    });
  });
});

describeBothModes("login page", (m) => {
  it("renders a sign-in form and the flowlens title", async () => {
    const res = await m.goto("/login");
    expect(res?.status()).toBe(200);

    const form = m.page.locator("form", { has: m.page.locator("input[type=password]") });
    expect(await form.count()).toBe(1);
    expect(await m.page.locator("form input[type=password]").count()).toBe(1);
    expect(await m.page.locator("form input[type=password]").isVisible()).toBe(true);

    const user = form.locator(
      "input[type=email], input[name=email], input[name=username], input[autocomplete=username], input[type=text]",
    );
    expect(await user.count()).toBeGreaterThanOrEqual(1);
    expect(await user.first().isVisible()).toBe(true);

    const submit = form.locator("button[type=submit], input[type=submit], button:not([type])");
    expect(await submit.count()).toBeGreaterThanOrEqual(1);
    expect(await submit.first().isVisible()).toBe(true);

    expect(await m.page.title()).toMatch(/flowlens/i);
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  });
});

describeBothModes("unknown page", (m) => {
  it("shows the 404 page with a link to the flow explorer", async () => {
    const res = await m.goto("/this-page-does-not-exist");
    expect(res?.status()).toBe(404);

    const text = await m.page.locator("body").innerText();
    expect(text).toContain(NOT_FOUND_TEXT_1);
    expect(text).toContain(NOT_FOUND_TEXT_2);
    expect(await m.page.locator('a[href="/flow-explorer"]').count()).toBeGreaterThanOrEqual(1);

    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  });
});
