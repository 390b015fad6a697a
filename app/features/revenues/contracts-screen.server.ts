/**
 * The contracts part of the Revenues & Costs screen: the list and the inventory's external
 * interfaces for the edit form (only for those who may edit contracts), and the POST actions
 * (intent create, update, delete with its confirm step) calling the contracts store, which checks
 * MANAGE_CONTRACTS again and writes the audit entry. A refused form answers its typed values and one
 * message per field (status 400); a caller without the right is refused with 403.
 */
import { data } from "@remix-run/node";
import { asc, eq } from "drizzle-orm";
import { interfaces, routers } from "~db/postgres/schema";
import { clientAddress } from "~/server/auth/session.server";
import { readProtectedForm } from "~/server/auth/guard.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import {
  CONTRACT_NUMBER_FIELDS,
  CONTRACT_TEXT_FIELDS,
  type ContractActionResult,
  type ContractFormValues,
  type ContractsPart,
} from "./contract-form";
import { BILLED_DIRECTION_LABELS, DIRECTION_LABELS, GROUP_MODE_LABELS } from "./contract-input";
import {
  canManageContracts,
  ContractAccessError,
  ContractInputError,
  ContractMissingError,
  ContractImportError,
  createContract,
  deleteContract,
  importContracts,
  getContract,
  listContracts,
  requireContractManager,
  updateContract,
  type ContractChange,
  type ContractView,
} from "./contracts.server";
import { planContractImport } from "./contract-csv";
import { formatEur } from "./format";
import { recomputeMonth, RevenueCostError } from "./revenue-cost.server";

function valuesOf(c: ContractView): ContractFormValues {
  return {
    name: c.name,
    direction: c.direction,
    method: c.method,
    billedDirection: c.billedDirection,
    groupMode: c.groupMode,
    validFrom: c.validFrom,
    validTo: c.validTo ?? "",
    timezone: c.timezone,
    notes: c.notes,
    partnerAsn: c.partnerAsn === null ? "" : String(c.partnerAsn),
    commitMbps: String(c.commitMbps),
    commitPriceEur: String(c.commitPriceEur),
    burstPriceEur: String(c.burstPriceEur),
    flatPriceEur: String(c.flatPriceEur),
    portFeeEur: String(c.portFeeEur),
    crossConnectFeeEur: String(c.crossConnectFeeEur),
    minimumFeeEur: String(c.minimumFeeEur),
    interfaceIds: c.ports.map((p) => String(p.interfaceId)),
  };
}

const positiveId = (v: string | null) => (v !== null && /^\d{1,9}$/.test(v) && Number(v) > 0 ? Number(v) : null);

/** The contracts and the interfaces to choose from, for a user who may edit contracts (else null). */
export async function loadContractsPart(services: Pick<Services, "pg">, user: UserContext, url: URL): Promise<ContractsPart> {
  if (!canManageContracts(user)) return null;
  const list = await listContracts(services.pg.db);
  const options = await services.pg.db
    .select({ id: interfaces.id, router: routers.name, name: interfaces.name, kind: interfaces.kind })
    .from(interfaces)
    .innerJoin(routers, eq(interfaces.routerId, routers.id))
    .orderBy(asc(routers.name), asc(interfaces.name));
  const billedBy = new Map(list.flatMap((c) => c.ports.map((p) => [p.interfaceId, c.name] as const)));
  const editId = positiveId(url.searchParams.get("edit"));
  const deleteId = positiveId(url.searchParams.get("delete"));
  return {
    contracts: list.map((c) => ({
      id: c.id,
      name: c.name,
      summary: `${DIRECTION_LABELS[c.direction]} · ${c.method} · ${BILLED_DIRECTION_LABELS[c.billedDirection]} · ${GROUP_MODE_LABELS[c.groupMode]}`,
      ports: c.ports.map((p) => `${p.router} ${p.interface}`).join(", "),
      validity: `${c.validFrom} – ${c.validTo ?? "open-ended"} (${c.timezone})`,
      values: valuesOf(c),
    })),
    // Core links are never billed; an interface billed by a contract says by which (one contract per interface).
    interfaces: options
      .filter((o) => o.kind !== "core")
      .map((o) => ({
        id: o.id,
        label: `${o.router} ${o.name} (${o.kind})${billedBy.has(o.id) ? `, billed by ${billedBy.get(o.id)}` : ""}`,
      })),
    editId: editId !== null && list.some((c) => c.id === editId) ? editId : null,
    deleteId: deleteId !== null && list.some((c) => c.id === deleteId) ? deleteId : null,
  };
}

function formValues(form: FormData): ContractFormValues {
  const text = (name: string) => String(form.get(name) ?? "");
  const values = Object.fromEntries(
    [...CONTRACT_TEXT_FIELDS, ...CONTRACT_NUMBER_FIELDS].map((f) => [f, text(f)]),
  ) as unknown as ContractFormValues;
  values.interfaceIds = form.getAll("interfaceIds").map(String);
  return values;
}

/** The store's input from the typed values: numbers as numbers (a text that is none stays text: the store names it), empty optional fields null. */
function inputOf(v: ContractFormValues): Record<string, unknown> {
  const num = (s: string) => (s.trim() !== "" && Number.isFinite(Number(s)) ? Number(s) : s);
  const input: Record<string, unknown> = {};
  // The fields with a default take it when left empty; the required ones go as typed (the store names what is missing).
  const withDefault = new Set(["billedDirection", "groupMode", "timezone", "notes"]);
  for (const f of CONTRACT_TEXT_FIELDS) if (!(withDefault.has(f) && v[f].trim() === "")) input[f] = v[f];
  for (const f of CONTRACT_NUMBER_FIELDS) if (v[f].trim() !== "") input[f] = num(v[f]);
  input.partnerAsn = v.partnerAsn.trim() === "" ? null : num(v.partnerAsn);
  input.validTo = v.validTo.trim() === "" ? null : v.validTo;
  input.interfaceIds = v.interfaceIds.map(num);
  return input;
}

const status = (s: number) => ({ status: s });
const reply = (result: ContractActionResult, init?: ResponseInit) => data(result, init);

const MONTH_FIELD = /^(\d{4})-(\d{2})$/;

/** intent recompute (month YYYY-MM, confirm=yes, an optional reason): a closed month's bills computed afresh, audited. */
async function recomputeAction(services: Pick<Services, "pg" | "ch">, form: FormData, change: ContractChange & { reason?: string }) {
  const refuse = (message: string) =>
    reply({ ok: false, intent: "recompute", id: null, errors: { "": message }, values: null }, status(400));
  const m = MONTH_FIELD.exec(String(form.get("month") ?? "").trim());
  if (!m) return refuse("Which month? Give it as YYYY-MM.");
  if (form.get("confirm") !== "yes") return refuse("Confirm the recompute first: the month's frozen bills are replaced.");
  try {
    const reason = String(form.get("reason") ?? "")
      .trim()
      .slice(0, 500);
    const r = await recomputeMonth(services, Number(m[1]), Number(m[2]), { ...change, reason });
    return reply({
      ok: true,
      saved: `Bills of ${m[1]}-${m[2]} recomputed: cost ${formatEur(r.before.costEur)} → ${formatEur(r.costEur)}, revenue ${formatEur(r.before.revenueEur)} → ${formatEur(r.revenueEur)}.`,
    });
  } catch (error) {
    if (error instanceof RevenueCostError) return refuse(`${error.message}.`);
    throw error;
  }
}

/** The inventory's interfaces by router and interface name (exact, else the one whose names match ignoring case). */
async function interfaceLookup(services: Pick<Services, "pg">): Promise<(router: string, name: string) => number | undefined> {
  const rows = await services.pg.db
    .select({ id: interfaces.id, router: routers.name, name: interfaces.name })
    .from(interfaces)
    .innerJoin(routers, eq(interfaces.routerId, routers.id));
  const exact = new Map(rows.map((r) => [`${r.router}\u0000${r.name}`, r.id]));
  const folded = new Map<string, number | null>();
  for (const r of rows) {
    const key = `${r.router}\u0000${r.name}`.toLowerCase();
    folded.set(key, folded.has(key) ? null : r.id); // two interfaces differing only in case: not guessed
  }
  return (router, name) => exact.get(`${router}\u0000${name}`) ?? folded.get(`${router}\u0000${name}`.toLowerCase()) ?? undefined;
}

/**
 * intent import (a file or pasted lines): every line checked, then all written in one transaction, or none. Sizes are
 * the page forms' (MAX_FORM_BODY for the file, 100,000 characters pasted) and CONTRACT_IMPORT_MAX_ROWS lines.
 */
async function importAction(services: Pick<Services, "pg">, form: FormData, change: ContractChange) {
  const file = form.get("file");
  const pasted = String(form.get("csv") ?? "");
  const fromFile = file instanceof File && file.size > 0 ? file : null;
  const refuse = (errors: Record<string, string>, problems: { line: number; message: string }[] = []) =>
    reply({ ok: false, intent: "import", id: null, errors, values: null, problems, csv: pasted }, status(400));
  const text = fromFile ? await fromFile.text() : pasted;
  if (!text.trim()) return refuse({ csv: "Choose a CSV file or paste its lines." });
  const plan = planContractImport(text, await interfaceLookup(services));
  const nothing = (problems: { line: number; message: string }[]) =>
    refuse({ csv: `Nothing was imported: ${problems.length} problem(s), listed by line.` }, problems);
  if (plan.problems.length) return nothing(plan.problems);
  try {
    const done = await importContracts(services.pg.db, plan.lines, change);
    return reply({ ok: true, saved: `${plan.lines.length} contract line(s) imported: ${done.created} added, ${done.updated} replaced.` });
  } catch (error) {
    if (error instanceof ContractImportError) return nothing(error.problems);
    throw error;
  }
}

/** POST of the screen: intent create | update | delete (confirm=yes). 403 without MANAGE_CONTRACTS, 400 for a refused form. */
export async function contractAction(services: Pick<Services, "pg" | "ch">, user: UserContext, request: Request) {
  const form = await readProtectedForm(request);
  const intent = String(form.get("intent") ?? "");
  try {
    requireContractManager(user);
  } catch (error) {
    if (error instanceof ContractAccessError) throw new Response(error.message, { status: 403 });
    throw error;
  }
  const change = { user, clientAddress: clientAddress(request) };
  const id = positiveId(form.get("id") === null ? null : String(form.get("id")));
  if (intent === "recompute") return recomputeAction(services, form, change);
  if (intent === "import") return importAction(services, form, change);
  if (intent !== "create" && intent !== "update" && intent !== "delete")
    return reply(
      { ok: false, intent, id, errors: { "": "Unknown action: choose to add, save, delete or import contracts." }, values: null },
      status(400),
    );
  if (intent !== "create" && id === null)
    return reply({ ok: false, intent, id, errors: { "": "Which contract? The contract id is missing." }, values: null }, status(400));
  const values = intent === "delete" ? null : formValues(form);
  try {
    if (intent === "create") {
      const c = await createContract(services.pg.db, inputOf(values!), change);
      return reply({ ok: true, saved: `Contract ${c.name} added.` });
    }
    if (intent === "update") {
      const c = await updateContract(services.pg.db, id!, inputOf(values!), change);
      return reply({ ok: true, saved: `Contract ${c.name} saved.` });
    }
    if (form.get("confirm") !== "yes")
      return reply({ ok: false, intent, id, errors: { "": "Confirm the deletion first." }, values: null }, status(400));
    const before = await getContract(services.pg.db, id!);
    await deleteContract(services.pg.db, id!, change);
    return reply({ ok: true, saved: `Contract ${before?.name ?? id} deleted.` });
  } catch (error) {
    if (error instanceof ContractInputError) return reply({ ok: false, intent, id, errors: error.errors, values }, status(400));
    if (error instanceof ContractMissingError) return reply({ ok: false, intent, id, errors: { "": error.message }, values }, status(404));
    if (error instanceof ContractAccessError) throw new Response(error.message, { status: 403 });
    throw error;
  }
}
