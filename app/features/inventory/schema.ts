/**
 * The inventory's input: one shape for the service, the YAML file of `npm run inventory` and, later,
 * the site-settings screen (docs/inventory.md describes it field by field). Field names are those of
 * the file (snake_case); every check names the field it refuses.
 */
import { z } from "zod";
import { formatIpAddress, parseIpAddress } from "~/lib/ip";
import { parseRouteDistinguisher } from "./route-distinguisher";

export const ROUTER_ROLES = ["edge", "core", "border", "access", "route-reflector", "other"] as const;
export const INTERFACE_KINDS = ["core", "external", "access"] as const;
export const PEERING_TYPES = ["Transit", "Peering", "Customer"] as const;
export const SNMP_AUTH_PROTOCOLS = ["MD5", "SHA", "SHA-224", "SHA-256", "SHA-384", "SHA-512"] as const;
export const SNMP_PRIV_PROTOCOLS = ["DES", "AES-128", "AES-192", "AES-256"] as const;

/** What an export writes, and an import reads as "keep the stored secret". */
export const SECRET_SET = { secret: "set" } as const;
export type SecretMarker = typeof SECRET_SET;

const MAX_TEXT = 200;
const MAX_IFINDEX = 2 ** 31 - 1;
const MAX_ASN = 4_294_967_295;
/** 10 Tbit/s: beyond any single port or bundle today; catches a unit typed twice. */
const MAX_CAPACITY_BPS = 10 ** 13;

const plainText = (max = MAX_TEXT) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "must not contain control characters");
const name = () =>
  plainText(100)
    .trim()
    .min(1, "must not be empty")
    .refine((s) => !/\s/.test(s), "must not contain spaces");
const optionalText = (max = MAX_TEXT) =>
  plainText(max)
    .nullish()
    .transform((s) => s ?? "");

/** An IPv4 or IPv6 address, written canonically (RFC 5952 for IPv6), so lookups match whatever spelling came in. */
export const ipAddress = z.string().transform((raw, ctx) => {
  const parsed = parseIpAddress(raw);
  if (!parsed || raw.includes("/")) {
    ctx.addIssue({ code: "custom", message: `must be an IPv4 or IPv6 address, not "${raw}"` });
    return z.NEVER;
  }
  return formatIpAddress(parsed);
});

const UNITS: Record<string, number> = { "": 1, k: 1e3, m: 1e6, g: 1e9, t: 1e12 };

/** Bits per second: a whole number, or a number with k/M/G/T (decimal), e.g. 100G, 2.5G, 400M. */
export const capacity = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const match = typeof value === "string" ? /^(\d+(?:\.\d+)?)\s*([kmgt]?)(?:bit\/s|bps|b)?$/i.exec(value.trim()) : null;
  const bps = typeof value === "number" ? value : match ? Math.round(Number(match[1]) * UNITS[match[2].toLowerCase()]) : NaN;
  if (!Number.isSafeInteger(bps) || bps < 0 || bps > MAX_CAPACITY_BPS) {
    ctx.addIssue({
      code: "custom",
      message: `must be bits per second, e.g. 100G, 2.5G, 400M or 10000000000 (at most 10T), not "${value}"`,
    });
    return z.NEVER;
  }
  return bps;
});

/** The shortest exact spelling of a capacity, as the file writes it: 100G, 2500M, 1234. */
export function formatCapacity(bps: number): string | number {
  for (const [unit, factor] of [
    ["T", 1e12],
    ["G", 1e9],
    ["M", 1e6],
    ["k", 1e3],
  ] as const)
    if (bps >= factor && bps % factor === 0) return `${bps / factor}${unit}`;
  return bps;
}

/** A secret: the value itself (saved encrypted), the marker `{ secret: set }` (keep the stored one), or absent (none). */
export const secret = z
  .union([
    // Private keys span lines: only NUL is refused.
    z
      .string()
      .min(1, "must not be empty")
      .max(16_384, "must be at most 16384 characters")
      .refine((s) => !s.includes("\u0000"), "must not contain NUL characters"),
    z.object({ secret: z.literal("set", { error: 'must be "set" (keep the stored secret) or the secret itself' }) }).strict(),
  ])
  .nullish()
  .transform((value) => value ?? null);
export type SecretInput = string | SecretMarker | null;

const port = (fallback: number) => z.number().int("must be a whole number").min(1).max(65535).default(fallback);

export const snmpSchema = z
  .object({
    version: z.union([z.literal("2c"), z.literal("3"), z.literal(3).transform(() => "3" as const)], {
      error: 'must be "2c" or "3"',
    }),
    port: port(161),
    community: secret,
    user: plainText(100)
      .nullish()
      .transform((s) => s || null),
    auth_protocol: z
      .enum(SNMP_AUTH_PROTOCOLS)
      .nullish()
      .transform((s) => s ?? null),
    auth_password: secret,
    priv_protocol: z
      .enum(SNMP_PRIV_PROTOCOLS)
      .nullish()
      .transform((s) => s ?? null),
    priv_password: secret,
  })
  .strict()
  .superRefine((s, ctx) => {
    const refuse = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (s.version === "2c") {
      if (!s.community) refuse("community", "is required for SNMP 2c");
      for (const field of ["user", "auth_protocol", "auth_password", "priv_protocol", "priv_password"] as const)
        if (s[field]) refuse(field, "is for SNMPv3 only");
      return;
    }
    if (s.community) refuse("community", "is for SNMP 2c only; SNMPv3 uses user and passwords");
    if (!s.user) refuse("user", "is required for SNMPv3");
    if (!!s.auth_protocol !== !!s.auth_password)
      refuse(s.auth_protocol ? "auth_password" : "auth_protocol", "goes with the other (both or neither)");
    if (!!s.priv_protocol !== !!s.priv_password)
      refuse(s.priv_protocol ? "priv_password" : "priv_protocol", "goes with the other (both or neither)");
    if (s.priv_protocol && !s.auth_protocol) refuse("priv_protocol", "needs authentication (SNMPv3 has no privacy without auth)");
  });
export type SnmpInput = z.output<typeof snmpSchema>;

export const sshSchema = z
  .object({
    host: z.string().regex(/^[A-Za-z0-9.:_][A-Za-z0-9.:_-]*$/, "must be a host name or IP address"),
    port: port(22),
    user: z.string().regex(/^[A-Za-z0-9._][A-Za-z0-9._-]*$/, "must be a plain user name"),
    private_key: secret,
    password: secret,
    /** The router's public key, e.g. "ssh-ed25519 AAAA…": host keys are always checked. */
    host_key: z
      .string()
      .trim()
      .regex(/^(ssh-|ecdsa-|sk-)[A-Za-z0-9@.-]+ [A-Za-z0-9+/]+=*$/, 'must be a public key line, e.g. "ssh-ed25519 AAAA…"'),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (!s.private_key && !s.password) ctx.addIssue({ code: "custom", path: ["private_key"], message: "or password is required" });
  });
export type SshInput = z.output<typeof sshSchema>;

const remoteEnd = z.object({ router: name(), interface: name() }).strict();

export const interfaceSchema = z
  .object({
    name: name(),
    ifindex: z.number().int("must be a whole number").min(1, "must be at least 1").max(MAX_IFINDEX, `must be at most ${MAX_IFINDEX}`),
    description: optionalText(),
    capacity,
    kind: z.enum(INTERFACE_KINDS),
    peering: z
      .enum(PEERING_TYPES)
      .nullish()
      .transform((s) => s ?? null),
    /** PNI, or the exchange's name for a peering at an IX; free text. */
    connection: plainText(100)
      .nullish()
      .transform((s) => s || null),
    neighbour_as: z
      .number()
      .int("must be a whole number")
      .min(1)
      .max(MAX_ASN)
      .nullish()
      .transform((n) => n ?? null),
    vrf: plainText(100)
      .nullish()
      .transform((s) => s || null),
    remote: remoteEnd.nullish().transform((r) => r ?? null),
  })
  .strict()
  .superRefine((i, ctx) => {
    const refuse = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (i.kind !== "external") {
      if (i.peering) refuse("peering", "is for external interfaces only");
      if (i.neighbour_as !== null) refuse("neighbour_as", "is for external interfaces only");
    } else if (!i.peering) refuse("peering", `is required for external interfaces (${PEERING_TYPES.join(", ")})`);
    if (i.remote && i.kind !== "core") refuse("remote", "is for core interfaces only");
  });
export type InterfaceInput = z.output<typeof interfaceSchema>;

/** A route distinguisher in any spelling of route-distinguisher.ts, kept as rib_entries stores it. */
export const routeDistinguisher = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const parsed = parseRouteDistinguisher(String(value));
  if (!parsed.ok) {
    ctx.addIssue({ code: "custom", message: parsed.error });
    return z.NEVER;
  }
  return parsed.rd.text;
});

/** A VRF of the router: its name (as interfaces' `vrf` and the flows' VRF name it) and its route distinguisher. */
export const vrfSchema = z.object({ name: name(), rd: routeDistinguisher }).strict();
export type VrfInput = z.output<typeof vrfSchema>;

export const routerSchema = z
  .object({
    name: name(),
    city: plainText(100).min(1, "must not be empty"),
    country: plainText(100).min(1, "must not be empty"),
    role: z.enum(ROUTER_ROLES).default("edge"),
    vendor: optionalText(100),
    loopback: ipAddress,
    exporters: z.array(ipAddress).default([]),
    snmp: snmpSchema.nullish().transform((s) => s ?? null),
    ssh: sshSchema.nullish().transform((s) => s ?? null),
    interfaces: z.array(interfaceSchema).default([]),
    vrfs: z.array(vrfSchema).default([]),
  })
  .strict()
  .superRefine((r, ctx) => {
    const vrfSeen = { name: new Map<string, number>(), rd: new Map<string, number>() };
    r.vrfs.forEach((vrf, i) => {
      for (const field of ["name", "rd"] as const) {
        const first = vrfSeen[field].get(vrf[field]);
        if (first !== undefined)
          ctx.addIssue({ code: "custom", path: ["vrfs", i, field], message: `${vrf[field]} is also vrfs[${first}].${field}` });
        else vrfSeen[field].set(vrf[field], i);
      }
    });
    r.exporters.forEach((address, i) => {
      if (r.exporters.indexOf(address) !== i)
        ctx.addIssue({ code: "custom", path: ["exporters", i], message: `${address} is listed twice` });
    });
    const seen = { name: new Map<string, number>(), ifindex: new Map<number, number>() };
    r.interfaces.forEach((iface, i) => {
      for (const field of ["name", "ifindex"] as const) {
        const map = seen[field] as Map<string | number, number>;
        const first = map.get(iface[field]);
        if (first !== undefined)
          ctx.addIssue({
            code: "custom",
            path: ["interfaces", i, field],
            message: `${iface[field]} is also interfaces[${first}].${field}`,
          });
        else map.set(iface[field], i);
      }
    });
  });
export type RouterInput = z.output<typeof routerSchema>;

export const vantagePointSchema = z
  .object({
    key: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "must be letters, digits, '.', '_' or '-' (at most 64), starting with a letter or digit"),
    router: name(),
    city: plainText(100).min(1, "must not be empty"),
    country: plainText(100).min(1, "must not be empty"),
    ip: ipAddress,
    public: z.boolean().default(false),
    description: optionalText(),
    legacy_description: optionalText(),
  })
  .strict();
export type VantagePointInput = z.output<typeof vantagePointSchema>;

/**
 * The operator's own AS number (as_info category 'operator'): the flows screens split traffic into
 * ingress and egress by it. Public or private, 16 or 32 bits; 23456 (AS_TRANS) only stands in for a
 * 4-byte AS on old BGP speakers and is never a network's own.
 */
export const operatorAsSchema = z
  .number({ error: "must be an AS number" })
  .int("must be a whole number")
  .min(1, "must be at least 1")
  .max(MAX_ASN, `must be at most ${MAX_ASN}`)
  .refine((asn) => asn !== 23456, "23456 (AS_TRANS) is a placeholder for 4-byte AS numbers, not a network's own AS");

export const inventoryFileSchema = z
  .object({
    version: z.literal(1, { error: "must be 1 (the format of docs/inventory.md)" }),
    operator_as: operatorAsSchema.nullish().transform((a) => a ?? null),
    routers: z
      .array(routerSchema)
      .nullish()
      .transform((r) => r ?? []),
    vantage_points: z
      .array(vantagePointSchema)
      .nullish()
      .transform((v) => v ?? []),
  })
  .strict()
  .superRefine((doc, ctx) => {
    const once = <T>(list: T[], key: (t: T) => string, path: (i: number) => (string | number)[], what: string) => {
      const first = new Map<string, number>();
      list.forEach((item, i) => {
        const k = key(item);
        if (first.has(k)) ctx.addIssue({ code: "custom", path: path(i), message: `${what} ${k} is also at index ${first.get(k)}` });
        else first.set(k, i);
      });
    };
    once(
      doc.routers,
      (r) => r.name,
      (i) => ["routers", i, "name"],
      "router",
    );
    once(
      doc.vantage_points,
      (v) => v.key,
      (i) => ["vantage_points", i, "key"],
      "vantage point",
    );
    const exporters = doc.routers.flatMap((r, ri) =>
      r.exporters.map((address, ei) => ({ address, path: ["routers", ri, "exporters", ei] })),
    );
    once(
      exporters,
      (e) => e.address,
      (i) => exporters[i].path,
      "exporter",
    );
  });
export type InventoryFile = z.output<typeof inventoryFileSchema>;

/** `routers[2].interfaces[5].capacity`: where in the input a problem is. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, part) => (typeof part === "number" ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)),
    "",
  );
}

export type InventoryIssue = { path: string; message: string };

export function zodIssues(error: z.ZodError, prefix: readonly PropertyKey[] = []): InventoryIssue[] {
  return error.issues.map((issue) => ({ path: issuePath([...prefix, ...issue.path]), message: issue.message }));
}
