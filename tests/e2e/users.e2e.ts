// The Users screen in the browser, with JavaScript on and off, against an app server of this file's own whose mail goes
// to a small SMTP sink in this process (the invitation's link is what the journey follows). A superuser invites a
// colleague from the screen; the colleague opens the mailed link, chooses a password and logs in; the superuser then
// gives the colleague a permission and deactivates the account, which logs the colleague out (logging in again shows
// the deactivated account's message with a contact link, a wrong password the usual text). The screen also fits a
// phone's width.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { users } from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import { hashPassword } from "~/server/password.server";
import { openPostgres } from "~/server/postgres.server";
import { describeBothModes } from "./browser";
import { logIn } from "./login";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const ADMIN = { email: "root@users.example", password: "users-e2e-root-password" };
let base = "";
let server: ChildProcess | null = null;
let dataDir = "";
let sink: net.Server | null = null;
/** Every message the app sent: its SMTP DATA, dot-unstuffed. */
const mails: string[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Just enough SMTP to take messages: greeting, EHLO without extensions that need more, DATA until the lone dot. */
function startSmtpSink(): Promise<number> {
  return new Promise((resolve) => {
    sink = net.createServer((socket) => {
      socket.setEncoding("utf8");
      let buffer = "";
      let data: string[] | null = null;
      socket.write("220 users-e2e sink\r\n");
      socket.on("data", (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf("\r\n"); end >= 0; end = buffer.indexOf("\r\n")) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (data) {
            if (line === ".") {
              mails.push(data.join("\n"));
              data = null;
              socket.write("250 queued\r\n");
            } else data.push(line.startsWith(".") ? line.slice(1) : line);
            continue;
          }
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === "EHLO") socket.write("250-users-e2e\r\n250 8BITMIME\r\n");
          else if (verb === "DATA") {
            data = [];
            socket.write("354 end with a dot\r\n");
          } else if (verb === "QUIT") {
            socket.write("221 bye\r\n");
            socket.end();
          } else socket.write("250 ok\r\n");
        }
      });
      socket.on("error", () => {});
    });
    sink.listen(0, "127.0.0.1", () => {
      const address = sink!.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });
}

/** The set-password link of the newest mail to `email` (quoted-printable undone). */
async function invitationLink(email: string): Promise<string> {
  let link = "";
  await expect
    .poll(
      () => {
        const decoded = mails
          .filter((m) => m.toLowerCase().includes(`to: ${email}`))
          .map((m) => m.replace(/=\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
        const match = decoded.length ? /(http:\/\/[^\s]+\/password-reset-confirm\?token=[A-Za-z0-9_-]+)/.exec(decoded.at(-1)!) : null;
        link = match?.[1] ?? "";
        return link;
      },
      { timeout: 20_000 },
    )
    .not.toBe("");
  return link;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(process.env.E2E_TMPDIR || tmpdir(), "flowlens-e2e-users-"));
  const pg = await openPostgres({ dataDir });
  try {
    await pg.db.insert(users).values({
      email: ADMIN.email,
      firstName: "Root",
      lastName: "Admin",
      passwordHash: await hashPassword(ADMIN.password),
      isStaff: true,
      isSuperuser: true,
      hasConsented: true,
      consentedAt: new Date(),
    });
  } finally {
    await pg.close();
  }
  const smtpPort = await startSmtpSink();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith("VITEST") || k === "TEST") delete env[k];
  delete env.DATABASE_URL;
  Object.assign(env, {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    NODE_ENV: "production",
    DEMO_DATA: "off",
    PUBLIC_URL: base,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  });
  const child = spawn(process.execPath, ["server.mjs", "build/server/index.js"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  server = child;
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the app server exited during start:\n${output}`);
    const ok = await fetch(`${base}/healthz`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) break;
    if (i > 600) throw new Error(`the app server did not answer /healthz within 5 minutes:\n${output}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}, 600_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (server.exitCode === null) server.kill("SIGKILL");
  }
  await new Promise((resolve) => (sink ? sink.close(resolve) : resolve(null)));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describeBothModes(
  "users",
  (m) => {
    it("invites a colleague who sets a password and logs in; edits their permissions; deactivating logs them out", async () => {
      const colleague = {
        email: m.javaScriptEnabled ? "colleague-js@users.example" : "colleague-nojs@users.example",
        password: "colleague-chosen-password",
      };
      await logIn(m.page, ADMIN, base);
      await m.goto("/faq");
      await Promise.all([
        m.page.waitForURL(/\/manage-users$/),
        m.page.locator("nav[aria-label=Tools]").getByRole("link", { name: "Users", exact: true }).click(),
      ]);
      await m.page.getByRole("heading", { name: "Users", level: 1 }).waitFor();
      await Promise.all([m.page.waitForURL(/new=1/), m.page.getByRole("link", { name: "Add a user" }).click()]);
      const form = m.page.locator('form[aria-label="Add a user"]');
      await form.waitFor();
      // A bad address is refused next to the field, with what was typed kept.
      await form.locator("input[name=email]").fill("colleague@nowhere");
      await form.locator("input[name=first_name]").fill("Col");
      await form.getByRole("button", { name: "Add the user and send the invitation" }).click();
      await m.page.getByText("The e-mail address has to be in a valid format.").waitFor();
      await expect.poll(() => m.page.inputValue('form[aria-label="Add a user"] input[name=first_name]')).toBe("Col");

      // Every grant belongs to a built tool since the guided tours: no group of grants "for tools this version does not have",
      // and the demo tour's permission is offered with the developer grants.
      const unbuilt = m.page.locator('form[aria-label="Add a user"]').getByRole("group", { name: "For tools this version does not have" });
      expect(await unbuilt.count()).toBe(0);
      const developer = m.page.locator('form[aria-label="Add a user"]').getByRole("group", { name: "Developer" });
      expect(await developer.innerText()).toContain("Demo tour (TOUR_DEMOLYTICS)");
      expect(await developer.innerText()).not.toContain("For a tool this version does not have");
      const inertFlags = m.page.locator('form[aria-label="Add a user"]').getByRole("group", { name: "Without effect in this version" });
      expect(await inertFlags.innerText()).toContain("extrapolatedNetflow");
      await m.page.locator('form[aria-label="Add a user"] input[name=email]').fill(colleague.email);
      await m.page.locator('form[aria-label="Add a user"]').getByLabel("Flow Explorer (API_FLOWS_4D)").check();
      await Promise.all([
        m.page.waitForURL(/saved=created/),
        m.page.locator('form[aria-label="Add a user"]').getByRole("button", { name: "Add the user and send the invitation" }).click(),
      ]);
      expect(await m.page.getByTestId("users-saved").innerText()).toContain("an invitation to choose a password was mailed");
      const panel = m.page.getByTestId("user-panel");
      // Badges are shown in capitals (innerText follows the CSS).
      await expect.poll(() => panel.innerText()).toMatch(/invited/i);
      const userUrl = new URL(m.page.url()).pathname + new URL(m.page.url()).search.replace(/&saved=created/, "");

      // The colleague's side: the mailed link, a password, a login.
      const link = await invitationLink(colleague.email);
      expect(link.startsWith(`${base}/password-reset-confirm?token=`)).toBe(true);
      const other = await m.newPage({ baseURL: base });
      await other.page.goto(link, { waitUntil: "load" });
      await other.page.fill("input[name=new_password]", colleague.password);
      await other.page.fill("input[name=new_password_repeat]", colleague.password);
      await other.page.getByRole("button", { name: "Set password" }).click();
      await other.page.getByText("Your password has been set.").waitFor();
      await logIn(other.page, colleague, base);
      await other.page.goto(`${base}/faq`, { waitUntil: "load" });
      // A new account gives its consent first: logged in, not sent to the login.
      expect(new URL(other.page.url()).pathname).toBe("/consent");

      // Back to the superuser: a permission more.
      await m.goto(userUrl);
      const edit = m.page.locator('form[aria-label="Edit the account"]');
      await edit.getByLabel("Control Plane (CONTROL_PLANE)").check();
      await Promise.all([m.page.waitForURL(/saved=updated/), edit.getByRole("button", { name: "Save the account" }).click()]);
      await expect
        .poll(() => m.page.locator('form[aria-label="Edit the account"]').getByLabel("Control Plane (CONTROL_PLANE)").isChecked())
        .toBe(true);
      expect(await m.page.locator('form[aria-label="Edit the account"]').getByLabel("Flow Explorer (API_FLOWS_4D)").isChecked()).toBe(true);

      // Deactivated: the colleague's session ends.
      await Promise.all([
        m.page.waitForURL(/saved=deactivated/),
        m.page.locator('form[aria-label="Deactivate the account"]').getByRole("button").click(),
      ]);
      await expect.poll(() => m.page.getByTestId("user-panel").innerText()).toMatch(/deactivated/i);
      await other.page.goto(`${base}/faq`, { waitUntil: "load" });
      expect(new URL(other.page.url()).pathname).toBe("/login");
      // Logging in again: the right password gets the deactivated account's own message with a contact link …
      await other.page.goto(`${base}/login`, { waitUntil: "load" });
      await other.page.fill("input[name=email]", colleague.email);
      await other.page.fill("input[name=password]", colleague.password);
      await other.page.click("button[type=submit]");
      await other.page.getByText(MESSAGES.accountDeactivated).waitFor();
      expect(await other.page.getByTestId("deactivated-contact").getAttribute("href")).toBe("/imprint");
      // … a wrong password only the wrong-credentials text, which tells nothing about the account.
      await expect.poll(() => other.page.inputValue("input[name=email]")).toBe(colleague.email);
      await other.page.fill("input[name=password]", "not-the-colleague-password");
      await other.page.click("button[type=submit]");
      await other.page.getByText(MESSAGES.wrongCredentials).waitFor();
      expect(await other.page.getByTestId("deactivated-contact").count()).toBe(0);
      expect(new URL(other.page.url()).pathname).toBe("/login");

      // The audit log tells the story, newest first.
      await m.goto("/manage-users?view=audit");
      const audit = await m.page.getByTestId("audit-table").innerText();
      expect(audit.indexOf("Deactivated the account")).toBeLessThan(audit.indexOf("Changed the user"));
      expect(audit.indexOf("Changed the user")).toBeLessThan(audit.indexOf("Added the user"));
      if (m.javaScriptEnabled) expect(m.pageErrors).toEqual([]);
    });

    it("fits a phone's width", async () => {
      const phone = await m.newPage({ baseURL: base, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      await logIn(phone.page, ADMIN, base);
      await phone.page.goto(`${base}/manage-users?user=1`, { waitUntil: "load" });
      await phone.page.getByRole("heading", { name: "Users", level: 1 }).waitFor();
      // The page itself does not scroll sideways; the wide table scrolls inside its own box.
      const widths = await phone.page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
      expect(widths.page).toBeLessThanOrEqual(widths.view);
      const table = await phone.page
        .getByRole("region", { name: "Users" })
        .evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(table.client).toBeLessThanOrEqual(widths.view);
      const save = (await phone.page.getByRole("button", { name: "Save the account" }).boundingBox())!;
      expect(save.x).toBeGreaterThanOrEqual(0);
      expect(save.x + save.width).toBeLessThanOrEqual(390);
    });
  },
  { baseURL: () => base },
);
