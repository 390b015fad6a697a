/**
 * The inventory screen's forms ↔ the service's input (schema.ts). Form fields are flat strings
 * (`snmp_community`, `capacity_gbps`); the service speaks the file's shape. Numbers are checked
 * here only for being numbers, every other rule is the schema's, and its issues come back to the
 * field that was typed into (formErrors).
 */
import type { InterfaceView, RouterView, SecretState } from "./rows.server";
import { SECRET_SET, type InventoryIssue } from "./schema";

export type FormValues = Record<string, string>;
export type FormErrors = Record<string, string>;
type Parsed = { input: Record<string, unknown>; errors: FormErrors };

export const ROLE_LABELS: Record<string, string> = {
  edge: "Edge",
  core: "Core",
  border: "Border",
  access: "Access",
  "route-reflector": "Route reflector",
  other: "Other",
};

/**
 * The warning for routers without an exporter address: the collector knows a router by the address
 * its flows come from (enrich/), so such a router's flows are not attributed to it; null for none.
 */
export function noExporterWarning(routerNames: readonly string[]): string | null {
  if (!routerNames.length) return null;
  const one = routerNames.length === 1;
  return (
    `${routerNames.join(", ")} ${one ? "has" : "have"} no exporter address: the collector knows a router by the address its flows ` +
    `come from, so flows from ${one ? "it are not attributed to it" : "them are not attributed to them"} (the Data sources screen ` +
    `lists them as unknown exporters). Add the address${one ? "" : "es"} the router${one ? "" : "s"} send${one ? "s" : ""} flows from.`
  );
}

const text = (values: FormValues, field: string) => (values[field] ?? "").trim();

/** A whole number typed into `field`: absent when empty, an error when not digits. */
function wholeNumber(values: FormValues, field: string, errors: FormErrors): number | undefined {
  const raw = text(values, field);
  if (!raw) return undefined;
  if (!/^\d+$/.test(raw)) {
    errors[field] = "must be a whole number";
    return undefined;
  }
  return Number(raw);
}

/** A secret field: what was typed, else removal when "clear" is ticked, else the stored one kept. */
function secret(values: FormValues, field: string, stored: SecretState | undefined) {
  const typed = values[field] ?? "";
  if (typed.trim()) return typed;
  if (values[`${field}_clear`]) return null;
  return stored === "set" ? { ...SECRET_SET } : null;
}

/**
 * The VRFs textarea: one VRF a line, its name then its route distinguisher ("CUST_A 64500:1");
 * blank lines are skipped. A line that is not two words is an error naming the line; the
 * distinguisher itself is checked by the schema (its issues come back by line, formErrors).
 */
export function vrfLines(textValue: string, errors: FormErrors): { name: string; rd: string }[] {
  const vrfs: { name: string; rd: string }[] = [];
  const problems: string[] = [];
  textValue.split(/\r?\n/).forEach((line, index) => {
    const words = line.trim().split(/\s+/).filter(Boolean);
    if (!words.length) return;
    if (words.length !== 2) {
      problems.push(`line ${index + 1}: write the VRF's name and its route distinguisher, e.g. CUST_A 64500:1`);
      return;
    }
    vrfs.push({ name: words[0], rd: words[1] });
  });
  if (problems.length) errors.vrfs = problems.join("; ");
  return vrfs;
}

/** The router form as service input; `stored` is the router being edited (its secrets kept when left empty). */
export function routerInput(values: FormValues, stored?: RouterView | null): Parsed {
  const errors: FormErrors = {};
  const snmpVersion = text(values, "snmp_version");
  const sshHost = text(values, "ssh_host");
  const input: Record<string, unknown> = {
    name: text(values, "name"),
    city: text(values, "city"),
    country: text(values, "country"),
    role: text(values, "role") || undefined,
    vendor: text(values, "vendor"),
    loopback: text(values, "loopback"),
    exporters: (values.exporters ?? "")
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean),
    snmp: snmpVersion
      ? {
          version: snmpVersion,
          port: wholeNumber(values, "snmp_port", errors),
          community: secret(values, "snmp_community", stored?.snmp?.community),
          user: text(values, "snmp_user") || null,
          auth_protocol: text(values, "snmp_auth_protocol") || null,
          auth_password: secret(values, "snmp_auth_password", stored?.snmp?.auth_password),
          priv_protocol: text(values, "snmp_priv_protocol") || null,
          priv_password: secret(values, "snmp_priv_password", stored?.snmp?.priv_password),
        }
      : null,
    ssh: sshHost
      ? {
          host: sshHost,
          port: wholeNumber(values, "ssh_port", errors),
          user: text(values, "ssh_user"),
          private_key: secret(values, "ssh_private_key", stored?.ssh?.private_key),
          password: secret(values, "ssh_password", stored?.ssh?.password),
          host_key: text(values, "ssh_host_key"),
        }
      : null,
    vrfs: vrfLines(values.vrfs ?? "", errors),
  };
  return { input, errors };
}

/** The form's values for a stored router (secrets never: their inputs start empty). */
export function routerValues(router: RouterView): FormValues {
  return {
    name: router.name,
    city: router.city,
    country: router.country,
    role: router.role,
    vendor: router.vendor,
    loopback: router.loopback,
    exporters: router.exporters.join("\n"),
    snmp_version: router.snmp?.version ?? "",
    snmp_port: String(router.snmp?.port ?? 161),
    snmp_user: router.snmp?.user ?? "",
    snmp_auth_protocol: router.snmp?.auth_protocol ?? "",
    snmp_priv_protocol: router.snmp?.priv_protocol ?? "",
    ssh_host: router.ssh?.host ?? "",
    ssh_port: String(router.ssh?.port ?? 22),
    ssh_user: router.ssh?.user ?? "",
    ssh_host_key: router.ssh?.host_key ?? "",
    vrfs: router.vrfs.map((v) => `${v.name} ${v.rd}`).join("\n"),
  };
}

export function interfaceInput(values: FormValues): Parsed {
  const errors: FormErrors = {};
  const gbps = text(values, "capacity_gbps");
  if (!/^\d+(\.\d+)?$/.test(gbps)) errors.capacity_gbps = "must be a number of Gbit/s, e.g. 100 or 2.5";
  const remoteRouter = text(values, "remote_router");
  const remoteInterface = text(values, "remote_interface");
  const input: Record<string, unknown> = {
    name: text(values, "name"),
    ifindex: wholeNumber(values, "ifindex", errors),
    description: text(values, "description"),
    capacity: `${gbps}G`,
    kind: text(values, "kind"),
    peering: text(values, "peering") || null,
    connection: text(values, "connection") || null,
    neighbour_as: wholeNumber(values, "neighbour_as", errors) ?? null,
    vrf: text(values, "vrf") || null,
    remote: remoteRouter || remoteInterface ? { router: remoteRouter, interface: remoteInterface } : null,
  };
  if (input.ifindex === undefined && !errors.ifindex) errors.ifindex = "is required";
  return { input, errors };
}

/** Bits per second as Gbit/s typed in the form: 2500000000 → "2.5". */
export const gbps = (bps: number) => String(bps / 1e9);

export function interfaceValues(i: InterfaceView): FormValues {
  return {
    name: i.name,
    ifindex: String(i.ifindex),
    description: i.description,
    capacity_gbps: gbps(i.capacity),
    kind: i.kind,
    peering: i.peering ?? "",
    connection: i.connection ?? "",
    neighbour_as: i.neighbour_as === null ? "" : String(i.neighbour_as),
    vrf: i.vrf ?? "",
    remote_router: i.remote?.router ?? "",
    remote_interface: i.remote?.interface ?? "",
  };
}

export function vantagePointInput(values: FormValues): Parsed {
  return {
    input: {
      key: text(values, "key"),
      router: text(values, "router"),
      city: text(values, "city"),
      country: text(values, "country"),
      ip: text(values, "ip"),
      public: Boolean(values.public),
      description: text(values, "description"),
      legacy_description: text(values, "legacy_description"),
    },
    errors: {},
  };
}

/**
 * The service's issues placed next to the fields: `snmp.community` → snmp_community,
 * `exporters[1]` → exporters, `capacity` → capacity_gbps, `remote` → remote_router. Issues
 * without a field of the form go under "" (shown above the form).
 */
export function formErrors(issues: InventoryIssue[], fields: readonly string[]): FormErrors {
  const errors: FormErrors = {};
  for (const { path, message } of issues) {
    let field = path.replace(/\[\d+\]/g, "").replace(/\./g, "_");
    const vrf = /^vrfs\[(\d+)\]/.exec(path);
    if (vrf && fields.includes("vrfs")) {
      // The textarea's n-th VRF (blank lines aside): say which one, by its place in the list.
      const shown = `VRF ${Number(vrf[1]) + 1}: ${message}`;
      errors.vrfs = errors.vrfs ? `${errors.vrfs}; ${shown}` : shown;
      continue;
    }
    if (field === "capacity") field = "capacity_gbps";
    if (field === "remote") field = "remote_router";
    if (!fields.includes(field)) field = "";
    const shown = field ? message : path ? `${path}: ${message}` : message;
    errors[field] = errors[field] ? `${errors[field]}; ${shown}` : shown;
  }
  return errors;
}

export const ROUTER_FIELDS = [
  "name",
  "city",
  "country",
  "role",
  "vendor",
  "loopback",
  "exporters",
  "snmp_version",
  "snmp_port",
  "snmp_community",
  "snmp_user",
  "snmp_auth_protocol",
  "snmp_auth_password",
  "snmp_priv_protocol",
  "snmp_priv_password",
  "ssh_host",
  "ssh_port",
  "ssh_user",
  "ssh_private_key",
  "ssh_password",
  "ssh_host_key",
  "vrfs",
] as const;
export const INTERFACE_FIELDS = [
  "name",
  "ifindex",
  "description",
  "capacity_gbps",
  "kind",
  "peering",
  "connection",
  "neighbour_as",
  "vrf",
  "remote_router",
  "remote_interface",
] as const;
export const VANTAGE_POINT_FIELDS = ["key", "router", "city", "country", "ip", "public", "description", "legacy_description"] as const;
