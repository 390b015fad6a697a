/**
 * Re-authentication for the changes that weaken a second factor (turning 2FA off, new recovery
 * codes): the API headers that carry the proof and the texts the screen and the API show. Plain
 * constants, shared by the server, the settings screen and the browser tests.
 */

/** API headers: the password percent-encoded (encodeURIComponent, so any character fits a header), the code as typed. */
export const REAUTH_HEADERS = { password: "X-Current-Password", code: "X-OTP-Code" } as const;

export const REAUTH_MESSAGES = {
  missing: "Enter your current password, or a code from your authenticator app or an unused recovery code, to confirm this change.",
  wrong: "The current password or code is not correct. Nothing was changed.",
  badEncoding: "The current password must be percent-encoded (as encodeURIComponent does).",
} as const;
