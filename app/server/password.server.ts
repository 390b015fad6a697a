import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";

// scrypt is memory-hard (N=2^15, r=8 → 32 MiB per hash), built into Node, and runs on the libuv
// thread pool, so hashing never blocks the event loop.
const N = 32768;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
const MAX_MEMORY = 64 * 1024 * 1024;

/**
 * Hashing is bounded: at most HASHING.concurrent scrypt runs at a time (each holds a thread-pool
 * thread and 32 MiB; the pool's other threads stay free for files, DNS and compression), the rest
 * wait in line. Anonymous callers (login, password reset) pass `maxQueue`: with that many already
 * waiting they are refused at once (HashingBusyError, a 503 with Retry-After) instead of piling up
 * behind each other and slowing every page.
 */
export const HASHING = { concurrent: 2, anonymousQueue: 16, retryAfterSeconds: 2 } as const;

export class HashingBusyError extends Error {
  readonly retryAfterSeconds = HASHING.retryAfterSeconds;
  constructor() {
    super("The server is busy checking other logins. Please try again in a few seconds.");
    this.name = "HashingBusyError";
  }
}

let running = 0;
const waiting: (() => void)[] = [];

async function withHashingSlot<T>(work: () => Promise<T>, maxQueue: number): Promise<T> {
  if (running >= HASHING.concurrent) {
    if (waiting.length >= maxQueue) throw new HashingBusyError();
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running++;
  }
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line (running stays the same), or is given back.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** Hashing runs and waiting callers right now (for tests and diagnostics). */
export function hashingLoad(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}

export type HashOptions = { maxQueue?: number };

function scrypt(password: string, salt: Buffer, n: number, r: number, p: number, options: HashOptions = {}): Promise<Buffer> {
  return withHashingSlot(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scryptCallback(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: MAX_MEMORY }, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
    options.maxQueue ?? Number.POSITIVE_INFINITY,
  );
}

/** Returns "scrypt$N$r$p$salt$hash" (base64 parts), self-describing so parameters can evolve. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, N, R, P);
  return ["scrypt", N, R, P, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string | null | undefined, options: HashOptions = {}): Promise<boolean> {
  if (!stored) return false;
  const [scheme, n, r, p, saltText, keyText] = stored.split("$");
  if (scheme !== "scrypt" || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, "base64");
  const actual = await scrypt(password, Buffer.from(saltText, "base64"), Number(n), Number(r), Number(p), options);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
