/**
 * The planners' link catalogue from the inventory (docs/planners.md "Links"), and what a
 * delegated account may see of it (docs/delegated-users.md).
 *
 * - External links: every interface of kind external.
 * - Internal links: core interfaces paired by `remote`, one link per pair whichever end (or both)
 *   declares it; a is the end whose "router|interface" sorts first, out = a → b.
 */
import type { ExternalLinksViewRestrictions } from "~db/postgres/schema";
import { listRouters } from "~/features/inventory/inventory.server";
import { effectiveNames } from "~/features/tags/effective-names.server";
import { readDelegation } from "~/server/auth/delegation.server";
import type { Services } from "~/server/services.server";
import type { LinkEnd } from "./sql";
import type { ExternalLink, InternalLink, LinkKind, PlannerLink } from "./types";

export const interfaceKey = (router: string, iface: string) => `${router}|${iface}`;
export const internalLinkKey = (a: { router: string; interface: string }, b: { router: string; interface: string }) =>
  `${interfaceKey(a.router, a.interface)}>${interfaceKey(b.router, b.interface)}`;

/** A capacity of 0 means "not known" in the inventory's terms for planning: no utilisation from it. */
const knownCapacity = (bps: number | null | undefined) => (bps && bps > 0 ? bps : null);

export type Catalogue = { external: ExternalLink[]; internal: InternalLink[] };

/** Every link of the inventory (no visibility applied, neighbour ASes not named yet: see linksVisibleTo), ordered by key. */
export async function readCatalogue(services: Pick<Services, "pg">): Promise<Catalogue> {
  const routers = await listRouters(services);
  const external: ExternalLink[] = [];
  const cores = new Map<
    string,
    {
      router: string;
      interface: string;
      description: string;
      capacityBps: number | null;
      remote: { router: string; interface: string } | null;
    }
  >();
  for (const router of routers)
    for (const i of router.interfaces) {
      if (i.kind === "external")
        external.push({
          kind: "external",
          key: interfaceKey(router.name, i.name),
          router: router.name,
          interface: i.name,
          description: i.description,
          neighbourAs: i.neighbour_as,
          asName: null,
          peering: i.peering,
          connection: i.connection,
          capacityBps: knownCapacity(i.capacity),
        });
      else if (i.kind === "core")
        cores.set(interfaceKey(router.name, i.name), {
          router: router.name,
          interface: i.name,
          description: i.description,
          capacityBps: knownCapacity(i.capacity),
          remote: i.remote,
        });
    }
  const internal = new Map<string, InternalLink>();
  for (const [key, end] of cores) {
    if (!end.remote) continue;
    const remoteKey = interfaceKey(end.remote.router, end.remote.interface);
    const far = cores.get(remoteKey);
    const near = { router: end.router, interface: end.interface, description: end.description, capacityBps: end.capacityBps };
    // A remote end that is not a core interface of the inventory: its capacity and description are unknown.
    const other = far
      ? { router: far.router, interface: far.interface, description: far.description, capacityBps: far.capacityBps }
      : { router: end.remote.router, interface: end.remote.interface, description: "", capacityBps: null };
    const [a, b] = key < remoteKey ? [near, other] : [other, near];
    const linkKey = internalLinkKey(a, b);
    if (internal.has(linkKey)) continue;
    const known = [a.capacityBps, b.capacityBps].filter((c): c is number => c !== null);
    internal.set(linkKey, { kind: "internal", key: linkKey, a, b, capacityBps: known.length ? Math.min(...known) : null });
  }
  const byKey = <T extends { key: string }>(x: T, y: T) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0);
  return { external: external.sort(byKey), internal: [...internal.values()].sort(byKey) };
}

/**
 * Whether a delegated account with these restrictions sees an external link: its neighbour AS is
 * in ASNumberList (none when the list is empty: deny by default; an IX port without a neighbour AS
 * never), and, when they are non-empty, its router is in routerList and "router|interface" in
 * interfaceList.
 */
export function delegatedSees(restrictions: ExternalLinksViewRestrictions, link: ExternalLink): boolean {
  if (link.neighbourAs === null || !restrictions.ASNumberList.map(Number).includes(link.neighbourAs)) return false;
  if (restrictions.routerList.length && !restrictions.routerList.includes(link.router)) return false;
  if (restrictions.interfaceList.length && !restrictions.interfaceList.includes(link.key)) return false;
  return true;
}

/** The links of a kind the user may see: all for a normal account; see delegatedSees for a delegated one (no internal links). */
export async function linksVisibleTo(
  services: Pick<Services, "pg">,
  user: { userId: number; isDelegated: boolean },
  kind: LinkKind,
  catalogue?: Catalogue,
): Promise<PlannerLink[]> {
  const all = catalogue ?? (await readCatalogue(services));
  if (!user.isDelegated) return kind === "external" ? nameNeighbours(services, user, all.external) : all.internal;
  if (kind === "internal") return [];
  const delegation = await readDelegation(services.pg.db, user.userId);
  if (!delegation) return [];
  return nameNeighbours(
    services,
    user,
    all.external.filter((link) => delegatedSees(delegation.external, link)),
  );
}

/** External links with their neighbour AS named as the user reads it (its effective mapping, else the registry's name). */
async function nameNeighbours(services: Pick<Services, "pg">, user: { userId: number }, links: ExternalLink[]): Promise<ExternalLink[]> {
  const names = await effectiveNames(services, { id: user.userId });
  const ases = await names.ases(links.flatMap((l) => (l.neighbourAs === null ? [] : [l.neighbourAs])));
  return links.map((l) => ({ ...l, asName: l.neighbourAs === null ? null : (ases.get(String(l.neighbourAs))?.name ?? null) }));
}

/** The interfaces feeding the links (for the SQL builders): an external link its interface; an internal link a (preferred) and b swapped. */
export function endsOf(links: readonly PlannerLink[]): LinkEnd[] {
  // An interface feeds one link only (the first in key order): a remote declared inconsistently on
  // both sides must not count its bytes twice.
  const seen = new Set<string>();
  const all = links.flatMap((link): LinkEnd[] =>
    link.kind === "external"
      ? [{ link: link.key, router: link.router, interface: link.interface, swap: false, preference: 2 }]
      : [
          { link: link.key, router: link.a.router, interface: link.a.interface, swap: false, preference: 2 },
          { link: link.key, router: link.b.router, interface: link.b.interface, swap: true, preference: 1 },
        ],
  );
  return all.filter((end) => {
    const key = interfaceKey(end.router, end.interface);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
