/**
 * Views → the inventory file's shape (docs/inventory.md): empty fields left out, capacities in
 * their shortest exact unit, secrets as the `{ secret: set }` marker. Reading the result with
 * inventoryFileSchema gives back the same inventory, which is what makes the file round-trip.
 */
import type { InterfaceView, RouterView, SecretState, VantagePointView } from "./rows.server";
import { formatCapacity, SECRET_SET } from "./schema";

type Doc = Record<string, unknown>;

/** Drops null, empty strings and empty lists, keeping the order of the fields. */
function compact(fields: Doc): Doc {
  return Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== null && v !== undefined && v !== "" && !(Array.isArray(v) && !v.length)),
  );
}

const marker = (s: SecretState) => (s === "set" ? { ...SECRET_SET } : null);

export function interfaceDocument(i: InterfaceView): Doc {
  return compact({
    name: i.name,
    ifindex: i.ifindex,
    description: i.description,
    capacity: formatCapacity(i.capacity),
    kind: i.kind,
    peering: i.peering,
    connection: i.connection,
    neighbour_as: i.neighbour_as,
    vrf: i.vrf,
    remote: i.remote,
  });
}

export function routerDocument(r: RouterView): Doc {
  return compact({
    name: r.name,
    city: r.city,
    country: r.country,
    role: r.role,
    vendor: r.vendor,
    loopback: r.loopback,
    exporters: r.exporters,
    snmp: r.snmp
      ? compact({
          version: r.snmp.version,
          port: r.snmp.port,
          community: marker(r.snmp.community),
          user: r.snmp.user,
          auth_protocol: r.snmp.auth_protocol,
          auth_password: marker(r.snmp.auth_password),
          priv_protocol: r.snmp.priv_protocol,
          priv_password: marker(r.snmp.priv_password),
        })
      : null,
    ssh: r.ssh
      ? compact({
          host: r.ssh.host,
          port: r.ssh.port,
          user: r.ssh.user,
          private_key: marker(r.ssh.private_key),
          password: marker(r.ssh.password),
          host_key: r.ssh.host_key,
        })
      : null,
    interfaces: r.interfaces.map(interfaceDocument),
    vrfs: r.vrfs.map((v) => ({ name: v.name, rd: v.rd })),
  });
}

export function vantagePointDocument(v: VantagePointView): Doc {
  return compact({
    key: v.key,
    router: v.router,
    city: v.city,
    country: v.country,
    ip: v.ip,
    public: v.public,
    description: v.description,
    legacy_description: v.legacy_description,
  });
}
