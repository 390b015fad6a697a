import { bigint, check, date, index, integer, jsonb, numeric, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { interfaces } from "./network";

/** What a contract bills (docs/revenues-and-costs.md): a cost we pay, or a revenue a customer pays us. */
export const CONTRACT_DIRECTIONS = ["cost", "revenue"] as const;
/** The spec's billing methods (shell §3). */
export const BILLING_METHODS = ["Flatrate", "free", "Max 95th"] as const;
/** Which traffic direction a Max 95th contract bills: the higher of in and out (the default), in, out, or their sum. */
export const BILLED_DIRECTIONS = ["max", "in", "out", "sum"] as const;
/** A billing group of several ports: the 95th of the summed series (aggregate) or the sum of each port's 95th (per_port). */
export const GROUP_MODES = ["aggregate", "per_port"] as const;

/**
 * Contracts of transits, peerings and customers (issue 29): a billing group of inventory interfaces
 * (contract_interfaces), the method and its prices in EUR, fixed monthly fees, a minimum monthly fee,
 * validity dates and the billing timezone. Edited by staff and superusers (MANAGE_CONTRACTS); each
 * change is audited.
 */
export const contracts = pgTable(
  "contracts",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull().unique(),
    direction: text("direction", { enum: CONTRACT_DIRECTIONS }).notNull(),
    /** The partner's AS (the transit, the peer, the customer); null when none applies. */
    partnerAsn: bigint("partner_asn", { mode: "number" }),
    method: text("method", { enum: BILLING_METHODS }).notNull(),
    billedDirection: text("billed_direction", { enum: BILLED_DIRECTIONS }).notNull().default("max"),
    groupMode: text("group_mode", { enum: GROUP_MODES }).notNull().default("aggregate"),
    /** Max 95th: the commit in Mbit/s (10^6 bit/s), its price per Mbit/s and month, and the price per Mbit/s above it. */
    commitMbps: numeric("commit_mbps", { precision: 14, scale: 3, mode: "number" }).notNull().default(0),
    commitPriceEur: numeric("commit_price_eur", { precision: 14, scale: 4, mode: "number" }).notNull().default(0),
    burstPriceEur: numeric("burst_price_eur", { precision: 14, scale: 4, mode: "number" }).notNull().default(0),
    /** Flatrate: the fixed price per month. */
    flatPriceEur: numeric("flat_price_eur", { precision: 14, scale: 2, mode: "number" }).notNull().default(0),
    portFeeEur: numeric("port_fee_eur", { precision: 14, scale: 2, mode: "number" }).notNull().default(0),
    crossConnectFeeEur: numeric("cross_connect_fee_eur", { precision: 14, scale: 2, mode: "number" }).notNull().default(0),
    minimumFeeEur: numeric("minimum_fee_eur", { precision: 14, scale: 2, mode: "number" }).notNull().default(0),
    currency: text("currency", { enum: ["EUR"] })
      .notNull()
      .default("EUR"),
    /** First and last day of validity (inclusive, in the billing timezone); validTo null: open-ended. */
    validFrom: date("valid_from", { mode: "string" }).notNull(),
    validTo: date("valid_to", { mode: "string" }),
    timezone: text("timezone").notNull().default("UTC"),
    notes: text("notes").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("contracts_valid_dates_ck", sql`${t.validTo} IS NULL OR ${t.validTo} >= ${t.validFrom}`),
    index("contracts_partner_idx").on(t.partnerAsn),
  ],
);

/** The interfaces of a contract's billing group; an interface belongs to at most one contract. */
export const contractInterfaces = pgTable(
  "contract_interfaces",
  {
    contractId: integer("contract_id")
      .notNull()
      .references(() => contracts.id, { onDelete: "cascade" }),
    interfaceId: integer("interface_id")
      .notNull()
      .unique()
      .references(() => interfaces.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.contractId, t.interfaceId] })],
);

/**
 * A closed month of Revenues & Costs (docs/revenues-and-costs.md "Closed months"): closed at the start
 * of the next month (or when first read after it), its bills frozen in bill_snapshots; recomputed only
 * on purpose by staff (audited, bill.recompute).
 */
export const billMonths = pgTable(
  "bill_months",
  {
    year: integer("year").notNull(),
    month: integer("month").notNull(),
    closedAt: timestamp("closed_at", { withTimezone: true }).notNull().defaultNow(),
    /** The last recompute on purpose (null: as closed) and who asked for it (the audit log keeps each). */
    recomputedAt: timestamp("recomputed_at", { withTimezone: true }),
    recomputedBy: text("recomputed_by"),
  },
  (t) => [primaryKey({ columns: [t.year, t.month] }), check("bill_months_month_ck", sql`${t.month} BETWEEN 1 AND 12`)],
);

/**
 * One contract's bill of a closed month with its inputs: the contract's terms and billing group as they
 * were (`terms`) and the bill computed from them and the month's samples (`bill`: traffic figures and
 * charges). No foreign key to contracts: a bill stays when its contract is deleted later.
 */
export const billSnapshots = pgTable(
  "bill_snapshots",
  {
    year: integer("year").notNull(),
    month: integer("month").notNull(),
    contractId: integer("contract_id").notNull(),
    contractName: text("contract_name").notNull(),
    direction: text("direction", { enum: CONTRACT_DIRECTIONS }).notNull(),
    totalEur: numeric("total_eur", { precision: 16, scale: 2, mode: "number" }).notNull(),
    terms: jsonb("terms").notNull(),
    bill: jsonb("bill").notNull(),
  },
  (t) => [primaryKey({ columns: [t.year, t.month, t.contractId] })],
);
