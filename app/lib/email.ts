/**
 * The e-mail rule of the spec (shell §5): a standard address local@domain whose top-level part has
 * two or more letters. Pure, shared by the browser and the server.
 */

/** Longest address SMTP can carry (RFC 5321: 254 characters in a path). */
export const EMAIL_MAX_LENGTH = 254;

// Local part: dot-separated atoms of the characters RFC 5322 allows unquoted (no leading,
// trailing or doubled dot). Quoted local parts and address literals are not accepted.
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
// Domain labels: letters, digits and inner hyphens, at most 63 characters each.
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
// The top-level part: two or more letters.
const TLD = /^[A-Za-z]{2,63}$/;

export function isValidEmail(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0 || value.length > EMAIL_MAX_LENGTH) return false;
  const at = value.lastIndexOf("@");
  if (at <= 0 || at === value.length - 1) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.length > 64 || !LOCAL.test(local)) return false;
  const labels = domain.split(".");
  if (labels.length < 2) return false;
  const tld = labels[labels.length - 1];
  return TLD.test(tld) && labels.slice(0, -1).every((label) => LABEL.test(label));
}

/** How addresses are stored and compared: without surrounding blanks, in lower case. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}
