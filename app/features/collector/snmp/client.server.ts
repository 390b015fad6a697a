/**
 * The SNMP requests the poller makes, over the `net-snmp` library (SNMP v2c, and v3 with
 * authentication and privacy): GET of some objects and walks of table columns (GETBULK). Failures
 * become an SnmpError of one of three kinds people can act on: a time-out (nothing answered — with
 * v2c also a wrong community, and with v3 a wrong privacy password, which agents drop without a
 * word), authentication (the v3 user is unknown or its authentication password wrong), or other.
 */
import snmp from "net-snmp";

export type SnmpErrorKind = "timeout" | "authentication" | "other";

export class SnmpError extends Error {
  constructor(
    readonly kind: SnmpErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "SnmpError";
  }
}

export type SnmpTarget = {
  host: string;
  port: number;
  version: "2c" | "3";
  community: string | null;
  user: string | null;
  authProtocol: string | null;
  authPassword: string | null;
  privProtocol: string | null;
  privPassword: string | null;
  timeoutMs: number;
  retries: number;
};

/** A value as read: numbers for integers, gauges and time ticks, bigint for 64-bit counters, text for strings. */
export type SnmpValue = number | bigint | string | null;

const AUTH: Record<string, snmp.AuthProtocols> = {
  MD5: snmp.AuthProtocols.md5,
  SHA: snmp.AuthProtocols.sha,
  "SHA-224": snmp.AuthProtocols.sha224,
  "SHA-256": snmp.AuthProtocols.sha256,
  "SHA-384": snmp.AuthProtocols.sha384,
  "SHA-512": snmp.AuthProtocols.sha512,
};
const PRIV: Record<string, snmp.PrivProtocols> = {
  DES: snmp.PrivProtocols.des,
  "AES-128": snmp.PrivProtocols.aes,
  // The Blumenthal key extension (RFC draft, Net-SNMP's "AES-256").
  "AES-256": snmp.PrivProtocols.aes256b,
};

function classify(error: unknown): SnmpError {
  if (error instanceof SnmpError) return error;
  const e = error as { name?: string; message?: string; code?: number };
  const message = e?.message ?? String(error);
  if (e?.name === "RequestTimedOutError") return new SnmpError("timeout", "No answer (time-out)");
  if (e?.name === "ResponseInvalidError" && e.code === snmp.ResponseInvalidCode.EAuthFailure)
    return new SnmpError("authentication", `Authentication failed: ${message}`);
  return new SnmpError("other", message);
}

function valueOf(varbind: snmp.Varbind): SnmpValue {
  if (snmp.isVarbindError(varbind)) return null;
  const value = varbind.value as unknown;
  if (varbind.type === snmp.ObjectType.Counter64) {
    const bytes = value as Buffer;
    let n = 0n;
    for (const byte of bytes) n = (n << 8n) | BigInt(byte);
    return n;
  }
  if (Buffer.isBuffer(value)) return value.toString("utf8");
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "string") return value;
  return value === null || value === undefined ? null : String(value);
}

export type SnmpSession = {
  /** The values of `oids`, in order; null where the device has no such object. */
  get(oids: readonly string[]): Promise<SnmpValue[]>;
  /** Every object under `oid`: the OID suffix after it (e.g. "12" or "5.3") → value. */
  walk(oid: string): Promise<Map<string, SnmpValue>>;
};

function openSession(target: SnmpTarget): snmp.Session {
  const common = { port: target.port, timeout: target.timeoutMs, retries: target.retries, backoff: 1 };
  if (target.version === "2c") {
    if (!target.community) throw new SnmpError("other", "No SNMP community is set in the inventory");
    return snmp.createSession(target.host, target.community, { ...common, version: snmp.Version2c });
  }
  if (!target.user) throw new SnmpError("other", "No SNMP v3 user is set in the inventory");
  const user: snmp.User = { name: target.user, level: snmp.SecurityLevel.noAuthNoPriv };
  if (target.authProtocol) {
    const auth = AUTH[target.authProtocol];
    if (auth === undefined) throw new SnmpError("other", `SNMP authentication protocol ${target.authProtocol} is not supported`);
    if (!target.authPassword) throw new SnmpError("other", "No SNMP v3 authentication password is set in the inventory");
    Object.assign(user, { level: snmp.SecurityLevel.authNoPriv, authProtocol: auth, authKey: target.authPassword });
    if (target.privProtocol) {
      const priv = PRIV[target.privProtocol];
      if (priv === undefined) throw new SnmpError("other", `SNMP privacy protocol ${target.privProtocol} is not supported by the poller`);
      if (!target.privPassword) throw new SnmpError("other", "No SNMP v3 privacy password is set in the inventory");
      Object.assign(user, { level: snmp.SecurityLevel.authPriv, privProtocol: priv, privKey: target.privPassword });
    }
  }
  return snmp.createV3Session(target.host, user, { ...common, version: snmp.Version3 });
}

/** Opens a session for `work` and closes it after, whatever happens; failures as SnmpError. */
export async function withSnmpSession<T>(target: SnmpTarget, work: (session: SnmpSession) => Promise<T>): Promise<T> {
  let session: snmp.Session;
  try {
    session = openSession(target);
  } catch (error) {
    throw classify(error);
  }
  // A socket error (e.g. an address that cannot be reached) arrives as an event, not a callback.
  session.on("error", () => {});
  const api: SnmpSession = {
    get: (oids) =>
      new Promise((resolve, reject) =>
        session.get([...oids], (error, varbinds) => (error ? reject(classify(error)) : resolve((varbinds ?? []).map(valueOf)))),
      ),
    walk: (oid) =>
      new Promise((resolve, reject) => {
        const found = new Map<string, SnmpValue>();
        session.subtree(
          oid,
          25,
          (varbinds) => {
            for (const vb of varbinds) if (!snmp.isVarbindError(vb)) found.set(vb.oid.slice(oid.length + 1), valueOf(vb));
          },
          (error) => (error ? reject(classify(error)) : resolve(found)),
        );
      }),
  };
  try {
    return await work(api);
  } finally {
    session.close();
  }
}
