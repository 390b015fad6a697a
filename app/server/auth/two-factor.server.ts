import { createHash, randomInt } from "node:crypto";
import { and, count, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import { loginAttempts, recoveryCodes, sessions, siteSettings, totpDevices, userSettings, users } from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import { ApiProblem } from "../api/contract.server";
import { notifyAccountChange } from "../notifications/notifications.server";
import type { Db } from "../postgres.server";
import { resolveStyle } from "../site-style.server";
import { createSession } from "./session.server";

/**
 * Two-factor authentication (shell spec §3 enable_2fa / mandatory_2fa, §4 PENDING_2FA, §5 last device,
 * §7 auth/2fa calls): TOTP devices (otplib v13, 30-second steps, one step of tolerance either way, a
 * step never accepted twice) and single-use recovery codes stored as SHA-256 hashes.
 */

/** Texts the spec does not word (§8 only words the invalid token). */
export const TWO_FACTOR_MESSAGES = {
  tokenInvalid: MESSAGES.tokenInvalid,
  lastDeviceMandatory: "This is your last two-factor device: it cannot be deleted while two-factor authentication is mandatory.",
  lastDeviceVoluntary: "This is your last two-factor device: disable two-factor authentication first, then delete it.",
  deviceNotFound: "The two-factor device was not found.",
  deviceAlreadyConfirmed: "This two-factor device is already confirmed.",
  deviceRequired: "Add and confirm a two-factor device before enabling two-factor authentication.",
  tooManyAttempts: "Too many invalid codes. Please wait a few minutes and try again.",
} as const;

export class TwoFactorError extends Error {
  constructor(
    message: string,
    readonly status: number = 400,
    readonly code: string = "two_factor_error",
  ) {
    super(message);
    this.name = "TwoFactorError";
  }
}

/** Seconds of clock drift accepted either way: the previous and the next 30-second code are valid too. */
export const EPOCH_TOLERANCE_S = 30;
export const RECOVERY_CODE_COUNT = 10;
/** Failed second-factor attempts per account within the window before codes are refused for a while. */
export const MAX_FAILED_ATTEMPTS = 10;
export const FAILED_ATTEMPT_WINDOW_MS = 15 * 60 * 1000;
const DEFAULT_DEVICE_NAME = "Authenticator";

export type DeviceSummary = { id: number; name: string; confirmed: boolean; createdAt: Date };
export type DeviceKey = { id: number; name: string; secret: string; otpauthUri: string; qrDataUrl: string };
export type TwoFactorStatus = {
  /** Site setting mandatory_2fa. */
  mandatory: boolean;
  /** user_settings.enable_2fa. */
  enabled: boolean;
  confirmedDevices: number;
  /** The login must pass the second step: mandatory, or switched on with a device to ask. */
  required: boolean;
  /** Mandatory but nothing to verify against yet: the second step enrols a device. */
  mustEnrol: boolean;
};

// ---------------------------------------------------------------------------------------------------------------
// State

export async function twoFactorStatus(db: Db, userId: number): Promise<TwoFactorStatus> {
  const [[site], [settings], [{ n }]] = await Promise.all([
    db.select({ mandatory: siteSettings.mandatory2fa }).from(siteSettings).where(eq(siteSettings.id, 1)),
    db.select({ enabled: userSettings.enable2fa }).from(userSettings).where(eq(userSettings.userId, userId)),
    db
      .select({ n: count() })
      .from(totpDevices)
      .where(and(eq(totpDevices.userId, userId), eq(totpDevices.confirmed, true))),
  ]);
  const mandatory = site?.mandatory ?? false;
  const enabled = settings?.enabled ?? false;
  const confirmedDevices = Number(n);
  return {
    mandatory,
    enabled,
    confirmedDevices,
    required: mandatory || (enabled && confirmedDevices > 0),
    mustEnrol: mandatory && confirmedDevices === 0,
  };
}

/**
 * Whether a correct password is not enough: 2FA is mandatory on the site (the user then enrols a
 * device at the second step if they have none), or the user switched it on and has a confirmed device.
 */
export async function is2faRequired(db: Db, userId: number): Promise<boolean> {
  return (await twoFactorStatus(db, userId)).required;
}

export async function hasConfirmedDevice(db: Db, userId: number): Promise<boolean> {
  return (await twoFactorStatus(db, userId)).confirmedDevices > 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Devices

export async function listDevices(db: Db, userId: number, options: { includeUnconfirmed?: boolean } = {}): Promise<DeviceSummary[]> {
  const where = options.includeUnconfirmed
    ? eq(totpDevices.userId, userId)
    : and(eq(totpDevices.userId, userId), eq(totpDevices.confirmed, true));
  return db
    .select({ id: totpDevices.id, name: totpDevices.name, confirmed: totpDevices.confirmed, createdAt: totpDevices.createdAt })
    .from(totpDevices)
    .where(where)
    .orderBy(totpDevices.createdAt, totpDevices.id);
}

async function describeKey(db: Db, userId: number, device: { id: number; name: string; secret: string }): Promise<DeviceKey> {
  const [[user], style] = await Promise.all([
    db.select({ email: users.email }).from(users).where(eq(users.id, userId)),
    resolveStyle(db, userId),
  ]);
  const otpauthUri = generateURI({ issuer: style.companyName || "flowlens", label: user?.email ?? String(userId), secret: device.secret });
  const qrDataUrl = await QRCode.toDataURL(otpauthUri, { errorCorrectionLevel: "M", margin: 2, width: 220 });
  return { id: device.id, name: device.name, secret: device.secret, otpauthUri, qrDataUrl };
}

function cleanName(name: string | null | undefined): string {
  const trimmed = (name ?? "").replace(/\s+/g, " ").trim().slice(0, 64);
  return trimmed || DEFAULT_DEVICE_NAME;
}

/**
 * A new, unconfirmed device with a fresh secret, its otpauth:// URI and a QR code of it. Earlier
 * unconfirmed devices of the user are dropped: only the latest enrolment can be confirmed.
 */
export async function generateKey(db: Db, userId: number, name?: string | null): Promise<DeviceKey> {
  await db.delete(totpDevices).where(and(eq(totpDevices.userId, userId), eq(totpDevices.confirmed, false)));
  const secret = generateSecret();
  const [device] = await db
    .insert(totpDevices)
    .values({ userId, name: cleanName(name), secret, confirmed: false })
    .returning({ id: totpDevices.id, name: totpDevices.name, secret: totpDevices.secret });
  return describeKey(db, userId, device);
}

/** The key of an unconfirmed device of the user again (e.g. to show it after a wrong confirmation code). */
export async function pendingDeviceKey(db: Db, userId: number, deviceId: number): Promise<DeviceKey | null> {
  const [device] = await db
    .select({ id: totpDevices.id, name: totpDevices.name, secret: totpDevices.secret })
    .from(totpDevices)
    .where(and(eq(totpDevices.id, deviceId), eq(totpDevices.userId, userId), eq(totpDevices.confirmed, false)));
  return device ? describeKey(db, userId, device) : null;
}

/** The enrolment of the second login step: the latest unconfirmed device, or a new one (reloads keep the QR code). */
export async function enrolmentKey(db: Db, userId: number): Promise<DeviceKey> {
  const [device] = await db
    .select({ id: totpDevices.id, name: totpDevices.name, secret: totpDevices.secret })
    .from(totpDevices)
    .where(and(eq(totpDevices.userId, userId), eq(totpDevices.confirmed, false)))
    .orderBy(desc(totpDevices.createdAt), desc(totpDevices.id))
    .limit(1);
  return device ? describeKey(db, userId, device) : generateKey(db, userId, DEFAULT_DEVICE_NAME);
}

/** A 6-digit code (spaces allowed, as apps show "123 456"); null for anything else. */
function totpToken(code: string): string | null {
  const digits = code.replace(/\s+/g, "");
  return /^\d{6}$/.test(digits) ? digits : null;
}

/** The accepted time step, or null. otplib throws on malformed tokens: those are simply invalid. */
async function checkTotp(secret: string, token: string, afterTimeStep: number | null): Promise<number | null> {
  try {
    const result = await verify({
      secret,
      token,
      epochTolerance: EPOCH_TOLERANCE_S,
      ...(afterTimeStep !== null ? { afterTimeStep } : {}),
    });
    return result.valid && "timeStep" in result && typeof result.timeStep === "number" ? result.timeStep : null;
  } catch {
    return null;
  }
}

/**
 * Records the step as used unless an equal or later one already was (a concurrent request with the
 * same code loses here): true when this call won.
 */
async function claimStep(db: Db, deviceId: number, step: number, confirm = false): Promise<boolean> {
  const claimed = await db
    .update(totpDevices)
    .set(confirm ? { lastUsedStep: step, confirmed: true } : { lastUsedStep: step })
    .where(and(eq(totpDevices.id, deviceId), or(isNull(totpDevices.lastUsedStep), lt(totpDevices.lastUsedStep, step))))
    .returning({ id: totpDevices.id });
  return claimed.length > 0;
}

/** Confirms an enrolment with a code from the authenticator app; the code counts as used. */
export async function confirmDevice(db: Db, userId: number, deviceId: number, code: string): Promise<DeviceSummary> {
  const [device] = await db
    .select()
    .from(totpDevices)
    .where(and(eq(totpDevices.id, deviceId), eq(totpDevices.userId, userId)));
  if (!device) throw new TwoFactorError(TWO_FACTOR_MESSAGES.deviceNotFound, 404, "not_found");
  if (device.confirmed) throw new TwoFactorError(TWO_FACTOR_MESSAGES.deviceAlreadyConfirmed, 400, "already_confirmed");
  const token = totpToken(code);
  const step = token ? await checkTotp(device.secret, token, device.lastUsedStep) : null;
  if (step === null || !(await claimStep(db, device.id, step, true))) {
    throw new TwoFactorError(TWO_FACTOR_MESSAGES.tokenInvalid, 400, "token_invalid");
  }
  await notifyAccountChange(db, userId, "twoFactorChanged");
  return { id: device.id, name: device.name, confirmed: true, createdAt: device.createdAt };
}

/**
 * Deletes a device of the user. The last confirmed device is protected (spec §5): never while 2FA is
 * mandatory; when voluntary only after 2FA has been switched off.
 */
export async function deleteDevice(db: Db, userId: number, deviceId: number): Promise<void> {
  const [device] = await db
    .select()
    .from(totpDevices)
    .where(and(eq(totpDevices.id, deviceId), eq(totpDevices.userId, userId)));
  if (!device) throw new TwoFactorError(TWO_FACTOR_MESSAGES.deviceNotFound, 404, "not_found");
  if (device.confirmed) {
    const status = await twoFactorStatus(db, userId);
    if (status.confirmedDevices <= 1) {
      if (status.mandatory) throw new TwoFactorError(TWO_FACTOR_MESSAGES.lastDeviceMandatory, 400, "last_device");
      if (status.enabled) throw new TwoFactorError(TWO_FACTOR_MESSAGES.lastDeviceVoluntary, 400, "last_device");
    }
  }
  await db.transaction(async (tx) => {
    const gone = await tx
      .delete(totpDevices)
      .where(and(eq(totpDevices.id, deviceId), eq(totpDevices.userId, userId)))
      .returning({ id: totpDevices.id });
    // An enrolment never confirmed was no authenticator yet: nothing changed that its owner must hear of.
    if (gone.length && device.confirmed) await notifyAccountChange(tx, userId, "twoFactorChanged");
  });
}

/** Switches voluntary 2FA on or off; on needs a confirmed device. */
export async function setEnable2fa(db: Db, userId: number, on: boolean): Promise<void> {
  if (on && !(await hasConfirmedDevice(db, userId))) throw new TwoFactorError(TWO_FACTOR_MESSAGES.deviceRequired, 400, "device_required");
  await db
    .insert(userSettings)
    .values({ userId, enable2fa: on })
    .onConflictDoUpdate({ target: userSettings.userId, set: { enable2fa: on } });
}

// ---------------------------------------------------------------------------------------------------------------
// Recovery codes

const RECOVERY_ALPHABET = "abcdefghijklmnopqrstuvwxyz";

/** "ABCD efgh-IJKL" → "abcd-efgh-ijkl"; null when it cannot be a recovery code. */
export function normalizeRecoveryCode(code: string): string | null {
  const letters = code.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (!/^[a-z]{12}$/.test(letters)) return null;
  return `${letters.slice(0, 4)}-${letters.slice(4, 8)}-${letters.slice(8, 12)}`;
}

const hashCode = (code: string) => createHash("sha256").update(code).digest("hex");

function randomRecoveryCode(): string {
  const letters = Array.from({ length: 12 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join("");
  return `${letters.slice(0, 4)}-${letters.slice(4, 8)}-${letters.slice(8, 12)}`;
}

/** Ten new codes such as "abcd-efgh-ijkl", replacing all earlier ones; only their hashes are kept. */
export async function generateRecoveryCodes(db: Db, userId: number): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(randomRecoveryCode());
  const list = [...codes];
  await db.transaction(async (tx) => {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(list.map((code) => ({ userId, codeHash: hashCode(code) })));
    await notifyAccountChange(tx, userId, "twoFactorChanged");
  });
  return list;
}

export async function unusedRecoveryCodeCount(db: Db, userId: number): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return Number(n);
}

// ---------------------------------------------------------------------------------------------------------------
// The second login step

export type SecondFactorResult =
  { ok: true; method: "totp"; deviceId: number } | { ok: true; method: "recovery" } | { ok: false; reason: "invalid" | "throttled" };

/** Failed attempts are kept in login_attempts under this key, so throttling survives restarts and replicas. */
const attemptKey = (userId: number) => `2fa:${userId}`;

async function recentFailures(db: Db, userId: number): Promise<number> {
  const key = attemptKey(userId);
  const since = new Date(Date.now() - FAILED_ATTEMPT_WINDOW_MS);
  const [lastSuccess] = await db
    .select({ at: loginAttempts.createdAt })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.email, key), eq(loginAttempts.succeeded, true), gt(loginAttempts.createdAt, since)))
    .orderBy(desc(loginAttempts.createdAt))
    .limit(1);
  const [{ n }] = await db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.email, key), eq(loginAttempts.succeeded, false), gt(loginAttempts.createdAt, lastSuccess?.at ?? since)));
  return Number(n);
}

async function recordAttempt(db: Db, userId: number, clientAddress: string, succeeded: boolean): Promise<void> {
  await db.insert(loginAttempts).values({ email: attemptKey(userId), clientAddress, succeeded });
}

/**
 * Checks a second factor: a 6-digit TOTP code of any confirmed device (a time step is accepted once
 * per device), or an unused recovery code (then marked used). Too many failures in a row refuse
 * every code for a while.
 */
export async function verifySecondFactor(
  db: Db,
  userId: number,
  code: string,
  options: { clientAddress?: string } = {},
): Promise<SecondFactorResult> {
  const clientAddress = options.clientAddress ?? "unknown";
  if ((await recentFailures(db, userId)) >= MAX_FAILED_ATTEMPTS) return { ok: false, reason: "throttled" };
  const result = await checkSecondFactor(db, userId, code);
  await recordAttempt(db, userId, clientAddress, result.ok);
  return result;
}

async function checkSecondFactor(db: Db, userId: number, code: string): Promise<SecondFactorResult> {
  const token = totpToken(code);
  if (token) {
    const devices = await db
      .select()
      .from(totpDevices)
      .where(and(eq(totpDevices.userId, userId), eq(totpDevices.confirmed, true)));
    for (const device of devices) {
      const step = await checkTotp(device.secret, token, device.lastUsedStep);
      if (step !== null && (await claimStep(db, device.id, step))) return { ok: true, method: "totp", deviceId: device.id };
    }
    return { ok: false, reason: "invalid" };
  }
  const recovery = normalizeRecoveryCode(code);
  if (recovery) {
    const used = await db
      .update(recoveryCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashCode(recovery)), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    if (used.length > 0) return { ok: true, method: "recovery" };
  }
  return { ok: false, reason: "invalid" };
}

/** The user-facing text of a failed second factor. */
export function secondFactorError(result: { ok: false; reason: "invalid" | "throttled" }): { message: string; status: number } {
  return result.reason === "throttled"
    ? { message: TWO_FACTOR_MESSAGES.tooManyAttempts, status: 429 }
    : { message: TWO_FACTOR_MESSAGES.tokenInvalid, status: 400 };
}

/**
 * The PENDING_2FA session passed its second step: it is revoked and a new LOGGED_IN session (a new
 * token: rotation) takes its place. Returns the Set-Cookie headers of the new session.
 */
export async function promoteSession(db: Db, secret: string, request: Request, pendingIdHash: string, userId: number): Promise<Headers> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.idHash, pendingIdHash), eq(sessions.userId, userId), eq(sessions.state, "PENDING_2FA")));
  return createSession(db, secret, request, userId, "LOGGED_IN");
}

/** For JSON endpoints: a TwoFactorError becomes the endpoint's JSON error (status, detail, exception_code). */
export function rethrowForApi(error: unknown): never {
  if (error instanceof TwoFactorError) throw new ApiProblem(error.status, { detail: error.message, exception_code: error.code });
  throw error;
}
