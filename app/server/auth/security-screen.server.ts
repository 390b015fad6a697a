/**
 * The /settings/security screen: the user's two-factor devices, the voluntary 2FA switch and
 * recovery codes. Turning 2FA off and replacing the recovery codes ask for the password or a code.
 */
import { data } from "@remix-run/node";
import { formatDateLong, safeTimezone } from "~/lib/date-format";
import type { Services } from "../services.server";
import { getUserSettings } from "../settings/user-settings.server";
import { readProtectedForm, requireUser } from "./guard.server";
import { confirmIdentity, ReauthenticationError } from "./reauthentication.server";
import {
  confirmDevice,
  deleteDevice,
  generateKey,
  generateRecoveryCodes,
  listDevices,
  pendingDeviceKey,
  setEnable2fa,
  twoFactorStatus,
  TwoFactorError,
  unusedRecoveryCodeCount,
  type DeviceKey,
} from "./two-factor.server";
import type { UserContext } from "./user-context.server";
import { parseInt32Id } from "~/lib/input-fields";

export async function loadSecurityScreen(services: Services, user: UserContext) {
  const db = services.pg.db;
  const [status, devices, unusedRecoveryCodes, settings] = await Promise.all([
    twoFactorStatus(db, user.id),
    listDevices(db, user.id),
    unusedRecoveryCodeCount(db, user.id),
    getUserSettings(db, user.id),
  ]);
  // Formatted here, in the user's timezone and the spec's long format: never the browser's locale.
  const timezone = safeTimezone(settings.timezone);
  return {
    mandatory: status.mandatory,
    enabled: status.enabled,
    devices: devices.map((d) => ({ id: d.id, name: d.name, added: formatDateLong(d.createdAt, timezone) })),
    unusedRecoveryCodes,
  };
}

export type SecurityScreen = Awaited<ReturnType<typeof loadSecurityScreen>>;

type Enrolment = Pick<DeviceKey, "id" | "name" | "secret" | "qrDataUrl">;
export type SecurityActionResult = { intent: string; error?: string; notice?: string; enrolment?: Enrolment; recoveryCodes?: string[] };

const enrolmentOf = (key: DeviceKey | null): Enrolment | undefined =>
  key ? { id: key.id, name: key.name, secret: key.secret, qrDataUrl: key.qrDataUrl } : undefined;

/** The form (and its CSRF token) is read before the guard, the order in which this screen has always refused requests. */
export async function saveSecurityScreen(request: Request) {
  const form = await readProtectedForm(request);
  const { services, user } = await requireUser(request);
  const db = services.pg.db;
  const intent = String(form.get("intent") ?? "");
  // 0 names no device: a text that is no id gets the "not found" of an unknown one.
  const deviceId = parseInt32Id(form.get("deviceId")) ?? 0;
  const reply = (result: SecurityActionResult, status = 200, headers?: HeadersInit) => data(result, { status, headers });
  // Turning 2FA off and replacing the recovery codes weaken the account: the session is not enough.
  const confirmIdentityFromForm = () =>
    confirmIdentity(db, request, user.id, {
      password: String(form.get("current_password") ?? ""),
      code: String(form.get("otp_code") ?? ""),
    });
  try {
    switch (intent) {
      case "add-device":
        return reply({ intent, enrolment: enrolmentOf(await generateKey(db, user.id, String(form.get("name") ?? ""))) });
      case "confirm-device": {
        try {
          const device = await confirmDevice(db, user.id, deviceId, String(form.get("code") ?? ""));
          const { enabled, mandatory } = await twoFactorStatus(db, user.id);
          const hint = enabled || mandatory ? "" : " Switch two-factor authentication on to ask for a code at login.";
          return reply({ intent, notice: `The device "${device.name}" was added.${hint}` });
        } catch (error) {
          // Show the same QR code again, so a mistyped code is simply retried.
          if (error instanceof TwoFactorError) {
            return reply(
              { intent, error: error.message, enrolment: enrolmentOf(await pendingDeviceKey(db, user.id, deviceId)) },
              error.status,
            );
          }
          throw error;
        }
      }
      case "delete-device":
        await deleteDevice(db, user.id, deviceId);
        return reply({ intent, notice: "The device was deleted." });
      case "enable-2fa":
        await setEnable2fa(db, user.id, true);
        return reply({ intent, notice: "Two-factor authentication is on." });
      case "disable-2fa":
        await confirmIdentityFromForm();
        await setEnable2fa(db, user.id, false);
        return reply({ intent, notice: "Two-factor authentication is off." });
      case "generate-recovery-codes":
        await confirmIdentityFromForm();
        return reply({ intent, recoveryCodes: await generateRecoveryCodes(db, user.id) });
      default:
        return reply({ intent, error: "Unknown action." }, 400);
    }
  } catch (error) {
    if (error instanceof TwoFactorError) return reply({ intent, error: error.message }, error.status);
    if (error instanceof ReauthenticationError) {
      const retryAfter = error.retryAfterSeconds === undefined ? undefined : { "Retry-After": String(Math.ceil(error.retryAfterSeconds)) };
      return reply({ intent, error: error.message }, error.status, retryAfter);
    }
    throw error;
  }
}
