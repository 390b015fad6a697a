/**
 * Input at the boundary: body size limits (JSON calls, page forms, the MRT upload; declared and
 * streamed without a length), malformed form bodies, field length limits, and where a login may
 * send the browser afterwards. None of it may end in a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users, vantagePoints } from "~db/postgres/schema";
import * as routingData from "~/routes/_app.site-settings_.routing-data";
import * as siteSettingsPage from "~/routes/_app.site-settings";
import * as settingsPage from "~/routes/_app.settings";
import * as loginApi from "~/routes/auth.login";
import * as loginPage from "~/routes/login";
import * as twoFactorPage from "~/routes/login_.2fa";
import * as resetPage from "~/routes/password-reset";
import { safeNext } from "~/server/auth/redirect-target.server";
import { hashPassword } from "~/server/password.server";
import { useServicesForTests } from "~/server/services.server";
import { CSRF_TOKEN, formRequest, getRequest, jsonRequest, ORIGIN, runRoute, sessionCookie, withCsrf } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;
let adminCookie = "";
const PASSWORD = "input-test-password";

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  await stores.pg.db
    .insert(vantagePoints)
    .values({ key: "inp1", city: "Frankfurt", country: "Germany", router: "inp-r1", ip: "198.51.100.1" });
  const [admin] = await stores.pg.db
    .insert(users)
    .values({
      email: "admin@input.test",
      firstName: "A",
      passwordHash: await hashPassword(PASSWORD),
      hasConsented: true,
      isStaff: true,
      isSuperuser: true,
    })
    .returning({ id: users.id });
  adminCookie = await sessionCookie(stores, admin.id);
}, 120_000);
afterAll(() => stores?.dispose(), 60_000);

/** A body of `size` bytes streamed in chunks without a Content-Length (chunked transfer). */
function streamed(size: number, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const n = Math.min(chunk, size - sent);
      sent += n;
      controller.enqueue(new Uint8Array(n).fill(0x61));
    },
  });
}

function post(path: string, body: BodyInit | ReadableStream<Uint8Array>, headers: Record<string, string>, cookie?: string): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { Cookie: withCsrf(cookie), "X-CSRFToken": CSRF_TOKEN, ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}

const MALFORMED_MULTIPART = {
  "Content-Type": "multipart/form-data; boundary=----flowlens",
};
const malformedBody = () =>
  `------flowlens\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n${CSRF_TOKEN}\r\n------flowlens\r\nContent-Disposition: form-da`;

describe("request body limits", () => {
  it("JSON calls: a declared length above MAX_JSON_BODY is 413 before reading; a chunked body is counted while it streams", async () => {
    const declared = await runRoute(
      loginApi.action,
      post("/auth/login/", "{}", { "Content-Type": "application/json", "Content-Length": String(2 * 1024 * 1024) }),
    );
    expect(declared.status).toBe(413);
    expect(declared.data.detail).toBe("The request is too large: at most 1 MB are accepted.");
    const chunked = await runRoute(
      loginApi.action,
      post("/auth/login/", streamed(3 * 1024 * 1024), { "Content-Type": "application/json" }),
    );
    expect(chunked.status).toBe(413);
    const small = await runRoute(loginApi.action, post("/auth/login/", streamed(100), { "Content-Type": "application/json" }));
    expect(small.status).toBe(400);
  });

  it("page forms: 413 above MAX_FORM_BODY, shown on the login page, a thrown page answer elsewhere", async () => {
    const big = new URLSearchParams({ csrfmiddlewaretoken: CSRF_TOKEN, email: "a".repeat(10 * 1024 * 1024), password: "x" }).toString();
    const login = await runRoute(loginPage.action, post("/login", big, { "Content-Type": "application/x-www-form-urlencoded" }));
    expect(login.status).toBe(413);
    expect(login.data.error).toBe("The request is too large: at most 1 MB are accepted.");
    const settings = await runRoute(
      settingsPage.action,
      post("/settings", streamed(2 * 1024 * 1024), { "Content-Type": "application/x-www-form-urlencoded" }, adminCookie),
    );
    expect(settings.status).toBe(413);
    expect(settings.data.detail).toMatch(/too large/);
  });

  it("the MRT upload keeps streaming but stops at MAX_UPLOAD_BODY with 413", async () => {
    const saved = stores.config.MAX_UPLOAD_BODY;
    stores.config.MAX_UPLOAD_BODY = 64 * 1024;
    try {
      const form = new FormData();
      form.set("csrfmiddlewaretoken", CSRF_TOKEN);
      form.set("vantagePoint", "inp1");
      form.set("file", new Blob([new Uint8Array(256 * 1024)]), "big.mrt");
      const declared = await runRoute(
        routingData.action,
        new Request(`${ORIGIN}/site-settings/routing-data`, { method: "POST", body: form, headers: { Cookie: adminCookie } }),
      );
      expect(declared.status).toBe(413);
      const body = await new Response(form).arrayBuffer();
      const type = new Response(form).headers.get("Content-Type")!;
      const unstated = await runRoute(
        routingData.action,
        post("/site-settings/routing-data", new Blob([body]).stream(), { "Content-Type": type }, adminCookie),
      );
      expect(unstated.status).toBe(413);
      expect(unstated.data.error).toMatch(/too large/);
    } finally {
      stores.config.MAX_UPLOAD_BODY = saved;
    }
  });
});

describe("malformed form bodies are 400, never 500", () => {
  it("on /login, /password-reset, /settings, /site-settings and /site-settings/routing-data", async () => {
    const bad = (path: string, cookie?: string) => post(path, malformedBody(), MALFORMED_MULTIPART, cookie);
    const login = await runRoute(loginPage.action, bad("/login"));
    expect(login.status).toBe(400);
    expect(login.data.error).toBe("The form could not be read. Please reload the page and try again.");
    const reset = await runRoute(resetPage.action, bad("/password-reset"));
    expect(reset.status).toBe(400);
    const settings = await runRoute(settingsPage.action, bad("/settings", adminCookie));
    expect(settings.status).toBe(400);
    expect(settings.data.detail).toBe("The form could not be read. Please reload the page and try again.");
    const site = await runRoute(siteSettingsPage.action, bad("/site-settings", adminCookie));
    expect(site.status).toBe(400);
    const upload = await runRoute(routingData.action, bad("/site-settings/routing-data", adminCookie));
    expect(upload.status).toBe(400);
    expect(upload.data.error).toBe("The form could not be read. Please reload the page and try again.");
    const notAForm = await runRoute(settingsPage.action, post("/settings", "{}", { "Content-Type": "text/plain" }, adminCookie));
    expect(notAForm.status).toBe(400);
  });

  it("a long or NUL-bearing e-mail is a 400 naming the field (page and JSON)", async () => {
    const long = await runRoute(loginPage.action, formRequest("/login", { email: `${"a".repeat(300)}@input.test`, password: "x" }));
    expect(long.status).toBe(400);
    expect(long.data.error).toBe("E-mail: At most 254 characters.");
    const nul = await runRoute(loginPage.action, formRequest("/login", { email: "admin\u0000@input.test", password: "x" }));
    expect(nul.status).toBe(400);
    expect(nul.data.error).toMatch(/^E-mail: /);
    const json = await runRoute(
      loginApi.action,
      jsonRequest("/auth/login/", { email: `${"a".repeat(100_000)}@input.test`, password: "x" }),
    );
    expect(json.status).toBe(400);
    expect(json.data.errors).toEqual([{ field: "email", message: expect.any(String) }]);
    const password = await runRoute(
      loginApi.action,
      jsonRequest("/auth/login/", { email: "admin@input.test", password: "p".repeat(5000) }),
    );
    expect(password.status).toBe(400);
    expect(password.data.errors[0].field).toBe("password");
  });
});

describe("post-login destinations stay on this site", () => {
  const ESCAPES = [
    "//evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "https:evil.example",
    "javascript:alert(1)",
    "https://evil.example/",
    "/.//evil.example",
    "/%0d%0aSet-Cookie:x",
    "evil",
  ];

  it("safeNext keeps same-origin paths only", () => {
    for (const value of ESCAPES.slice(0, 7)) expect(safeNext(value)).toBeNull();
    expect(safeNext("/flow-explorer?dimension=AS_SRC_INGRESS#chart")).toBe("/flow-explorer?dimension=AS_SRC_INGRESS#chart");
    expect(safeNext("/lookingglass/é")).toBe("/lookingglass/%C3%A9");
    expect(safeNext("/a\r\nb")).toBeNull();
  });

  it("/login?next=%2F%09%2Fevil.example and friends land on the site after login", async () => {
    for (const next of ESCAPES) {
      const done = await runRoute(
        loginPage.action,
        formRequest(`/login?next=${encodeURIComponent(next)}`, { email: "admin@input.test", password: PASSWORD, next }),
      );
      expect(done.status, next).toBe(302);
      const location = done.location!;
      expect(new URL(location, ORIGIN).origin, `${next} → ${location}`).toBe(ORIGIN);
      expect(location.startsWith("/") && !location.startsWith("//") && !location.startsWith("/\\"), location).toBe(true);
    }
    const kept = await runRoute(
      loginPage.action,
      formRequest("/login", { email: "admin@input.test", password: PASSWORD, next: "/controlplane?x=1", hash: "#top" }),
    );
    expect(kept.location).toBe("/controlplane?x=1#top");
    // CR/LF in the page form's next or hash: a safe fallback, not a broken Location header.
    const crlf = await runRoute(
      loginPage.action,
      formRequest("/login", { email: "admin@input.test", password: PASSWORD, next: "/a\r\nSet-Cookie: x=1", hash: "#\r\nx" }),
    );
    expect(crlf.location).toBe("/");
    const hashOnly = await runRoute(
      loginPage.action,
      formRequest("/login", { email: "admin@input.test", password: PASSWORD, next: "/welcome", hash: "#a\r\nb" }),
    );
    expect(hashOnly.location).toBe("/welcome");
  });

  it("a logged-in visit to /login?next=… and the 2FA step follow the same rule", async () => {
    const visit = await runRoute(loginPage.loader, getRequest(`/login?next=${encodeURIComponent("/\t/evil.example")}`, adminCookie));
    expect(new URL(visit.location!, ORIGIN).origin).toBe(ORIGIN);
    const twoFactor = await runRoute(twoFactorPage.loader, getRequest(`/login/2fa?next=${encodeURIComponent("//evil.example")}`));
    expect(twoFactor.location).toBe("/login");
  });

  it("auth/login/: CR/LF in next or hash is a 400 naming the field; a foreign next is answered as /", async () => {
    const crlf = await runRoute(
      loginApi.action,
      jsonRequest("/auth/login/", { email: "admin@input.test", password: PASSWORD, next: "/a\r\nb" }),
    );
    expect(crlf.status).toBe(400);
    expect(crlf.data.errors).toEqual([{ field: "next", message: expect.stringMatching(/control characters/) }]);
    const hash = await runRoute(
      loginApi.action,
      jsonRequest("/auth/login/", { email: "admin@input.test", password: PASSWORD, next: "/", hash: "#\n" }),
    );
    expect(hash.status).toBe(400);
    expect(hash.data.errors[0].field).toBe("hash");
    const foreign = await runRoute(
      loginApi.action,
      jsonRequest("/auth/login/", { email: "admin@input.test", password: PASSWORD, next: "//evil.example" }),
    );
    expect(foreign.status).toBe(200);
    expect(foreign.data).toEqual({ status: "LOGGED_IN", next: "/" });
  });
});
