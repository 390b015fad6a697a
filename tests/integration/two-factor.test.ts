/**
 * Two-factor authentication on real stores: enrolment and confirmation with codes from otplib,
 * replay protection, recovery codes, the last-device rules, mandatory 2FA, and the login's second
 * step through the screen routes and the JSON endpoints (loaders and actions called as Remix would).
 */
import { createHash } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { recoveryCodes, sessions, siteSettings, totpDevices, userPermissions, users } from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import { REAUTH_MESSAGES } from "~/lib/reauthentication";
import * as appLayout from "~/routes/_app";
import * as securityPage from "~/routes/_app.settings_.security";
import * as settingApi from "~/routes/auth.settings.$name";
import * as verifyApi from "~/routes/auth.2fa";
import * as devicesApi from "~/routes/auth.2fa.devices";
import * as deviceApi from "~/routes/auth.2fa.devices.$id";
import * as generateKeyApi from "~/routes/auth.2fa.devices.generate_key";
import * as recoveryApi from "~/routes/auth.2fa.devices.generate_recovery_codes";
import * as loginPage from "~/routes/login";
import * as secondStepPage from "~/routes/login_.2fa";
import { PEER_ADDRESS_HEADER } from "~/server/auth/client-address.server";

import { createSession } from "~/server/auth/session.server";
import { THROTTLE } from "~/server/auth/throttle.server";
import {
  confirmDevice,
  deleteDevice,
  generateKey,
  generateRecoveryCodes,
  is2faRequired,
  listDevices,
  MAX_FAILED_ATTEMPTS,
  setEnable2fa,
  twoFactorStatus,
  TWO_FACTOR_MESSAGES,
  TwoFactorError,
  unusedRecoveryCodeCount,
  verifySecondFactor,
} from "~/server/auth/two-factor.server";
import { hashPassword } from "~/server/password.server";
import { useServicesForTests } from "~/server/services.server";
import { CSRF_TOKEN, formRequest, getRequest, jsonRequest, ORIGIN, runRoute, withCsrf } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

let stores: TestStores;

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
}, 180_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

afterEach(async () => {
  await setMandatory(false);
});

// ---------------------------------------------------------------------------------------------
// Helpers

const db = () => stores.pg.db;
let serial = 0;

async function makeUser() {
  serial += 1;
  const email = `tfa${serial}-${Date.now().toString(36)}@flowlens.test`;
  const password = `password-${serial}-long`;
  const [user] = await db()
    .insert(users)
    .values({ email, passwordHash: await hashPassword(password), hasConsented: true, consentedAt: new Date() })
    .returning();
  await db().insert(userPermissions).values({ userId: user.id, permission: "API_FLOWS_4D" });
  return { ...user, password };
}

async function setMandatory(on: boolean) {
  await db().update(siteSettings).set({ mandatory2fa: on }).where(eq(siteSettings.id, 1));
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
/** The code of the current 30-second step. */
const currentCode = (secret: string) => generate({ secret, epoch: nowSeconds() });
/** The code of the next step: accepted thanks to the 30-second tolerance, and later than a step just used. */
const nextCode = (secret: string) => generate({ secret, epoch: nowSeconds() + 30 });

/** A 6-digit code that is none of the codes the tolerance window accepts. */
async function wrongCode(secret: string): Promise<string> {
  const t = nowSeconds();
  const valid = new Set(await Promise.all([-60, -30, 0, 30, 60].map((d) => generate({ secret, epoch: t + d }))));
  for (let n = 0; ; n++) {
    const candidate = String((123456 + n * 7919) % 1_000_000).padStart(6, "0");
    if (!valid.has(candidate)) return candidate;
  }
}

/** A user with one confirmed device (its secret returned). */
async function enrolled(options: { enable?: boolean } = {}) {
  const user = await makeUser();
  const key = await generateKey(db(), user.id, "Phone");
  await confirmDevice(db(), user.id, key.id, await currentCode(key.secret));
  if (options.enable) await setEnable2fa(db(), user.id, true);
  return { user, key };
}

/** The second factor from an address of the user's own, so these failures stay out of the login throttle of the routes' tests. */
const verify = (userId: number, code: string) => verifySecondFactor(db(), userId, code, { clientAddress: `192.0.2.${userId % 250}` });

async function expectTwoFactorError(promise: Promise<unknown>, message: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TwoFactorError);
  expect((error as Error).message).toBe(message);
}

/** "name=value" pairs of Set-Cookie headers (cleared cookies left out). */
function cookiesOf(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((pair) => pair.split("=")[1] !== "")
    .join("; ");
}

async function session(userId: number, state: "LOGGED_IN" | "PENDING_2FA"): Promise<string> {
  return cookiesOf(await createSession(db(), stores.config.sessionSecret, new Request(`${ORIGIN}/login`), userId, state));
}

const run = runRoute;

async function sessionRows(userId: number) {
  return db()
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

// ---------------------------------------------------------------------------------------------

describe("devices", () => {
  it("enrols an unconfirmed device with a secret, an otpauth URI and a QR code", async () => {
    const user = await makeUser();
    const key = await generateKey(db(), user.id, "  My   phone ");
    expect(key.name).toBe("My phone");
    expect(key.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(key.otpauthUri).toMatch(/^otpauth:\/\/totp\/flowlens:/);
    expect(key.otpauthUri).toContain(`secret=${key.secret}`);
    expect(key.otpauthUri).toContain(encodeURIComponent(user.email));
    expect(key.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    const [row] = await db().select().from(totpDevices).where(eq(totpDevices.id, key.id));
    expect(row).toMatchObject({ userId: user.id, confirmed: false, secret: key.secret });
    // Unconfirmed devices do not count.
    expect(await listDevices(db(), user.id)).toEqual([]);
    expect(await is2faRequired(db(), user.id)).toBe(false);
    // A new enrolment replaces the unconfirmed one.
    const again = await generateKey(db(), user.id, "");
    expect(again.name).toBe("Authenticator");
    expect((await listDevices(db(), user.id, { includeUnconfirmed: true })).map((d) => d.id)).toEqual([again.id]);
  });

  it("confirms with a code from otplib, and refuses a wrong code, another user's device and a second confirmation", async () => {
    const user = await makeUser();
    const other = await makeUser();
    const key = await generateKey(db(), user.id, "Phone");
    await expectTwoFactorError(confirmDevice(db(), user.id, key.id, await wrongCode(key.secret)), MESSAGES.tokenInvalid);
    await expectTwoFactorError(confirmDevice(db(), user.id, key.id, "12ab56"), MESSAGES.tokenInvalid);
    await expectTwoFactorError(confirmDevice(db(), other.id, key.id, await currentCode(key.secret)), TWO_FACTOR_MESSAGES.deviceNotFound);
    const device = await confirmDevice(db(), user.id, key.id, await currentCode(key.secret));
    expect(device).toMatchObject({ id: key.id, name: "Phone", confirmed: true });
    expect((await listDevices(db(), user.id)).map((d) => d.id)).toEqual([key.id]);
    await expectTwoFactorError(
      confirmDevice(db(), user.id, key.id, await nextCode(key.secret)),
      TWO_FACTOR_MESSAGES.deviceAlreadyConfirmed,
    );
  });

  it("switches voluntary 2FA on only with a confirmed device", async () => {
    const user = await makeUser();
    await expectTwoFactorError(setEnable2fa(db(), user.id, true), TWO_FACTOR_MESSAGES.deviceRequired);
    const key = await generateKey(db(), user.id, "Phone");
    await expectTwoFactorError(setEnable2fa(db(), user.id, true), TWO_FACTOR_MESSAGES.deviceRequired);
    await confirmDevice(db(), user.id, key.id, await currentCode(key.secret));
    expect(await is2faRequired(db(), user.id)).toBe(false);
    await setEnable2fa(db(), user.id, true);
    expect(await is2faRequired(db(), user.id)).toBe(true);
    await setEnable2fa(db(), user.id, false);
    expect(await is2faRequired(db(), user.id)).toBe(false);
  });
});

describe("second factor", () => {
  it("accepts a code once: the same code again is a replay and refused", async () => {
    const { user, key } = await enrolled({ enable: true });
    // The confirmation used the current step: its code is spent already.
    expect(await verify(user.id, await currentCode(key.secret))).toEqual({ ok: false, reason: "invalid" });
    const code = await nextCode(key.secret);
    expect(await verify(user.id, code)).toEqual({ ok: true, method: "totp", deviceId: key.id });
    expect(await verify(user.id, code)).toEqual({ ok: false, reason: "invalid" });
    const [row] = await db().select().from(totpDevices).where(eq(totpDevices.id, key.id));
    expect(row.lastUsedStep).toBeGreaterThanOrEqual(Math.floor(nowSeconds() / 30));
  });

  it("refuses wrong and malformed codes without failing", async () => {
    const { user, key } = await enrolled({ enable: true });
    for (const code of [await wrongCode(key.secret), "", "12345", "1234567", "abcdef", "abcd-efgh-ijkl", "🙂"]) {
      expect(await verify(user.id, code)).toEqual({ ok: false, reason: "invalid" });
    }
    // Spaces as authenticator apps show them are fine.
    const code = await nextCode(key.secret);
    expect(await verify(user.id, `${code.slice(0, 3)} ${code.slice(3)}`)).toMatchObject({ ok: true });
  });

  it("accepts any of several confirmed devices", async () => {
    const { user } = await enrolled({ enable: true });
    const second = await generateKey(db(), user.id, "Tablet");
    await confirmDevice(db(), user.id, second.id, await currentCode(second.secret));
    expect(await verify(user.id, await nextCode(second.secret))).toEqual({ ok: true, method: "totp", deviceId: second.id });
  });

  it("takes a recovery code once; new codes replace the old ones; only hashes are stored", async () => {
    const { user } = await enrolled({ enable: true });
    const codes = await generateRecoveryCodes(db(), user.id);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z]{4}-[a-z]{4}-[a-z]{4}$/);
    const rows = await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(rows.map((r) => r.codeHash).sort()).toEqual(codes.map((c) => createHash("sha256").update(c).digest("hex")).sort());
    expect(JSON.stringify(rows)).not.toContain(codes[0]);
    expect(await unusedRecoveryCodeCount(db(), user.id)).toBe(10);

    expect(await verify(user.id, codes[0])).toEqual({ ok: true, method: "recovery" });
    expect(await verify(user.id, codes[0])).toEqual({ ok: false, reason: "invalid" });
    // Upper case, without dashes: the same code.
    expect(await verify(user.id, codes[1].replace(/-/g, "").toUpperCase())).toEqual({ ok: true, method: "recovery" });
    expect(await unusedRecoveryCodeCount(db(), user.id)).toBe(8);

    const fresh = await generateRecoveryCodes(db(), user.id);
    expect(await verify(user.id, codes[2])).toEqual({ ok: false, reason: "invalid" });
    expect(await verify(user.id, fresh[0])).toEqual({ ok: true, method: "recovery" });
    // Another user's code is worthless.
    const other = await makeUser();
    expect(await verify(other.id, fresh[1])).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses every code for a while after too many failures", async () => {
    const { user, key } = await enrolled({ enable: true });
    const wrong = await wrongCode(key.secret);
    for (let i = 0; i < MAX_FAILED_ATTEMPTS; i++) {
      expect(await verify(user.id, wrong)).toEqual({ ok: false, reason: "invalid" });
    }
    expect(await verify(user.id, await nextCode(key.secret))).toEqual({ ok: false, reason: "throttled" });
    // Other accounts are not affected.
    const other = await enrolled({ enable: true });
    expect(await verify(other.user.id, await nextCode(other.key.secret))).toMatchObject({ ok: true });
  });
});

describe("last device", () => {
  it("voluntary 2FA: the last device stays while 2FA is on, and goes once it is off", async () => {
    const { user, key } = await enrolled({ enable: true });
    const second = await generateKey(db(), user.id, "Tablet");
    // An unconfirmed device can always go.
    await deleteDevice(db(), user.id, second.id);
    const third = await generateKey(db(), user.id, "Tablet");
    await confirmDevice(db(), user.id, third.id, await currentCode(third.secret));
    await deleteDevice(db(), user.id, third.id);
    await expectTwoFactorError(deleteDevice(db(), user.id, key.id), TWO_FACTOR_MESSAGES.lastDeviceVoluntary);
    await setEnable2fa(db(), user.id, false);
    await deleteDevice(db(), user.id, key.id);
    expect(await listDevices(db(), user.id, { includeUnconfirmed: true })).toEqual([]);
    await expectTwoFactorError(deleteDevice(db(), user.id, key.id), TWO_FACTOR_MESSAGES.deviceNotFound);
  });

  it("mandatory 2FA: the last device never goes, whatever the user's switch says", async () => {
    const { user, key } = await enrolled({ enable: false });
    const second = await generateKey(db(), user.id, "Tablet");
    await confirmDevice(db(), user.id, second.id, await currentCode(second.secret));
    await setMandatory(true);
    await deleteDevice(db(), user.id, second.id);
    await expectTwoFactorError(deleteDevice(db(), user.id, key.id), TWO_FACTOR_MESSAGES.lastDeviceMandatory);
    await setEnable2fa(db(), user.id, true);
    await setEnable2fa(db(), user.id, false);
    await expectTwoFactorError(deleteDevice(db(), user.id, key.id), TWO_FACTOR_MESSAGES.lastDeviceMandatory);
    expect((await listDevices(db(), user.id)).map((d) => d.id)).toEqual([key.id]);
    // Another user cannot delete it either.
    const other = await makeUser();
    await expectTwoFactorError(deleteDevice(db(), other.id, key.id), TWO_FACTOR_MESSAGES.deviceNotFound);
  });

  it("mandatory 2FA without a device: required, and the second step enrols", async () => {
    const user = await makeUser();
    expect(await twoFactorStatus(db(), user.id)).toMatchObject({ required: false, mustEnrol: false });
    await setMandatory(true);
    expect(await twoFactorStatus(db(), user.id)).toMatchObject({ mandatory: true, required: true, mustEnrol: true, confirmedDevices: 0 });
    expect(await is2faRequired(db(), user.id)).toBe(true);
  });
});

describe("login with 2FA (screens)", () => {
  async function passwordStep(user: { email: string; password: string }, next = "/lookingglass?x=1") {
    const res = await run(
      loginPage.action,
      formRequest(`/login?next=${encodeURIComponent(next)}`, { email: user.email, password: user.password, next, hash: "#top" }),
    );
    expect(res.status).toBe(302);
    return res;
  }

  it("a user without 2FA logs straight in", async () => {
    const user = await makeUser();
    const res = await passwordStep(user);
    expect(res.location).toBe("/lookingglass?x=1#top");
    expect((await sessionRows(user.id)).map((s) => s.state)).toEqual(["LOGGED_IN"]);
  });

  it("password, then /login/2fa: a wrong code is refused on the page, the right one logs in with a new session", async () => {
    const { user, key } = await enrolled({ enable: true });
    const res = await passwordStep(user);
    expect(res.location).toBe(`/login/2fa?next=${encodeURIComponent("/lookingglass?x=1")}#top`);
    const pending = cookiesOf(res.headers);
    const [pendingRow] = await sessionRows(user.id);
    expect(pendingRow.state).toBe("PENDING_2FA");

    // Everything else sends the pending session to the second step.
    expect((await run(appLayout.loader, getRequest("/flow-explorer", pending))).location).toBe("/login/2fa?next=%2Fflow-explorer");
    expect((await run(loginPage.loader, getRequest("/login?next=%2Flookingglass", pending))).location).toBe(
      "/login/2fa?next=%2Flookingglass",
    );
    const page = await run(secondStepPage.loader, getRequest(res.location!.replace(/#.*/, ""), pending));
    expect(page.data).toMatchObject({ mode: "verify", next: "/lookingglass?x=1", key: null });

    const path = `/login/2fa?next=${encodeURIComponent("/lookingglass?x=1")}`;
    const noCsrf = new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: withCsrf(pending) },
      body: new URLSearchParams({ intent: "verify", code: await nextCode(key.secret) }).toString(),
    });
    expect((await run(secondStepPage.action, noCsrf)).status).toBe(403);

    const wrong = await run(
      secondStepPage.action,
      formRequest(path, { intent: "verify", code: await wrongCode(key.secret), next: "/lookingglass?x=1" }, pending),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.data).toEqual({ error: "The entered token is invalid." });

    const right = await run(
      secondStepPage.action,
      formRequest(path, { intent: "verify", code: await nextCode(key.secret), next: "/lookingglass?x=1", hash: "#top" }, pending),
    );
    expect(right.status).toBe(302);
    expect(right.location).toBe("/lookingglass?x=1#top");
    const rows = await sessionRows(user.id);
    expect(rows.map((s) => s.state)).toEqual(["LOGGED_IN"]);
    expect(rows[0].idHash).not.toBe(pendingRow.idHash);
    const loggedIn = cookiesOf(right.headers);
    expect((await run(appLayout.loader, getRequest("/flow-explorer", loggedIn))).status).toBe(200);
    // The pending cookie is dead now, and the second step is closed for the logged-in session.
    expect((await run(secondStepPage.loader, getRequest("/login/2fa", pending))).location).toBe("/login?reason=2fa");
    expect((await run(secondStepPage.loader, getRequest("/login/2fa", loggedIn))).location).toBe("/login");
  });

  it("a recovery code works at the second step", async () => {
    const { user } = await enrolled({ enable: true });
    const [code] = await generateRecoveryCodes(db(), user.id);
    const pending = cookiesOf((await passwordStep(user, "/")).headers);
    const res = await run(secondStepPage.action, formRequest("/login/2fa", { intent: "verify", code, next: "" }, pending));
    expect(res.location).toBe("/");
  });

  it("the second step is only for PENDING_2FA sessions", async () => {
    expect((await run(secondStepPage.loader, getRequest("/login/2fa"))).location).toBe("/login");
    const res = await run(secondStepPage.action, formRequest("/login/2fa", { intent: "verify", code: "123456" }));
    expect(res.location).toBe("/login");
  });

  it("mandatory 2FA without a device: the second step shows the enrolment and confirms it", async () => {
    const user = await makeUser();
    await setMandatory(true);
    const res = await passwordStep(user, "/flow-explorer");
    const pending = cookiesOf(res.headers);
    const page = await run(secondStepPage.loader, getRequest("/login/2fa?next=%2Fflow-explorer", pending));
    expect(page.data.mode).toBe("enrol");
    expect(page.data.key.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    // A reload shows the same key.
    const again = await run(secondStepPage.loader, getRequest("/login/2fa?next=%2Fflow-explorer", pending));
    expect(again.data.key).toEqual(page.data.key);
    const { id, secret } = page.data.key as { id: number; secret: string };

    const wrong = await run(
      secondStepPage.action,
      formRequest("/login/2fa", { intent: "enrol", deviceId: String(id), code: await wrongCode(secret) }, pending),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.data.error).toBe(MESSAGES.tokenInvalid);
    const ok = await run(
      secondStepPage.action,
      formRequest(
        "/login/2fa",
        { intent: "enrol", deviceId: String(id), code: await currentCode(secret), next: "/flow-explorer" },
        pending,
      ),
    );
    expect(ok.location).toBe("/flow-explorer");
    expect((await listDevices(db(), user.id)).map((d) => d.id)).toEqual([id]);
    expect((await sessionRows(user.id)).map((s) => s.state)).toEqual(["LOGGED_IN"]);
  });
});

describe("auth/2fa JSON endpoints", () => {
  it("POST auth/2fa/ turns a PENDING_2FA session into a logged-in one", async () => {
    const { user, key } = await enrolled({ enable: true });
    const pending = await session(user.id, "PENDING_2FA");
    const wrong = await run(verifyApi.action, jsonRequest("/auth/2fa/", { code: await wrongCode(key.secret) }, { cookie: pending }));
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({ detail: MESSAGES.tokenInvalid, exception_code: "token_invalid" });
    const missing = await run(verifyApi.action, jsonRequest("/auth/2fa/", {}, { cookie: pending }));
    expect(missing.status).toBe(400);
    expect(missing.data.errors[0].field).toBe("code");
    const ok = await run(verifyApi.action, jsonRequest("/auth/2fa/", { code: await nextCode(key.secret) }, { cookie: pending }));
    expect(ok.status).toBe(200);
    expect(ok.data).toMatchObject({ status: "LOGGED_IN" });
    expect((await sessionRows(user.id)).map((s) => s.state)).toEqual(["LOGGED_IN"]);
    // Not pending any more: nothing to verify.
    const loggedIn = cookiesOf(ok.headers);
    expect((await run(verifyApi.action, jsonRequest("/auth/2fa/", { code: "123456" }, { cookie: loggedIn }))).status).toBe(403);
  });

  it("generate_key, confirm, list, delete and recovery codes", async () => {
    const user = await makeUser();
    const cookie = await session(user.id, "LOGGED_IN");
    // Device calls need a logged-in session: a pending one is not enough.
    const pending = await session(user.id, "PENDING_2FA");
    expect((await run(devicesApi.loader, getRequest("/auth/2fa/devices/", pending))).status).toBe(403);

    const generated = await run(generateKeyApi.loader, getRequest("/auth/2fa/devices/generate_key/?name=Work%20phone", cookie));
    expect(generated.status).toBe(200);
    expect(Object.keys(generated.data).sort()).toEqual(["id", "name", "otpauth_uri", "qr_code", "secret"]);
    expect(generated.data.qr_code).toMatch(/^data:image\/png;base64,/);
    const { id, secret } = generated.data as { id: number; secret: string };

    const wrong = await run(devicesApi.action, jsonRequest("/auth/2fa/devices/", { id, code: await wrongCode(secret) }, { cookie }));
    expect(wrong.status).toBe(400);
    expect(wrong.data.detail).toBe(MESSAGES.tokenInvalid);
    const confirmed = await run(devicesApi.action, jsonRequest("/auth/2fa/devices/", { id, code: await currentCode(secret) }, { cookie }));
    expect(confirmed.status).toBe(200);
    expect(confirmed.data).toMatchObject({ id, name: "Work phone", confirmed: true });

    const listed = await run(devicesApi.loader, getRequest("/auth/2fa/devices/", cookie));
    expect(listed.data).toEqual([expect.objectContaining({ id, name: "Work phone", confirmed: true })]);
    expect(JSON.stringify(listed.data)).not.toContain(secret);

    // A GET that replaces the codes: without the CSRF header (a link or image on another site) it is refused.
    const forged = await run(recoveryApi.loader, getRequest("/auth/2fa/devices/generate_recovery_codes/", cookie));
    expect(forged.status).toBe(403);
    expect(forged.data.exception_code).toBe("csrf_failed");
    const withHeader = getRequest("/auth/2fa/devices/generate_recovery_codes/", cookie);
    withHeader.headers.set("X-CSRFToken", CSRF_TOKEN);
    withHeader.headers.set("X-Current-Password", encodeURIComponent(user.password));
    const codes = await run(recoveryApi.loader, withHeader);
    expect(codes.data.codes).toHaveLength(10);

    await setEnable2fa(db(), user.id, true);
    const refused = await run(deviceApi.action, jsonRequest(`/auth/2fa/devices/${id}/`, undefined, { cookie, method: "DELETE" }), {
      id: String(id),
    });
    expect(refused.status).toBe(400);
    expect(refused.data.detail).toBe(TWO_FACTOR_MESSAGES.lastDeviceVoluntary);
    await setEnable2fa(db(), user.id, false);
    const deleted = await run(deviceApi.action, jsonRequest(`/auth/2fa/devices/${id}/`, undefined, { cookie, method: "DELETE" }), {
      id: String(id),
    });
    expect(deleted.status).toBe(204);
    const gone = await run(deviceApi.action, jsonRequest(`/auth/2fa/devices/${id}/`, undefined, { cookie, method: "DELETE" }), {
      id: String(id),
    });
    expect(gone.status).toBe(404);
    const bad = await run(deviceApi.action, jsonRequest(`/auth/2fa/devices/x/`, undefined, { cookie, method: "DELETE" }), { id: "x" });
    expect(bad.status).toBe(400);
  });
});

describe("/settings/security", () => {
  it("adds a device, switches 2FA on, makes recovery codes and guards the last device", async () => {
    const user = await makeUser();
    const cookie = await session(user.id, "LOGGED_IN");
    const page = await run(securityPage.loader, getRequest("/settings/security", cookie));
    expect(page.data).toEqual({ mandatory: false, enabled: false, devices: [], unusedRecoveryCodes: 0 });

    const enableEarly = await run(securityPage.action, formRequest("/settings/security", { intent: "enable-2fa" }, cookie));
    expect(enableEarly.status).toBe(400);
    expect(enableEarly.data.error).toBe(TWO_FACTOR_MESSAGES.deviceRequired);

    const added = await run(securityPage.action, formRequest("/settings/security", { intent: "add-device", name: "Phone" }, cookie));
    const { id, secret } = added.data.enrolment as { id: number; secret: string };
    const retry = await run(
      securityPage.action,
      formRequest("/settings/security", { intent: "confirm-device", deviceId: String(id), code: await wrongCode(secret) }, cookie),
    );
    expect(retry.status).toBe(400);
    expect(retry.data.error).toBe(MESSAGES.tokenInvalid);
    expect(retry.data.enrolment).toMatchObject({ id, secret });
    const confirmed = await run(
      securityPage.action,
      formRequest("/settings/security", { intent: "confirm-device", deviceId: String(id), code: await currentCode(secret) }, cookie),
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.data.notice).toContain("Phone");

    expect((await run(securityPage.action, formRequest("/settings/security", { intent: "enable-2fa" }, cookie))).status).toBe(200);
    const codes = await run(
      securityPage.action,
      formRequest("/settings/security", { intent: "generate-recovery-codes", current_password: user.password }, cookie),
    );
    expect(codes.data.recoveryCodes).toHaveLength(10);
    const after = await run(securityPage.loader, getRequest("/settings/security", cookie));
    expect(after.data).toMatchObject({ enabled: true, devices: [{ id, name: "Phone" }], unusedRecoveryCodes: 10 });

    const refused = await run(
      securityPage.action,
      formRequest("/settings/security", { intent: "delete-device", deviceId: String(id) }, cookie),
    );
    expect(refused.status).toBe(400);
    expect(refused.data.error).toBe(TWO_FACTOR_MESSAGES.lastDeviceVoluntary);
    await run(securityPage.action, formRequest("/settings/security", { intent: "disable-2fa", current_password: user.password }, cookie));
    expect(
      (await run(securityPage.action, formRequest("/settings/security", { intent: "delete-device", deviceId: String(id) }, cookie))).status,
    ).toBe(200);

    // Anonymous visitors go to login; posts without the CSRF field are refused.
    expect((await run(securityPage.loader, getRequest("/settings/security"))).location).toBe(
      `/login?next=${encodeURIComponent("/settings/security")}`,
    );
    const noCsrf = new Request(`${ORIGIN}/settings/security`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: withCsrf(cookie) },
      body: new URLSearchParams({ intent: "generate-recovery-codes" }).toString(),
    });
    expect((await run(securityPage.action, noCsrf)).status).toBe(403);
  });
});

describe("re-authentication for turning 2FA off and new recovery codes", () => {
  let peer = 0;
  /** Each test from its own client address, so the login throttle's counts are the test's own. */
  const fromNewClient = () => `198.51.100.${++peer}`;

  /** GET generate_recovery_codes/ with the CSRF header and the given re-authentication headers. */
  function recoveryCodesRequest(cookie: string, address: string, proof: Record<string, string> = {}): Request {
    const request = getRequest("/auth/2fa/devices/generate_recovery_codes/", cookie);
    request.headers.set("X-CSRFToken", CSRF_TOKEN);
    request.headers.set(PEER_ADDRESS_HEADER, address);
    for (const [name, value] of Object.entries(proof)) request.headers.set(name, value);
    return request;
  }

  function disableRequest(cookie: string, address: string, proof: Record<string, string> = {}): Request {
    const request = jsonRequest("/auth/settings/enable_2fa/", { value: false }, { cookie });
    request.headers.set(PEER_ADDRESS_HEADER, address);
    for (const [name, value] of Object.entries(proof)) request.headers.set(name, value);
    return request;
  }

  const codeHashes = async (userId: number) =>
    (await db().select({ hash: recoveryCodes.codeHash }).from(recoveryCodes).where(eq(recoveryCodes.userId, userId)))
      .map((r) => r.hash)
      .sort();

  it("generate_recovery_codes/: missing or wrong proof changes nothing; the right password or a current code works", async () => {
    const { user, key } = await enrolled({ enable: true });
    const cookie = await session(user.id, "LOGGED_IN");
    const address = fromNewClient();
    await generateRecoveryCodes(db(), user.id);
    const before = await codeHashes(user.id);

    const missing = await run(recoveryApi.loader, recoveryCodesRequest(cookie, address));
    expect(missing.status).toBe(400);
    expect(missing.data).toMatchObject({ detail: REAUTH_MESSAGES.missing, exception_code: "reauthentication_required" });
    expect(missing.data.errors.map((e: { field: string }) => e.field)).toEqual(["X-Current-Password", "X-OTP-Code"]);
    const wrong = await run(recoveryApi.loader, recoveryCodesRequest(cookie, address, { "X-Current-Password": "not-the-password" }));
    expect(wrong.status).toBe(403);
    expect(wrong.data).toMatchObject({ detail: REAUTH_MESSAGES.wrong, exception_code: "reauthentication_failed" });
    expect(wrong.data.errors[0].field).toBe("X-Current-Password");
    const wrongCodeAnswer = await run(
      recoveryApi.loader,
      recoveryCodesRequest(cookie, address, { "X-OTP-Code": await wrongCode(key.secret) }),
    );
    expect(wrongCodeAnswer.status).toBe(403);
    expect(wrongCodeAnswer.data.errors[0].field).toBe("X-OTP-Code");
    expect(await codeHashes(user.id)).toEqual(before);

    const withPassword = await run(
      recoveryApi.loader,
      recoveryCodesRequest(cookie, address, { "X-Current-Password": encodeURIComponent(user.password) }),
    );
    expect(withPassword.status).toBe(200);
    expect(withPassword.data.codes).toHaveLength(10);
    expect(await codeHashes(user.id)).not.toEqual(before);

    const withCode = await run(recoveryApi.loader, recoveryCodesRequest(cookie, address, { "X-OTP-Code": await nextCode(key.secret) }));
    expect(withCode.status).toBe(200);
    expect(withCode.data.codes).toHaveLength(10);
    // The same TOTP step is not accepted twice.
    const replay = await run(recoveryApi.loader, recoveryCodesRequest(cookie, address, { "X-OTP-Code": await nextCode(key.secret) }));
    expect(replay.status).toBe(403);
  });

  it("takes a percent-encoded password with any characters, and refuses a malformed encoding", async () => {
    const user = await makeUser();
    const password = "pässwörd € 100% sicher";
    await db()
      .update(users)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(users.id, user.id));
    const cookie = await session(user.id, "LOGGED_IN");
    const address = fromNewClient();
    const ok = await run(recoveryApi.loader, recoveryCodesRequest(cookie, address, { "X-Current-Password": encodeURIComponent(password) }));
    expect(ok.status).toBe(200);
    const malformed = await run(recoveryApi.loader, recoveryCodesRequest(cookie, address, { "X-Current-Password": "100%" }));
    expect(malformed.status).toBe(400);
    expect(malformed.data.errors[0].field).toBe("X-Current-Password");
  });

  it("auth/settings/enable_2fa/ false: needs the proof, a recovery code works once; true needs none", async () => {
    const { user } = await enrolled({ enable: true });
    const cookie = await session(user.id, "LOGGED_IN");
    const address = fromNewClient();
    const [first, second] = await generateRecoveryCodes(db(), user.id);
    const call = (proof: Record<string, string> = {}) =>
      run(settingApi.action, disableRequest(cookie, address, proof), { name: "enable_2fa" });

    const missing = await call();
    expect(missing.status).toBe(400);
    expect(missing.data.exception_code).toBe("reauthentication_required");
    expect((await twoFactorStatus(db(), user.id)).enabled).toBe(true);
    expect((await call({ "X-Current-Password": "wrong-password-here" })).status).toBe(403);
    expect((await twoFactorStatus(db(), user.id)).enabled).toBe(true);

    const withRecovery = await call({ "X-OTP-Code": first.toUpperCase() });
    expect(withRecovery.status).toBe(200);
    expect(withRecovery.data.enable_2fa).toBe(false);
    expect(await unusedRecoveryCodeCount(db(), user.id)).toBe(9);

    const on = await run(settingApi.action, jsonRequest("/auth/settings/enable_2fa/", { value: true }, { cookie }), { name: "enable_2fa" });
    expect(on.status).toBe(200);
    expect(on.data.enable_2fa).toBe(true);
    // A recovery code works once.
    expect((await call({ "X-OTP-Code": first })).status).toBe(403);
    expect((await twoFactorStatus(db(), user.id)).enabled).toBe(true);
    expect((await call({ "X-OTP-Code": second })).status).toBe(200);
    expect((await twoFactorStatus(db(), user.id)).enabled).toBe(false);
  });

  it("wrong passwords count in the login throttle: after the limit the right one is refused too, here and at login", async () => {
    const { user } = await enrolled({ enable: true });
    const cookie = await session(user.id, "LOGGED_IN");
    const address = fromNewClient();
    for (let i = 0; i < THROTTLE.perAccountAndClient; i++) {
      expect(
        (await run(recoveryApi.loader, recoveryCodesRequest(cookie, address, { "X-Current-Password": `wrong-${i}-password` }))).status,
      ).toBe(403);
    }
    const refused = await run(
      recoveryApi.loader,
      recoveryCodesRequest(cookie, address, { "X-Current-Password": encodeURIComponent(user.password) }),
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.data.exception_code).toBe("reauthentication_throttled");
    // The login screen from the same client counts the same failures.
    const login = formRequest("/login", { email: user.email, password: user.password });
    login.headers.set(PEER_ADDRESS_HEADER, address);
    expect((await run(loginPage.action, login)).status).toBe(429);
    // Another client (the user's own browser elsewhere) is not locked out.
    const elsewhere = await run(
      recoveryApi.loader,
      recoveryCodesRequest(cookie, fromNewClient(), { "X-Current-Password": encodeURIComponent(user.password) }),
    );
    expect(elsewhere.status).toBe(200);
  });

  it("/settings/security: the disable and regenerate forms need the password or a code, and change nothing without", async () => {
    const { user, key } = await enrolled({ enable: true });
    const cookie = await session(user.id, "LOGGED_IN");
    const address = fromNewClient();
    const post = (fields: Record<string, string>) => {
      const request = formRequest("/settings/security", fields, cookie);
      request.headers.set(PEER_ADDRESS_HEADER, address);
      return run(securityPage.action, request);
    };
    await generateRecoveryCodes(db(), user.id);
    const before = await codeHashes(user.id);

    const missing = await post({ intent: "disable-2fa", current_password: "", otp_code: "" });
    expect(missing.status).toBe(400);
    expect(missing.data.error).toBe(REAUTH_MESSAGES.missing);
    const wrong = await post({ intent: "disable-2fa", current_password: "not-my-password" });
    expect(wrong.status).toBe(403);
    expect(wrong.data.error).toBe(REAUTH_MESSAGES.wrong);
    expect((await twoFactorStatus(db(), user.id)).enabled).toBe(true);

    const regenerateWrong = await post({ intent: "generate-recovery-codes", otp_code: await wrongCode(key.secret) });
    expect(regenerateWrong.status).toBe(403);
    expect(regenerateWrong.data.recoveryCodes).toBeUndefined();
    expect(await codeHashes(user.id)).toEqual(before);
    // The next step's code: the current one was just spent confirming the device.
    const regenerate = await post({ intent: "generate-recovery-codes", otp_code: await nextCode(key.secret) });
    expect(regenerate.data.recoveryCodes).toHaveLength(10);

    const disabled = await post({ intent: "disable-2fa", current_password: user.password });
    expect(disabled.status).toBe(200);
    expect((await twoFactorStatus(db(), user.id)).enabled).toBe(false);
  });
});
