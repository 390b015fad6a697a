/**
 * The /site-settings/inventory screen: staff and superusers list and edit routers (with their
 * exporters, SNMP and SSH settings), a router's interfaces and the vantage points. GET parameters
 * choose what is open (`router`, `interface`, `vantage_point`); every change is a POST form with
 * one `intent`, answered by a redirect with `saved=<what>` (PRG), or a 400 with the service's
 * messages next to the fields and the values as typed.
 */
import { data, redirect } from "@remix-run/node";
import { readProtectedForm } from "~/server/auth/guard.server";
import type { Services } from "~/server/services.server";
import {
  createInterface,
  createRouter,
  createVantagePoint,
  deleteInterface,
  deleteRouter,
  deleteVantagePoint,
  getOperatorAs,
  getRouter,
  getVantagePoint,
  InventoryInputError,
  listInventoryVantagePoints,
  listRouters,
  routerDependents,
  setOperatorAs,
  updateInterface,
  updateRouter,
  updateVantagePoint,
} from "./inventory.server";
import { exporterKey } from "~/features/collector/exporter-address";
import { totalsByAddress, exporterRows, inventoryExporters, unnamedIfIndexes } from "~/features/collector/data-sources/data-sources.server";
import { routerDocument } from "./document";
import {
  formErrors,
  INTERFACE_FIELDS,
  interfaceInput,
  noExporterWarning,
  ROUTER_FIELDS,
  routerInput,
  VANTAGE_POINT_FIELDS,
  vantagePointInput,
  type FormErrors,
  type FormValues,
} from "./inventory-form";

export const INVENTORY_PATH = "/site-settings/inventory";

const SAVED: Record<string, string> = {
  "router-created": "The router was added.",
  "router-updated": "The router was saved.",
  "router-deleted": "The router was deleted, with its exporters and interfaces.",
  "interface-created": "The interface was added.",
  "interface-updated": "The interface was saved.",
  "interface-deleted": "The interface was deleted.",
  "vantage-point-created": "The vantage point was added.",
  "vantage-point-updated": "The vantage point was saved.",
  "vantage-point-deleted": "The vantage point was deleted.",
  "operator-as": "Your network's AS number was saved.",
};

type Stores = Pick<Services, "pg" | "config">;

/** A router name from an exporter address: "exporter-192-0-2-9", "exporter-2001-db8--1". */
export const adoptedRouterName = (address: string) => `exporter-${address.replace(/[.:]/g, "-")}`;

/**
 * `adopt=<address>` (the Data sources page's "Adopt"): the new-router form filled in from an
 * exporter the inventory does not know. Name and loopback come from the address (routers often
 * export from their loopback), city and country say "Unknown" until someone knows better; the
 * ifIndexes the collector saw are listed to be named once the router exists. An address that is no
 * address, or is an exporter already, gives a notice instead.
 */
async function adoption(services: Stores, raw: string | null) {
  if (raw === null) return { adopt: null, adoptNotice: null };
  const address = exporterKey(raw);
  if (!address) return { adopt: null, adoptNotice: `"${raw.slice(0, 100)}" is not an exporter address: nothing to adopt.` };
  const owner = (await inventoryExporters(services.pg.db)).get(address);
  if (owner) return { adopt: null, adoptNotice: `${address} is an exporter of router ${owner} already.` };
  // The address may be an sFlow agent's, or a UDP source it was heard from (behind NAT or a relay).
  const seen = totalsByAddress(await exporterRows(services.pg.db)).find((t) => t.key === address || t.udpSources.includes(address));
  return {
    adopt: {
      address,
      ifIndexes: seen?.ifIndexes ?? [],
      values: {
        name: adoptedRouterName(address),
        city: "Unknown",
        country: "Unknown",
        role: "edge",
        loopback: address,
        exporters: address,
      } as FormValues,
    },
    adoptNotice: null,
  };
}

export async function loadInventoryScreen(services: Stores, request: Request) {
  const url = new URL(request.url);
  const routerName = url.searchParams.get("router");
  const interfaceName = url.searchParams.get("interface");
  const pointKey = url.searchParams.get("vantage_point");
  const router = routerName ? await getRouter(services, routerName) : null;
  const saved = url.searchParams.get("saved");
  const ifindex = url.searchParams.get("ifindex");
  const routers = await listRouters(services);
  return {
    ...(router ? { adopt: null, adoptNotice: null } : await adoption(services, url.searchParams.get("adopt"))),
    /** ifIndexes seen from the router's exporters that no interface has yet. */
    unnamedIfIndexes: router
      ? await unnamedIfIndexes(
          services.pg.db,
          router.exporters,
          router.interfaces.map((i) => i.ifindex),
        )
      : [],
    /** `ifindex=<n>` prefills the new-interface form (a link of the list above). */
    newInterfaceIfIndex: ifindex && /^\d{1,10}$/.test(ifindex) ? ifindex : null,
    savedMessage: saved ? (SAVED[saved] ?? null) : null,
    operatorAs: await getOperatorAs(services),
    secretsEnabled: Boolean(services.config.INVENTORY_SECRET_KEY),
    /** Routers whose flows cannot be attributed (no exporter address): said above the list and on the router's page. */
    noExporterWarning: noExporterWarning(routers.filter((r) => !r.exporters.length).map((r) => r.name)),
    routerNoExporterWarning: router && !router.exporters.length ? noExporterWarning([router.name]) : null,
    routers: routers.map((r) => ({
      name: r.name,
      city: r.city,
      country: r.country,
      role: r.role,
      vendor: r.vendor,
      loopback: r.loopback,
      exporters: r.exporters,
      interfaceCount: r.interfaces.length,
    })),
    vantagePoints: await listInventoryVantagePoints(services),
    missing:
      (routerName && !router) || (pointKey && !(await getVantagePoint(services, pointKey)))
        ? "It is not in the inventory (any more)."
        : null,
    router,
    dependents: router ? await routerDependents(services, router.name) : null,
    editedInterface: router && interfaceName ? (router.interfaces.find((i) => i.name === interfaceName) ?? null) : null,
    editedVantagePoint: pointKey ? await getVantagePoint(services, pointKey) : null,
  };
}

export type InventoryScreen = Awaited<ReturnType<typeof loadInventoryScreen>>;

export type InventoryIntent =
  | "create-router"
  | "update-router"
  | "delete-router"
  | "create-interface"
  | "update-interface"
  | "delete-interface"
  | "create-vantage-point"
  | "update-vantage-point"
  | "delete-vantage-point"
  | "set-operator-as";

export type InventoryActionResult = { intent: InventoryIntent | ""; errors: FormErrors; values: FormValues };

const noRouter = (name: string) => `There is no router named ${name}.`;

const back = (saved: string, params: Record<string, string> = {}) =>
  redirect(`${INVENTORY_PATH}?${new URLSearchParams({ ...params, saved })}`);

export async function saveInventoryScreen(services: Stores, request: Request) {
  const form = await readProtectedForm(request);
  const values: FormValues = {};
  for (const [key, value] of form.entries()) if (typeof value === "string" && key !== "csrfmiddlewaretoken") values[key] = value;
  const intent = (values.intent ?? "") as InventoryIntent;
  const refuse = (errors: FormErrors, status = 400) => data<InventoryActionResult>({ intent, errors, values }, { status });
  // A delete that found nothing says so (the list the form came from was stale), rather than "deleted".
  const missing = (message: string) => refuse({ "": message }, 404);
  // The name the router or vantage point had when the form was opened (a rename changes the typed one).
  const current = values.current ?? "";
  const routerName = values.router_name ?? "";

  async function attempt(fields: readonly string[], formLevel: FormErrors, run: () => Promise<Response | ReturnType<typeof refuse>>) {
    if (Object.keys(formLevel).length) return refuse(formLevel);
    try {
      return await run();
    } catch (error) {
      if (error instanceof InventoryInputError) return refuse(formErrors(error.issues, fields));
      throw error;
    }
  }

  switch (intent) {
    case "create-router": {
      const { input, errors } = routerInput(values);
      return attempt(ROUTER_FIELDS, errors, async () => {
        const made = await createRouter(services, input);
        return back("router-created", { router: made.name });
      });
    }
    case "update-router": {
      const stored = await getRouter(services, current);
      if (!stored) return refuse({ "": noRouter(current) });
      const { input, errors } = routerInput(values, stored);
      return attempt(ROUTER_FIELDS, errors, async () => {
        // The router form does not carry the interfaces: they stay as they are.
        const saved = await updateRouter(services, current, { ...input, interfaces: routerDocument(stored).interfaces ?? [] });
        return back("router-updated", { router: saved.name });
      });
    }
    case "delete-router":
      return attempt([], {}, async () => {
        if (!(await deleteRouter(services, current))) return missing(noRouter(current));
        return back("router-deleted");
      });
    case "create-interface": {
      const { input, errors } = interfaceInput(values);
      return attempt(INTERFACE_FIELDS, errors, async () => {
        await createInterface(services, routerName, input);
        return back("interface-created", { router: routerName });
      });
    }
    case "update-interface": {
      const { input, errors } = interfaceInput(values);
      return attempt(INTERFACE_FIELDS, errors, async () => {
        await updateInterface(services, routerName, current, input);
        return back("interface-updated", { router: routerName });
      });
    }
    case "delete-interface":
      return attempt([], {}, async () => {
        if (!(await deleteInterface(services, routerName, current)))
          return missing(`There is no interface named ${current} on a router named ${routerName}.`);
        return back("interface-deleted", { router: routerName });
      });
    case "create-vantage-point": {
      const { input } = vantagePointInput(values);
      return attempt(VANTAGE_POINT_FIELDS, {}, async () => {
        await createVantagePoint(services, input);
        return back("vantage-point-created");
      });
    }
    case "update-vantage-point": {
      const { input } = vantagePointInput(values);
      return attempt(VANTAGE_POINT_FIELDS, {}, async () => {
        await updateVantagePoint(services, current, input);
        return back("vantage-point-updated");
      });
    }
    case "delete-vantage-point":
      return attempt([], {}, async () => {
        if (!(await deleteVantagePoint(services, current))) return missing(`There is no vantage point with the key ${current}.`);
        return back("vantage-point-deleted");
      });
    case "set-operator-as": {
      const typed = (values.operator_as ?? "").trim().replace(/^AS/i, "");
      if (!/^\d{1,10}$/.test(typed)) return refuse({ operator_as: "Enter the AS number as digits, for example 64500." });
      return attempt(["operator_as"], {}, async () => {
        await setOperatorAs(services, Number(typed));
        return back("operator-as");
      });
    }
    default:
      return refuse({ "": "Unknown action." });
  }
}
