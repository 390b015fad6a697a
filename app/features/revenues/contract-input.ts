/**
 * A contract as people and the CSV import give it (docs/revenues-and-costs.md): the checked form of
 * every field, with one message per field people read. Isomorphic: the edit form, the import and
 * the store share it.
 */
import { z } from "zod";

export const CONTRACT_DIRECTIONS = ["cost", "revenue"] as const;
export const BILLING_METHODS = ["Flatrate", "free", "Max 95th"] as const;
export const BILLED_DIRECTIONS = ["max", "in", "out", "sum"] as const;
export const GROUP_MODES = ["aggregate", "per_port"] as const;

export type ContractDirection = (typeof CONTRACT_DIRECTIONS)[number];
export type BillingMethod = (typeof BILLING_METHODS)[number];
export type BilledDirection = (typeof BILLED_DIRECTIONS)[number];
export type GroupMode = (typeof GROUP_MODES)[number];

/** Labels people read. */
export const DIRECTION_LABELS: Record<ContractDirection, string> = { cost: "Cost (we pay)", revenue: "Revenue (the customer pays us)" };
export const BILLED_DIRECTION_LABELS: Record<BilledDirection, string> = {
  max: "Higher of in and out",
  in: "In",
  out: "Out",
  sum: "Sum of in and out",
};
export const GROUP_MODE_LABELS: Record<GroupMode, string> = {
  aggregate: "95th of the summed ports",
  per_port: "Sum of each port's 95th",
};

export const CONTRACT_NAME_MAX = 120;
export const CONTRACT_NOTES_MAX = 2000;
/** Upper bound of every amount and of the commit: a typing error, not a contract. */
export const AMOUNT_MAX = 1e9;

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
function isRealDate(s: string): boolean {
  if (!DATE_RE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}
function isTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const amount = (what: string) =>
  z
    .number({ message: `${what} must be a number.` })
    .finite(`${what} must be a number.`)
    .min(0, `${what} cannot be negative.`)
    .max(AMOUNT_MAX, `${what} is at most ${AMOUNT_MAX.toLocaleString("en")}.`);

export const contractInputSchema = z
  .object({
    name: z
      .string({ message: "Enter the contract's name." })
      .trim()
      .min(1, "Enter the contract's name.")
      .max(CONTRACT_NAME_MAX, `A name has at most ${CONTRACT_NAME_MAX} characters.`)
      .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "A name is one line of text, without control characters."),
    direction: z.enum(CONTRACT_DIRECTIONS, { message: "Direction is cost or revenue." }),
    partnerAsn: z
      .number({ message: "The partner AS is a number." })
      .int("The partner AS is a whole number.")
      .min(1, "The partner AS is between 1 and 4294967295.")
      .max(4294967295, "The partner AS is between 1 and 4294967295.")
      .nullable()
      .default(null),
    method: z.enum(BILLING_METHODS, { message: "Method is Flatrate, free or Max 95th." }),
    billedDirection: z.enum(BILLED_DIRECTIONS, { message: "The billed direction is max, in, out or sum." }).default("max"),
    groupMode: z.enum(GROUP_MODES, { message: "The billing group mode is aggregate or per_port." }).default("aggregate"),
    commitMbps: amount("The commit").default(0),
    commitPriceEur: amount("The commit price").default(0),
    burstPriceEur: amount("The burst price").default(0),
    flatPriceEur: amount("The flat price").default(0),
    portFeeEur: amount("The port fee").default(0),
    crossConnectFeeEur: amount("The cross-connect fee").default(0),
    minimumFeeEur: amount("The minimum fee").default(0),
    currency: z.literal("EUR", { message: "The currency is EUR." }).default("EUR"),
    validFrom: z
      .string({ message: "Enter the first day of validity (YYYY-MM-DD)." })
      .refine(isRealDate, "The first day of validity is a date YYYY-MM-DD."),
    validTo: z
      .string()
      .refine(isRealDate, "The last day of validity is a date YYYY-MM-DD (or empty: open-ended).")
      .nullable()
      .default(null),
    timezone: z.string().refine(isTimezone, "The billing timezone is an IANA name such as UTC or Europe/Berlin.").default("UTC"),
    notes: z.string().max(CONTRACT_NOTES_MAX, `Notes have at most ${CONTRACT_NOTES_MAX} characters.`).default(""),
    interfaceIds: z
      .array(z.number().int().positive(), { message: "The billing group is a list of interface ids." })
      .min(1, "Choose at least one interface for the billing group.")
      .max(64, "A billing group has at most 64 interfaces."),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.validTo !== null && c.validTo < c.validFrom)
      ctx.addIssue({ code: "custom", path: ["validTo"], message: "The last day of validity cannot be before the first." });
    if (c.method === "Max 95th" && c.commitMbps > 0 && c.commitPriceEur === 0 && c.burstPriceEur === 0)
      ctx.addIssue({ code: "custom", path: ["commitPriceEur"], message: "A Max 95th contract with a commit has a commit or burst price." });
    if (new Set(c.interfaceIds).size !== c.interfaceIds.length)
      ctx.addIssue({ code: "custom", path: ["interfaceIds"], message: "An interface is listed twice in the billing group." });
  });

export type ContractInput = z.input<typeof contractInputSchema>;
export type CheckedContract = z.output<typeof contractInputSchema>;

/** The input checked, or the messages by field ("" for the whole input). */
export function parseContractInput(
  input: unknown,
): { ok: true; contract: CheckedContract } | { ok: false; errors: Record<string, string> } {
  const parsed = contractInputSchema.safeParse(input);
  if (parsed.success) return { ok: true, contract: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.length ? String(issue.path[0]) : "";
    errors[field] ??=
      issue.code === "unrecognized_keys" ? `Unknown field: ${(issue as { keys: string[] }).keys.join(", ")}.` : issue.message;
  }
  return { ok: false, errors };
}
