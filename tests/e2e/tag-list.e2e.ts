// The Tag list in the browser, with JavaScript on and off: an operator opens it from the menu, pastes AS numbers of
// which one is not an AS number (refused next to the field, the list kept as typed), saves the corrected list, filters
// the Flow Explorer by the tag, deletes it through the confirm step, and the saved Flow Explorer link then shows a
// notice instead of a result. Routers not in the inventory are refused one by one; the page fits a phone's width.
import { expect, it } from "vitest";
import { describeBothModes } from "./browser";
import { DEMO_USERS, logIn } from "./login";

describeBothModes("tag list", (m) => {
  it("adds a tag from a pasted list, filters by it, and deleting it leaves saved links with a notice", async () => {
    // A name of its own per try: a retry must not meet the tag an interrupted try left.
    const name = `E2E transits (${m.javaScriptEnabled ? "JS" : "no JS"}) ${Date.now() % 100000}`;
    await logIn(m.page, DEMO_USERS.operator);
    await m.goto("/faq");
    await Promise.all([
      m.page.waitForURL(/\/manage-tags$/),
      m.page.locator("nav[aria-label=Tools]").getByRole("link", { name: "Tag list" }).click(),
    ]);
    await m.page.getByRole("heading", { name: "Tag list", level: 1 }).waitFor();
    const form = m.page.locator('form[aria-label="Add a tag"]');
    await form.locator("input[name=name]").fill(name);
    await form.locator("textarea[name=values]").fill("AS3320\nbanana, 1299");
    await form.getByRole("button", { name: "Add the tag" }).click();
    await m.page.getByText("banana is not a valid AS number input").waitFor();
    expect(await m.page.inputValue('form[aria-label="Add a tag"] textarea[name=values]')).toBe("AS3320\nbanana, 1299");

    await m.page.locator('form[aria-label="Add a tag"] textarea[name=values]').fill("AS3320\n1299\n3320");
    await Promise.all([
      m.page.waitForURL(/saved=tag-created/),
      m.page.locator('form[aria-label="Add a tag"]').getByRole("button", { name: "Add the tag" }).click(),
    ]);
    expect(await m.page.getByTestId("tags-saved").innerText()).toContain("The tag was added.");
    const row = m.page.getByTestId("tags-table").locator("tr", { hasText: name });
    expect(await row.innerText()).toContain("3320, 1299");
    const reference = (await row.locator("code").innerText()).trim();
    expect(reference).toMatch(/^#\d+$/);

    const link = `/flow-explorer?dimension=AS_SRC_INGRESS&filter=AS_SRC_INGRESS:${encodeURIComponent(reference)}`;
    await m.goto(link);
    await m.page.getByRole("heading", { name: "Flow Explorer" }).first().waitFor();
    expect(await m.page.getByTestId("filter-errors").count()).toBe(0);

    await m.goto("/manage-tags?kind=AS_NUMBER");
    // Delete asks first: the confirm step says what happens; cancelling keeps the tag.
    await m.page.getByRole("link", { name: `Delete tag ${name}` }).click();
    const step = m.page.getByTestId("delete-step");
    await step.waitFor();
    // Without JavaScript the step is a new page, read once it has loaded in full.
    await expect.poll(() => step.innerText()).toContain(`Saved links and bookmarks that filter by ${reference}`);
    await Promise.all([
      m.page.waitForURL((u) => !u.searchParams.has("delete_tag")),
      step.getByRole("link", { name: "Cancel, keep it" }).click(),
    ]);
    await step.waitFor({ state: "detached" });
    await expect.poll(() => m.page.getByTestId("tags-table").locator("tr", { hasText: name }).count()).toBe(1);
    await m.page.getByRole("link", { name: `Delete tag ${name}` }).click();
    await Promise.all([
      m.page.waitForURL(/saved=tag-deleted/),
      m.page.locator(`form[aria-label="Delete tag ${name}"]`).getByRole("button", { name: "Delete the tag" }).click(),
    ]);
    expect(await m.page.getByTestId("tags-saved").innerText()).toContain("Saved links and bookmarks that name it now show a notice");
    expect(await m.page.getByTestId("tags-table").locator("tr", { hasText: name }).count()).toBe(0);

    const res = await m.goto(link);
    expect(res?.status()).toBe(200);
    expect(await m.page.getByTestId("filter-errors").innerText()).toContain(`Unknown tag ${reference}: it was deleted`);
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  });

  it("keeps shared tags out of an operator's reach", async () => {
    await logIn(m.page, DEMO_USERS.operator);
    await m.goto("/manage-tags?kind=AS_NUMBER");
    const shared = m.page.locator('form[aria-label="Add a tag"] input[name=scope][value=shared]');
    expect(await shared.isDisabled()).toBe(true);
    const rows = m.page.getByTestId("tags-table").locator("tbody tr", { hasText: "Shared" });
    if (await rows.count()) expect(await rows.first().innerText()).toContain("staff and moderators edit it");
  });

  it("refuses routers the inventory lacks, each with its own message, and keeps the known ones", async () => {
    const name = m.javaScriptEnabled ? "E2E edge (JS)" : "E2E edge (no JS)";
    await logIn(m.page, DEMO_USERS.operator);
    await m.goto("/manage-tags?kind=ROUTER");
    const values = 'form[aria-label="Add a tag"] textarea[name=values]';
    await m.page.locator('form[aria-label="Add a tag"] input[name=name]').fill(name);
    await m.page.locator(values).fill("FRA-ER1\nnowhere-r1, nowhere-r2");
    await m.page.locator('form[aria-label="Add a tag"]').getByRole("button", { name: "Add the tag" }).click();
    await m.page.getByText("nowhere-r1 is not a router of the network inventory.", { exact: false }).waitFor();
    expect(await m.page.getByText("nowhere-r2 is not a router of the network inventory.", { exact: false }).count()).toBe(1);
    await expect.poll(() => m.page.inputValue(values)).toBe("FRA-ER1\nnowhere-r1, nowhere-r2");
    await m.page.locator(values).fill("FRA-ER1");
    await Promise.all([
      m.page.waitForURL(/saved=tag-created/),
      m.page.locator('form[aria-label="Add a tag"]').getByRole("button", { name: "Add the tag" }).click(),
    ]);
    // Stored as the inventory spells it.
    const row = m.page.getByTestId("tags-table").locator("tr", { hasText: name });
    expect(await row.innerText()).toContain("fra-er1");
    await m.page.getByRole("link", { name: `Delete tag ${name}` }).click();
    await Promise.all([
      m.page.waitForURL(/saved=tag-deleted/),
      m.page.locator(`form[aria-label="Delete tag ${name}"]`).getByRole("button", { name: "Delete the tag" }).click(),
    ]);
    if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
  });

  it("fits a phone's width (390 px): only the tables scroll sideways, the forms and the confirm step fit", async () => {
    const phone = await m.newPage({ viewport: { width: 390, height: 844 } });
    await logIn(phone.page, DEMO_USERS.admin);
    await phone.page.goto(m.url("/manage-tags?kind=AS_NUMBER"));
    await phone.page.getByRole("heading", { name: "Tag list", level: 1 }).waitFor();
    const pageWidth = () => phone.page.evaluate(() => document.documentElement.scrollWidth);
    expect(await pageWidth()).toBeLessThanOrEqual(390);
    for (const label of ["Add a tag", "Add a tag group"]) {
      const box = await phone.page.locator(`form[aria-label="${label}"]`).boundingBox();
      expect(box, label).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, label).toBeLessThanOrEqual(390);
    }
    // The confirm step of a shared tag of the demo network (the superuser may delete it); opened, not confirmed.
    await phone.page.getByRole("link", { name: "Delete tag Tier-1 transits" }).click();
    const step = phone.page.getByTestId("delete-step");
    await step.waitFor();
    expect(await step.innerText()).toContain("It is shared: it disappears for every user.");
    const box = (await step.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await pageWidth()).toBeLessThanOrEqual(390);
  });
});
