/**
 * The inventory's secrets (SNMP communities and v3 passwords, SSH keys and passwords) are stored
 * encrypted with AES-256-GCM under INVENTORY_SECRET_KEY, so a database dump or backup does not
 * reveal them. Each value is bound to the column it belongs to (additional authenticated data), so
 * a ciphertext copied into another column does not decrypt.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const FORMAT = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class InventorySecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InventorySecretError";
  }
}

function requireKey(key: Buffer | undefined, what: string): Buffer {
  if (!key) throw new InventorySecretError(`INVENTORY_SECRET_KEY is not set: ${what} cannot be saved (see docs/inventory.md)`);
  return key;
}

/** `v1:<base64 of iv | tag | ciphertext>`. */
export function encryptSecret(key: Buffer | undefined, column: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", requireKey(key, column), iv);
  cipher.setAAD(Buffer.from(column));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
}

export function decryptSecret(key: Buffer | undefined, column: string, stored: string): string {
  if (!key) throw new InventorySecretError(`INVENTORY_SECRET_KEY is not set: ${column} cannot be read`);
  const [format, payload] = stored.split(":", 2);
  const raw = Buffer.from(payload ?? "", "base64");
  if (format !== FORMAT || raw.length < IV_BYTES + TAG_BYTES)
    throw new InventorySecretError(`${column}: the stored value is not an encrypted secret`);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(column));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new InventorySecretError(`${column} cannot be decrypted: INVENTORY_SECRET_KEY is not the key it was saved with`);
  }
}
