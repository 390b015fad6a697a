import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseNetworkList } from "~/lib/ip";
import { parseProxyTrust } from "./auth/client-address.server";

export const APP_VARIANTS = ["analytics", "public-lg", "manager"] as const;
export type AppVariant = (typeof APP_VARIANTS)[number];

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

function urlWithProtocols(protocols: string[], example: string) {
  return z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine(
        (value) => {
          try {
            return protocols.includes(new URL(value).protocol);
          } catch {
            return false;
          }
        },
        `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")} (e.g. ${example})`,
      )
      .optional(),
  );
}

const BYTE_UNITS: Record<string, number> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** A size in bytes: a whole number, optionally with k, m or g (binary: 1m = 1,048,576 bytes). */
function byteSize(fallback: string) {
  return z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default(fallback)
      .transform((value, ctx) => {
        const match = /^(\d+)\s*([kmg]?)b?$/i.exec(value.trim());
        const bytes = match ? Number(match[1]) * BYTE_UNITS[match[2].toLowerCase()] : NaN;
        if (!Number.isSafeInteger(bytes) || bytes < 1024) {
          ctx.addIssue({ code: "custom", message: "must be a size of at least 1024 bytes, e.g. 1048576, 512k, 1m or 2g" });
          return z.NEVER;
        }
        return bytes;
      }),
  );
}

/**
 * How to reach a router vantage point over SSH for ping and traceroute (NETCOMMAND_SSH, a JSON
 * object keyed by vantage point key). Vantage points not listed run the commands on this server.
 */
export const NetcommandSshTargetSchema = z.object({
  host: z.string().regex(/^[A-Za-z0-9.:_][A-Za-z0-9.:_-]*$/, "must be a host name or IP address"),
  user: z.string().regex(/^[A-Za-z0-9._][A-Za-z0-9._-]*$/, "must be a plain user name"),
  port: z.number().int().min(1).max(65535).default(22),
  identityFile: z.string().min(1).optional(),
  /** A known_hosts file holding the router's key (host keys are always checked). */
  knownHostsFile: z.string().min(1).optional(),
  vendor: z.enum(["juniper", "cisco"]),
});
export type NetcommandSshTarget = z.infer<typeof NetcommandSshTargetSchema>;

const netcommandSsh = z.preprocess(
  (value, ctx) => {
    const text = emptyToUndefined(value);
    if (text === undefined || typeof text !== "string") return text;
    try {
      return JSON.parse(text);
    } catch {
      ctx.addIssue({ code: "custom", message: 'must be a JSON object, e.g. {"fra1":{"host":"192.0.2.1","user":"lg","vendor":"juniper"}}' });
      return z.NEVER;
    }
  },
  z.record(z.string().min(1), NetcommandSshTargetSchema).default({}),
);

/**
 * INVENTORY_SECRET_KEY: the AES-256 key of the inventory's secrets (SNMP communities and passwords,
 * SSH keys and passwords), 32 bytes as 64 hex digits or base64. Unset: secrets cannot be saved.
 */
const inventorySecretKey = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .transform((text, ctx) => {
      const value = text.trim();
      const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
      if (key.length !== 32 || (!/^[0-9a-f]{64}$/i.test(value) && key.toString("base64") !== value)) {
        ctx.addIssue({ code: "custom", message: "must be 32 bytes as 64 hex digits or base64, e.g. from `openssl rand -hex 32`" });
        return z.NEVER;
      }
      return key;
    })
    .optional(),
);

/** NETCOMMAND_STAFF_ALLOWED_RANGES: comma-separated addresses or CIDR prefixes → networks (empty: none). */
const netcommandStaffRanges = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default("")
    .transform((text, ctx) => {
      try {
        return parseNetworkList(text);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: `${(error as Error).message} (expected e.g. 10.0.0.0/8,fd00::/8)` });
        return z.NEVER;
      }
    }),
);
const positiveInt = () => z.coerce.number().int("must be a whole number").min(1, "must be at least 1");
const positiveNumber = () => z.coerce.number().positive("must be more than 0");

/** The whole runtime configuration: one schema, read once at start-up. */
export const EnvSchema = z.object({
  NODE_ENV: z.preprocess(emptyToUndefined, z.enum(["development", "production", "test"]).default("production")),
  DATABASE_URL: urlWithProtocols(["postgres:", "postgresql:"], "postgres://user:pass@127.0.0.1:5432/flowlens"),
  CLICKHOUSE_URL: urlWithProtocols(["http:", "https:"], "http://127.0.0.1:8123"),
  CLICKHOUSE_USER: optionalString,
  CLICKHOUSE_PASSWORD: optionalString,
  CLICKHOUSE_DATABASE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a plain identifier (letters, digits, underscore)")
      .default("flowlens"),
  ),
  CLICKHOUSE_CLUSTER: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, "must be a cluster name from the server's remote_servers")
      .optional(),
  ),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./data")),
  SESSION_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, "must be at least 32 characters").optional()),
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).default(3000)),
  APP_VARIANT: z.preprocess(emptyToUndefined, z.enum(APP_VARIANTS).default("analytics")),
  DEMO_DATA: z.preprocess(emptyToUndefined, z.enum(["auto", "on", "off"]).default("auto")),
  /**
   * Trusted reverse proxies: `0` none (the socket address is the client), a list of addresses and
   * CIDR networks whose X-Forwarded-For is honoured, or `1` (trust every hop: the last entry).
   */
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.string().default("0")).transform((value, ctx) => {
    try {
      return parseProxyTrust(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
      return z.NEVER;
    }
  }),
  /** Origin of every link in mail (password reset, invitations); unset: http://localhost:PORT, with a warning. */
  PUBLIC_URL: urlWithProtocols(["http:", "https:"], "https://flowlens.example.net"),
  /** Largest request bodies accepted, per kind (bytes, or with k/m/g): JSON calls, page forms, the MRT upload. */
  MAX_JSON_BODY: byteSize("1m"),
  MAX_FORM_BODY: byteSize("1m"),
  MAX_UPLOAD_BODY: byteSize("4g"),
  /** Largest PeeringDB JSON accepted: the upload on the routing data page and each daily sync from PEERINGDB_SYNC_URL. */
  MAX_PEERINGDB_UPLOAD: byteSize("200m"),
  /** PeeringDB JSON (a dump or a per-object answer) fetched once a day on the component host into the PeeringDB import; unset: no sync. */
  PEERINGDB_SYNC_URL: urlWithProtocols(["http:", "https:"], "https://peeringdb-mirror.example.net/peeringdb.json"),
  SMTP_URL: urlWithProtocols(["smtp:", "smtps:"], "smtp://user:pass@mail.example.org:587"),
  SMTP_FROM: z.preprocess(emptyToUndefined, z.string().default("flowlens <noreply@flowlens.invalid>")),
  SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.string().email("must be an e-mail address").optional()),
  /**
   * The team-chat alert (app/server/alerts.server.ts): client error reports and unexpected server
   * failures are posted to this incoming webhook (Slack- and Mattermost-compatible JSON), with basic
   * authentication when ALERT_WEBHOOK_USER is set. Unset: nothing is posted.
   */
  ALERT_WEBHOOK_URL: urlWithProtocols(["http:", "https:"], "https://chat.example.net/hooks/abc123"),
  ALERT_WEBHOOK_USER: optionalString,
  ALERT_WEBHOOK_PASSWORD: optionalString,
  /** The webhook that receives the alerts of requests made to ALERT_WEBHOOK_TEST_HOST (a test installation's host name) instead. */
  ALERT_WEBHOOK_TEST_URL: urlWithProtocols(["http:", "https:"], "https://chat.example.net/hooks/test456"),
  ALERT_WEBHOOK_TEST_HOST: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9.-]+(:\d+)?$/, "must be a host name, optionally with :port (e.g. flowlens-test.example.net)")
      .transform((host) => host.toLowerCase())
      .optional(),
  ),
  /** Most alerts posted per hour, both webhooks together; beyond it alerts are only logged until the hour has passed. */
  ALERT_WEBHOOK_HOURLY_CAP: z.preprocess(emptyToUndefined, positiveInt().max(3600, "must be at most 3600").default(30)),
  /** Days the usage tracking (usertracking/interaction/) keeps each event. */
  USAGE_RETENTION_DAYS: z.preprocess(emptyToUndefined, positiveInt().max(3650, "must be at most 3650").default(90)),
  /** Secret part of the test error page path /error-{secret}; without it the page does not exist. */
  ERROR_PAGE_SECRET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,}$/, "must be 8+ letters, digits, - or _")
      .optional(),
  ),
  DEMO_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(400).default(35)),
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(["debug", "info", "warn", "error"]).default("info")),
  /** Router vantage points reached over SSH for ping and traceroute (see NetcommandSshTargetSchema). */
  NETCOMMAND_SSH: netcommandSsh,
  INVENTORY_SECRET_KEY: inventorySecretKey,
  /** Internal ranges staff may ping and trace besides public addresses (see app/features/netcommand/targets.ts). */
  NETCOMMAND_STAFF_ALLOWED_RANGES: netcommandStaffRanges,
  /**
   * Analytics queries (ClickHouse reads of requests) running at once, overall and per user; empty:
   * 2 and 1 on the embedded chDB (it runs one query at a time anyway), 8 and 4 on a server.
   */
  ANALYTICS_QUERIES: z.preprocess(emptyToUndefined, positiveInt().optional()),
  ANALYTICS_QUERIES_PER_USER: z.preprocess(emptyToUndefined, positiveInt().optional()),
  /** Queries that may wait for a slot, overall (beyond: 503) and per user (beyond: 429). */
  ANALYTICS_QUEUE: z.preprocess(emptyToUndefined, positiveInt().default(64)),
  ANALYTICS_QUEUE_PER_USER: z.preprocess(emptyToUndefined, positiveInt().default(8)),
  /** Longest wait for a slot before the request answers 503. */
  ANALYTICS_QUEUE_WAIT_SECONDS: z.preprocess(emptyToUndefined, positiveNumber().default(5)),
  /** Requests of one logged-in user (session or API token) in progress at once; beyond it 429. */
  REQUESTS_PER_USER: z.preprocess(emptyToUndefined, positiveInt().default(6)),
  /** ClickHouse's max_execution_time for analytics queries; past it the request answers 503. */
  QUERY_MAX_EXECUTION_SECONDS: z.preprocess(emptyToUndefined, positiveNumber().default(15)),
  /** The second client (api/v2/, docs/api.md): computations one user may have pending at once; beyond it 429. */
  API_V2_PENDING_PER_USER: z.preprocess(emptyToUndefined, positiveInt().default(4)),
  /** How long a finished api/v2/ result is kept, in seconds. */
  API_V2_RESULT_TTL_SECONDS: z.preprocess(emptyToUndefined, positiveInt().default(600)),
  /** All stored api/v2/ results together at most (the oldest finished go first); one larger than it is not kept. */
  API_V2_RESULTS_MAX_BYTES: byteSize("256m"),
  /** A pending api/v2/ computation nobody asked for during this many seconds is cancelled. */
  API_V2_ABANDON_SECONDS: z.preprocess(emptyToUndefined, positiveInt().default(30)),
  /** ClickHouse's max_execution_time for the queries of an api/v2/ computation (the only bound of one on chDB). */
  API_V2_MAX_EXECUTION_SECONDS: z.preprocess(emptyToUndefined, positiveNumber().default(120)),
  /**
   * ClickHouse's max_rows_to_read for each query of the Raw Network Analyzer over flows_raw: a query
   * that would read more answers 503 "query_too_broad" at once instead of running into the time limit.
   */
  RNA_MAX_ROWS_TO_READ: z.preprocess(emptyToUndefined, positiveInt().default(200_000_000)),
  /**
   * Minutes without a datagram after which an exporter that sent within the last 24 hours counts as
   * silent: flagged on the Data sources page, and staff are notified once per silence.
   */
  FLOWS_SILENT_AFTER: z.preprocess(emptyToUndefined, positiveInt().max(1440, "must be at most 1440 (a day)").default(10)),
  /**
   * Minutes after the end of the newest 5-minute bucket of flows_5m after which staff are told once
   * "No new flow data since …" (and once more when data arrives again). Not before flows ever arrived.
   */
  FLOWS_STALE_AFTER: z.preprocess(emptyToUndefined, positiveInt().max(10080, "must be at most 10080 (a week)").default(30)),
  /**
   * The flow-derived interface utilisation (interface_util_5m rows with source 'flows', written
   * every 5 minutes where the ingest components run): on by default, `off` stops it.
   */
  FLOWS_UTIL: z.preprocess(emptyToUndefined, z.enum(["on", "off"]).default("on")),
  /** How far back its first run starts, in days (it cannot go further back than flows_raw keeps records). */
  FLOWS_UTIL_BACKFILL_DAYS: z.preprocess(emptyToUndefined, positiveInt().max(800, "must be at most 800").default(35)),
  /** The same for the routing history (rib_entries), once a routing table was imported. */
  ROUTING_STALE_AFTER: z.preprocess(emptyToUndefined, positiveInt().max(43200, "must be at most 43200 (30 days)").default(1440)),
  /** Bearer token of GET /metrics (Prometheus); unset: the endpoint does not exist. */
  METRICS_TOKEN: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[\x21-\x7e]{16,}$/, "must be at least 16 printable characters without spaces (e.g. from `openssl rand -hex 24`)")
      .optional(),
  ),
});

export type Env = z.infer<typeof EnvSchema>;

export type AppConfig = Env & {
  dataDir: string;
  /** True when neither store is a server: PGlite and chDB live under DATA_DIR. */
  embeddedPostgres: boolean;
  embeddedClickhouse: boolean;
  sessionSecret: string;
};

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Formats zod issues as "VARIABLE: reason" lines, so a start-up error names what to fix. */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `  ${issue.path.join(".") || "(environment)"}: ${issue.message}`).join("\n");
}

/**
 * The session secret signs cookies. With a server database several replicas must agree on it,
 * so it is required there; in embedded mode one is generated once and kept under DATA_DIR.
 */
function resolveSessionSecret(env: Env, dataDir: string): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  if (env.DATABASE_URL) {
    throw new ConfigError(
      "Invalid configuration:\n  SESSION_SECRET: required when DATABASE_URL is set (at least 32 characters, the same on every replica)",
    );
  }
  const file = path.join(dataDir, "session-secret");
  if (existsSync(file)) {
    const stored = readFileSync(file, "utf8").trim();
    if (stored.length >= 32) return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret + "\n", { mode: 0o600 });
  return secret;
}

export function parseConfig(source: Record<string, string | undefined>): AppConfig {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) throw new ConfigError(`Invalid configuration:\n${describeIssues(parsed.error)}`);
  const env = parsed.data;
  if (env.CLICKHOUSE_CLUSTER && !env.CLICKHOUSE_URL) {
    throw new ConfigError("Invalid configuration:\n  CLICKHOUSE_CLUSTER: needs CLICKHOUSE_URL (the embedded chDB is a single node)");
  }
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    ...env,
    dataDir,
    embeddedPostgres: !env.DATABASE_URL,
    embeddedClickhouse: !env.CLICKHOUSE_URL,
    sessionSecret: resolveSessionSecret(env, dataDir),
  };
}

let cached: AppConfig | undefined;
export function getConfig(): AppConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
