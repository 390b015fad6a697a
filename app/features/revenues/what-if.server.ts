/**
 * The what-if of Revenues & Costs (docs/revenues-and-costs.md "What-if") on the stores: a share of one AS's
 * traffic moved, interval by interval, from one contract's billing group to another's in a month, and both
 * billed again on the moved 5-minute series (what-if.ts). The groups' series are the bills' own samples
 * (interface_util_5m, the planners' source rule); the AS's part of them is its flows_5m bytes on the
 * group's ports.
 */
import { z } from "zod";
import { chQuery } from "~/server/clickhouse/query.server";
import type { Services } from "~/server/services.server";
import { billingWindow, SAMPLE_SECONDS } from "./bill";
import type { ContractView } from "./contracts.server";
import { asTrafficQuery, portSamplesQuery, trackedAsQuery } from "./sql";
import { billOnSeries, moveTraffic, type Series } from "./what-if";

export type WhatIfAsk = { asn: number; fromId: number; toId: number; share: number };
/** The form's fields as typed (URL whatIfAs, whatIfFrom, whatIfTo, whatIfShare). */
export type WhatIfFields = { as: string; from: string; to: string; share: string };
export type WhatIfParse = { fields: WhatIfFields; ask: WhatIfAsk | null; errors: Record<string, string> };

export const WHAT_IF_PARAMS = { as: "whatIfAs", from: "whatIfFrom", to: "whatIfTo", share: "whatIfShare" } as const;

/** The what-if asked in the URL: null when not asked (no whatIfAs), else its fields, the checked ask or the errors by field. */
export function parseWhatIf(url: URL): WhatIfParse | null {
  if (!url.searchParams.has(WHAT_IF_PARAMS.as)) return null;
  const get = (k: keyof WhatIfFields) => (url.searchParams.get(WHAT_IF_PARAMS[k]) ?? "").trim().slice(0, 40);
  const fields: WhatIfFields = { as: get("as"), from: get("from"), to: get("to"), share: get("share") || "100" };
  const errors: Record<string, string> = {};
  const asMatch = /^(?:AS)?(\d{1,10})$/i.exec(fields.as);
  const asn = asMatch ? Number(asMatch[1]) : NaN;
  if (!(asn >= 1 && asn <= 4294967295)) errors.as = "The AS is a number such as 2906 or AS2906.";
  const id = (text: string) => (/^\d{1,9}$/.test(text) && Number(text) > 0 ? Number(text) : null);
  const fromId = id(fields.from);
  const toId = id(fields.to);
  if (fromId === null) errors.from = "Choose the contract the traffic leaves.";
  if (toId === null) errors.to = "Choose the contract the traffic moves to.";
  else if (toId === fromId) errors.to = "The traffic moves to another contract than the one it leaves.";
  const share = /^\d{1,3}(\.\d{1,2})?$/.test(fields.share) ? Number(fields.share) : NaN;
  if (!(share > 0 && share <= 100)) errors.share = "The share moved is a percentage above 0 and at most 100.";
  return {
    fields,
    errors,
    ask: Object.keys(errors).length ? null : { asn, fromId: fromId!, toId: toId!, share: share / 100 },
  };
}

export type WhatIfSide = {
  contractId: number;
  contract: string;
  direction: ContractView["direction"];
  before: { billedBps: number | null; totalEur: number };
  after: { billedBps: number | null; totalEur: number };
};
export type WhatIfResult = {
  asn: number;
  share: number;
  /** The AS's mean rate on the group it leaves over the month's window, bit/s (in + out), and what moved of it. */
  asMeanBps: number;
  movedMeanBps: number;
  sides: [WhatIfSide, WhatIfSide];
  /** The margin's change: revenue after − before, less cost after − before, of both bills. */
  marginChangeEur: number;
  notices: string[];
};

export class WhatIfError extends Error {
  constructor(
    readonly field: keyof WhatIfFields,
    message: string,
  ) {
    super(message);
    this.name = "WhatIfError";
  }
}

const Sample = z.object({ port: z.string(), t: z.coerce.number(), in_b: z.coerce.number(), out_b: z.coerce.number() });
const AsRow = z.object({ t: z.coerce.number(), in_b: z.coerce.number(), out_b: z.coerce.number() });

type Group = { contract: ContractView; window: NonNullable<ReturnType<typeof billingWindow>>; series: Series };

/** A billing group's summed 5-minute series over the contract's window of the month. */
async function groupOf(services: Pick<Services, "ch">, contract: ContractView, year: number, month: number, field: "from" | "to") {
  const window = billingWindow(contract, year, month);
  if (!window) throw new WhatIfError(field, `The contract ${contract.name} is not valid in this month.`);
  const ports = contract.ports.map((p) => ({ router: p.router, interface: p.interface }));
  if (!ports.length) throw new WhatIfError(field, `The contract ${contract.name} has no interface left in its billing group.`);
  const rows = await chQuery(services.ch, {
    ...portSamplesQuery(ports, { start: window.activeStart, end: window.activeEnd }),
    schema: Sample,
  });
  const series = new Map<number, { inBytes: number; outBytes: number }>();
  for (const r of rows) {
    const v = series.get(r.t) ?? { inBytes: 0, outBytes: 0 };
    v.inBytes += r.in_b;
    v.outBytes += r.out_b;
    series.set(r.t, v);
  }
  return { contract, window, series } satisfies Group;
}

/** Both bills before and after moving the share of the AS's traffic; WhatIfError names the field at fault. */
export async function whatIfOfMonth(
  services: Pick<Services, "ch">,
  contracts: readonly ContractView[],
  year: number,
  month: number,
  ask: WhatIfAsk,
): Promise<WhatIfResult> {
  const find = (id: number, field: "from" | "to") => {
    const c = contracts.find((x) => x.id === id);
    if (!c) throw new WhatIfError(field, "No contract has this id.");
    return c;
  };
  const fromContract = find(ask.fromId, "from");
  const toContract = find(ask.toId, "to");
  const tracked = await chQuery(services.ch, { ...trackedAsQuery([ask.asn]), schema: z.object({ asn: z.coerce.number() }) });
  if (!tracked.length)
    throw new WhatIfError(
      "as",
      `AS${ask.asn} is outside the tracked set: the flows keep its traffic in Others, so it cannot be moved on its own.`,
    );
  const from = await groupOf(services, fromContract, year, month, "from");
  const to = await groupOf(services, toContract, year, month, "to");
  const ports = fromContract.ports.map((p) => ({ router: p.router, interface: p.interface }));
  const asRows = await chQuery(services.ch, {
    ...asTrafficQuery(ports, { start: from.window.activeStart, end: from.window.activeEnd }, ask.asn),
    schema: AsRow,
  });
  const asTraffic: Series = new Map(asRows.map((r) => [r.t, { inBytes: r.in_b, outBytes: r.out_b }]));
  const moved = moveTraffic(from.series, to.series, asTraffic, ask.share);
  const side = (g: Group, after: Series): WhatIfSide => {
    const before = billOnSeries(g.series, g.contract, g.window);
    const then = billOnSeries(after, g.contract, g.window);
    return {
      contractId: g.contract.id,
      contract: g.contract.name,
      direction: g.contract.direction,
      before: { billedBps: before.traffic.billedBps, totalEur: before.charges.totalEur },
      after: { billedBps: then.traffic.billedBps, totalEur: then.charges.totalEur },
    };
  };
  const sides: [WhatIfSide, WhatIfSide] = [side(from, moved.from), side(to, moved.to)];
  const intervals = Math.max(1, Math.round((from.window.activeEnd - from.window.activeStart) / SAMPLE_SECONDS));
  const asBytes = asRows.reduce((a, r) => a + r.in_b + r.out_b, 0);
  const rate = (bytes: number) => (bytes * 8) / SAMPLE_SECONDS / intervals;
  const movedBytes = [...moved.to].reduce(
    (a, [t, v]) => a + v.inBytes + v.outBytes - ((to.series.get(t)?.inBytes ?? 0) + (to.series.get(t)?.outBytes ?? 0)),
    0,
  );
  const notices: string[] = [];
  if (asBytes === 0) notices.push(`AS${ask.asn} has no traffic on the ports of ${fromContract.name} in this month: nothing moves.`);
  for (const c of [fromContract, toContract])
    if (c.groupMode === "per_port")
      notices.push(`${c.name} bills each port's 95th; the what-if bills its ports as one summed series, before and after.`);
  const change = sides.reduce((a, s) => a + (s.direction === "revenue" ? 1 : -1) * (s.after.totalEur - s.before.totalEur), 0);
  return {
    asn: ask.asn,
    share: ask.share,
    asMeanBps: rate(asBytes),
    movedMeanBps: rate(movedBytes),
    sides,
    marginChangeEur: Math.round(change * 100) / 100,
    notices,
  };
}
