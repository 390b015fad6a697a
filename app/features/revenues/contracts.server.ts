/**
 * The contracts of Revenues & Costs (PostgreSQL contracts, contract_interfaces): listed for the
 * holders of REVENUES_AND_COSTS, edited by staff and superusers holding MANAGE_CONTRACTS (a
 * superuser holds every permission); never by or for a delegated account. Every change is written
 * with its audit entry in one transaction. The rules: docs/revenues-and-costs.md.
 */
import { asc, eq, inArray } from "drizzle-orm";
import { contractInterfaces, contracts, interfaces, routers } from "~db/postgres/schema";
import { recordAudit, type AuditActor } from "~/server/audit/audit-log.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Db } from "~/server/postgres.server";
import { parseContractInput, type CheckedContract } from "./contract-input";

export type ContractPort = { interfaceId: number; router: string; interface: string; capacityBps: number; neighborAsn: number | null };
export type ContractView = Omit<CheckedContract, "interfaceIds"> & { id: number; ports: ContractPort[]; updatedAt: string };

/** Input refused: messages by field ("" for the whole input). */
export class ContractInputError extends Error {
  constructor(readonly errors: Record<string, string>) {
    super(Object.values(errors).join(" "));
    this.name = "ContractInputError";
  }
}

export class ContractMissingError extends Error {
  constructor() {
    super("This contract does not exist (any more).");
    this.name = "ContractMissingError";
  }
}

/** The caller may not do this (403). */
export class ContractAccessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ContractAccessError";
  }
}

/** Whether the user may see contracts and bills: REVENUES_AND_COSTS, never a delegated account (prices stay internal). */
export function canSeeRevenuesAndCosts(user: Pick<UserContext, "permissions" | "isDelegated">): boolean {
  return !user.isDelegated && user.permissions.includes("REVENUES_AND_COSTS");
}

/** Whether the user may edit contracts: staff or superuser, holding MANAGE_CONTRACTS, never delegated. */
export function canManageContracts(user: Pick<UserContext, "permissions" | "isDelegated" | "isStaff" | "isSuperuser">): boolean {
  return !user.isDelegated && (user.isStaff || user.isSuperuser) && user.permissions.includes("MANAGE_CONTRACTS");
}

export function requireContractManager(user: Pick<UserContext, "permissions" | "isDelegated" | "isStaff" | "isSuperuser">): void {
  if (!canManageContracts(user))
    throw new ContractAccessError("Only staff and superusers holding the Contracts permission (MANAGE_CONTRACTS) may change contracts.");
}

/** Who changes (checked by every writer: the rule holds whatever route calls it) and from where. */
export type ContractChange = {
  user: Pick<UserContext, "id" | "email" | "permissions" | "isDelegated" | "isStaff" | "isSuperuser">;
  clientAddress?: string | null;
};
const actorOf = (change: ContractChange): AuditActor => ({ id: change.user.id, email: change.user.email });
type ContractRow = typeof contracts.$inferSelect;

function fieldsOf(row: ContractRow): Omit<CheckedContract, "interfaceIds"> {
  return {
    name: row.name,
    direction: row.direction,
    partnerAsn: row.partnerAsn,
    method: row.method,
    billedDirection: row.billedDirection,
    groupMode: row.groupMode,
    commitMbps: Number(row.commitMbps),
    commitPriceEur: Number(row.commitPriceEur),
    burstPriceEur: Number(row.burstPriceEur),
    flatPriceEur: Number(row.flatPriceEur),
    portFeeEur: Number(row.portFeeEur),
    crossConnectFeeEur: Number(row.crossConnectFeeEur),
    minimumFeeEur: Number(row.minimumFeeEur),
    currency: row.currency,
    validFrom: row.validFrom,
    validTo: row.validTo,
    timezone: row.timezone,
    notes: row.notes,
  };
}

async function portsOf(db: Db, contractIds: readonly number[]): Promise<Map<number, ContractPort[]>> {
  const out = new Map<number, ContractPort[]>();
  if (!contractIds.length) return out;
  const rows = await db
    .select({
      contractId: contractInterfaces.contractId,
      interfaceId: interfaces.id,
      router: routers.name,
      interface: interfaces.name,
      capacityBps: interfaces.capacityBps,
      neighborAsn: interfaces.neighborAsn,
    })
    .from(contractInterfaces)
    .innerJoin(interfaces, eq(interfaces.id, contractInterfaces.interfaceId))
    .innerJoin(routers, eq(routers.id, interfaces.routerId))
    .where(inArray(contractInterfaces.contractId, [...contractIds]))
    .orderBy(asc(routers.name), asc(interfaces.name));
  for (const { contractId, ...port } of rows) {
    const list = out.get(contractId) ?? [];
    list.push(port);
    out.set(contractId, list);
  }
  return out;
}

/** Every contract with its billing group, by name. */
export async function listContracts(db: Db): Promise<ContractView[]> {
  const rows = await db.select().from(contracts).orderBy(asc(contracts.name));
  const ports = await portsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ id: r.id, ...fieldsOf(r), ports: ports.get(r.id) ?? [], updatedAt: r.updatedAt.toISOString() }));
}

export async function getContract(db: Db, id: number): Promise<ContractView | null> {
  const [row] = await db.select().from(contracts).where(eq(contracts.id, id));
  if (!row) return null;
  const ports = await portsOf(db, [id]);
  return { id, ...fieldsOf(row), ports: ports.get(id) ?? [], updatedAt: row.updatedAt.toISOString() };
}

/** The input checked against the inventory and the other contracts (inside the writing transaction). */
async function checked(tx: Db, input: unknown, exceptId: number | null): Promise<CheckedContract> {
  const parsed = parseContractInput(input);
  if (!parsed.ok) throw new ContractInputError(parsed.errors);
  const c = parsed.contract;
  const [sameName] = await tx.select({ id: contracts.id }).from(contracts).where(eq(contracts.name, c.name));
  if (sameName && sameName.id !== exceptId) throw new ContractInputError({ name: `A contract named ${c.name} exists already.` });
  const found = await tx
    .select({ id: interfaces.id, kind: interfaces.kind, name: interfaces.name, router: routers.name })
    .from(interfaces)
    .innerJoin(routers, eq(routers.id, interfaces.routerId))
    .where(inArray(interfaces.id, c.interfaceIds));
  const missing = c.interfaceIds.filter((id) => !found.some((f) => f.id === id));
  if (missing.length) throw new ContractInputError({ interfaceIds: `No interface of the inventory has the id ${missing.join(", ")}.` });
  const core = found.filter((f) => f.kind === "core");
  if (core.length)
    throw new ContractInputError({
      interfaceIds: `${core.map((f) => `${f.router} ${f.name}`).join(", ")} is a core link: contracts bill external and access interfaces.`,
    });
  const taken = await tx
    .select({ interfaceId: contractInterfaces.interfaceId, contract: contracts.name, contractId: contracts.id })
    .from(contractInterfaces)
    .innerJoin(contracts, eq(contracts.id, contractInterfaces.contractId))
    .where(inArray(contractInterfaces.interfaceId, c.interfaceIds));
  const elsewhere = taken.filter((t) => t.contractId !== exceptId);
  if (elsewhere.length) {
    const names = elsewhere.map((t) => {
      const f = found.find((x) => x.id === t.interfaceId)!;
      return `${f.router} ${f.name} belongs to the contract ${t.contract}`;
    });
    throw new ContractInputError({ interfaceIds: `${names.join("; ")}: an interface is billed by one contract.` });
  }
  return c;
}

function rowValues(c: CheckedContract) {
  const { interfaceIds: _ids, ...fields } = c;
  return fields;
}

const auditView = (c: Omit<CheckedContract, "interfaceIds">, interfaceIds: readonly number[]) => ({
  ...c,
  interfaceIds: [...interfaceIds].sort((a, b) => a - b),
});

async function inTransaction<T>(db: Db, run: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (transaction) => run(transaction as unknown as Db));
}

/** Inserts a checked contract with its billing group and audit entry, inside the caller's transaction. */
async function insertContract(tx: Db, input: unknown, change: ContractChange): Promise<number> {
  const c = await checked(tx, input, null);
  const [row] = await tx.insert(contracts).values(rowValues(c)).returning();
  await tx.insert(contractInterfaces).values(c.interfaceIds.map((interfaceId) => ({ contractId: row.id, interfaceId })));
  await recordAudit(tx, {
    actor: actorOf(change),
    action: "contract.create",
    targetType: "contract",
    targetId: row.id,
    targetLabel: row.name,
    after: auditView(fieldsOf(row), c.interfaceIds),
    clientAddress: change.clientAddress ?? null,
  });
  return row.id;
}

/** Replaces a contract's terms and billing group, audited when anything changed, inside the caller's transaction. */
async function rewriteContract(tx: Db, id: number, input: unknown, change: ContractChange): Promise<void> {
  const [before] = await tx.select().from(contracts).where(eq(contracts.id, id)).for("update");
  if (!before) throw new ContractMissingError();
  const beforeIds = (await tx.select().from(contractInterfaces).where(eq(contractInterfaces.contractId, id))).map((r) => r.interfaceId);
  const c = await checked(tx, input, id);
  const [row] = await tx
    .update(contracts)
    .set({ ...rowValues(c), updatedAt: new Date() })
    .where(eq(contracts.id, id))
    .returning();
  await tx.delete(contractInterfaces).where(eq(contractInterfaces.contractId, id));
  await tx.insert(contractInterfaces).values(c.interfaceIds.map((interfaceId) => ({ contractId: id, interfaceId })));
  const was = auditView(fieldsOf(before), beforeIds);
  const now = auditView(fieldsOf(row), c.interfaceIds);
  if (JSON.stringify(was) !== JSON.stringify(now))
    await recordAudit(tx, {
      actor: actorOf(change),
      action: "contract.update",
      targetType: "contract",
      targetId: id,
      targetLabel: row.name,
      before: was,
      after: now,
      clientAddress: change.clientAddress ?? null,
    });
}

export async function createContract(db: Db, input: unknown, change: ContractChange): Promise<ContractView> {
  requireContractManager(change.user);
  const id = await inTransaction(db, (tx) => insertContract(tx, input, change));
  return (await getContract(db, id))!;
}

export async function updateContract(db: Db, id: number, input: unknown, change: ContractChange): Promise<ContractView> {
  requireContractManager(change.user);
  await inTransaction(db, (tx) => rewriteContract(tx, id, input, change));
  return (await getContract(db, id))!;
}

/** An import refused: the problems of its lines (nothing was written). */
export class ContractImportError extends Error {
  constructor(readonly problems: { line: number; message: string }[]) {
    super(`Nothing was imported: ${problems.length} problem(s), listed by line.`);
    this.name = "ContractImportError";
  }
}

/**
 * Writes the lines of a checked CSV import in one transaction: a line naming an existing contract replaces
 * its terms and billing group (contract.update), any other adds one (contract.create), each audited. A
 * line the store refuses (an interface billed by another contract, a core link, one taken by an earlier
 * line) is named with its line number and nothing is written.
 */
export async function importContracts(
  db: Db,
  lines: readonly { line: number; contract: CheckedContract }[],
  change: ContractChange,
): Promise<{ created: number; updated: number }> {
  requireContractManager(change.user);
  return inTransaction(db, async (tx) => {
    const problems: { line: number; message: string }[] = [];
    let created = 0;
    let updated = 0;
    for (const { line, contract } of lines) {
      try {
        const [existing] = await tx.select({ id: contracts.id }).from(contracts).where(eq(contracts.name, contract.name));
        if (existing) {
          await rewriteContract(tx, existing.id, contract, change);
          updated++;
        } else {
          await insertContract(tx, contract, change);
          created++;
        }
      } catch (error) {
        if (!(error instanceof ContractInputError)) throw error;
        problems.push({ line, message: Object.values(error.errors).join(" ") });
      }
    }
    // Thrown inside the transaction: every line written before the refused one is rolled back.
    if (problems.length) throw new ContractImportError(problems);
    return { created, updated };
  });
}

export async function deleteContract(db: Db, id: number, change: ContractChange): Promise<void> {
  requireContractManager(change.user);
  await inTransaction(db, async (tx) => {
    const ids = (await tx.select().from(contractInterfaces).where(eq(contractInterfaces.contractId, id))).map((r) => r.interfaceId);
    const [row] = await tx.delete(contracts).where(eq(contracts.id, id)).returning();
    if (!row) throw new ContractMissingError();
    await recordAudit(tx, {
      actor: actorOf(change),
      action: "contract.delete",
      targetType: "contract",
      targetId: id,
      targetLabel: row.name,
      before: auditView(fieldsOf(row), ids),
      clientAddress: change.clientAddress ?? null,
    });
  });
}
