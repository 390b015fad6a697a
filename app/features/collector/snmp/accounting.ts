/**
 * Interface counters → bytes per 5-minute interval, pure (no I/O, no clock): what the SNMP poller
 * does with two consecutive readings of an interface's ifHCInOctets/ifHCOutOctets.
 *
 * - **Difference** of two readings of a 64-bit counter: `next − prev`, or `next + 2^64 − prev`
 *   when the counter went round (a wrap). A difference that would mean more than twice the
 *   interface's speed is a discontinuity (the counter was reset or replaced), not traffic.
 * - **Restart**: when sysUpTime went back (the device or its agent restarted, counters start
 *   again from 0) the poll gives no difference. sysUpTime is a 32-bit count of hundredths of a
 *   second that goes round after 497 days: a value that went back only because the time that passed
 *   carried it past 2^32 is not a restart.
 * - **Apportioning**: the difference covers the time between the two readings; each 5-minute
 *   interval it overlaps gets the share of the bytes its overlap is of that time (exact integer
 *   shares that add up to the difference). A poll that comes late or early is split this way.
 * - **Missed polls**: a difference over more than 1.5 poll intervals is spread the same way (evenly
 *   in time over the intervals it covers) and marked interpolated when it covers at most
 *   `maxInterpolatedIntervals` intervals (the covered time in intervals, rounded); over a longer
 *   time it is dropped and those intervals stay empty. No value is ever invented.
 * - **Merging**: the contributions of several polls to one interval are added up in memory
 *   (`IntervalMerger`) and the interval is written once, when polls cover all of it; the table
 *   replaces rows by key, so writing a part would lose the other. An interval that polls do not
 *   cover entirely (a restart, a dropped gap, the first poll) is not written.
 */

export const COUNTER64_MODULO = 1n << 64n;
/** sysUpTime (TimeTicks, hundredths of a second) goes round at 2^32. */
export const UPTIME_MODULO = 2 ** 32;
/** The rows' grid: interface_util_5m holds 5-minute intervals. */
export const GRID_MS = 300_000;
/** How far sysUpTime may differ from the time that passed when deciding a 2^32 round (hundredths of a second). */
const UPTIME_TOLERANCE_TICKS = 6_000;
/** A difference faster than this many times the interface's speed is a discontinuity. */
export const SPEED_LIMIT_FACTOR = 2;
/** Beyond this many poll intervals between two readings, polls were missed. */
export const LATE_POLL_FACTOR = 1.5;

export type CounterSample = {
  /** When the reading was taken, ms since the epoch (the poller's clock). */
  atMs: number;
  /** sysUpTime in hundredths of a second. */
  uptime: number;
  inOctets: bigint;
  outOctets: bigint;
};

export type AccountingOptions = {
  /** How often the interface is polled, ms (a divisor of the grid). */
  pollIntervalMs: number;
  /** Missed polls: a difference covering at most this many intervals is spread and marked interpolated. */
  maxInterpolatedIntervals: number;
  /** The interface's speed in bit/s (0 or absent: unknown, no check). */
  speedBps?: number;
  /** The rows' interval, ms; GRID_MS unless a test says otherwise. */
  gridMs?: number;
};

/** A share of one difference for one interval. */
export type Contribution = {
  /** Interval start, ms since the epoch. */
  start: number;
  inBytes: bigint;
  outBytes: bigint;
  /** How much of the interval this share covers, ms. */
  coveredMs: number;
  interpolated: boolean;
};

export type Difference =
  | { kind: "counted"; inBytes: bigint; outBytes: bigint; interpolated: boolean; contributions: Contribution[] }
  /** restart: sysUpTime went back; gap: polls missed over more intervals than may be interpolated; discontinuity: faster than the interface can carry; stale: not newer than the previous reading. */
  | { kind: "restart" | "gap" | "discontinuity" | "stale"; contributions: [] };

/** `next − prev` of a 64-bit counter, across one wrap. */
export function counterDelta(prev: bigint, next: bigint): bigint {
  return next >= prev ? next - prev : next + COUNTER64_MODULO - prev;
}

/** sysUpTime went back between two readings `elapsedMs` apart, other than by going round 2^32. */
export function restarted(prevUptime: number, nextUptime: number, elapsedMs: number): boolean {
  if (nextUptime >= prevUptime) return false;
  const expected = prevUptime + elapsedMs / 10;
  // Went round: the time that passed carried the count past 2^32 and it is where that time put it.
  return !(expected >= UPTIME_MODULO - UPTIME_TOLERANCE_TICKS && Math.abs(expected - UPTIME_MODULO - nextUptime) <= UPTIME_TOLERANCE_TICKS);
}

const floorDiv = (a: bigint, b: bigint) => a / b; // both non-negative

/**
 * Splits `bytes` over the grid intervals that [fromMs, toMs) overlaps, by time: the interval k gets
 * floor(bytes × end_k / span) − floor(bytes × start_k / span) with start_k/end_k its overlap's
 * offsets from `fromMs`, so the shares add up to `bytes` exactly.
 */
export function apportion(
  fromMs: number,
  toMs: number,
  bytes: bigint,
  gridMs = GRID_MS,
): { start: number; bytes: bigint; coveredMs: number }[] {
  const span = toMs - fromMs;
  if (!(span > 0)) throw new Error("apportion: the span must be positive");
  const shares: { start: number; bytes: bigint; coveredMs: number }[] = [];
  const bigSpan = BigInt(span);
  let start = Math.floor(fromMs / gridMs) * gridMs;
  let before = 0n;
  for (; start < toMs; start += gridMs) {
    const overlapEnd = Math.min(toMs, start + gridMs) - fromMs;
    const cumulative = floorDiv(bytes * BigInt(overlapEnd), bigSpan);
    shares.push({ start, bytes: cumulative - before, coveredMs: Math.min(toMs, start + gridMs) - Math.max(fromMs, start) });
    before = cumulative;
  }
  return shares;
}

/** What two consecutive readings of an interface give. */
export function difference(prev: CounterSample, next: CounterSample, options: AccountingOptions): Difference {
  const gridMs = options.gridMs ?? GRID_MS;
  const spanMs = next.atMs - prev.atMs;
  if (!(spanMs > 0)) return { kind: "stale", contributions: [] };
  if (restarted(prev.uptime, next.uptime, spanMs)) return { kind: "restart", contributions: [] };
  const inBytes = counterDelta(prev.inOctets, next.inOctets);
  const outBytes = counterDelta(prev.outOctets, next.outOctets);
  const speed = options.speedBps ?? 0;
  if (speed > 0) {
    const limit = BigInt(Math.ceil((speed * SPEED_LIMIT_FACTOR * spanMs) / 8_000));
    if (inBytes > limit || outBytes > limit) return { kind: "discontinuity", contributions: [] };
  }
  const missed = spanMs > options.pollIntervalMs * LATE_POLL_FACTOR;
  if (missed && Math.max(1, Math.round(spanMs / gridMs)) > options.maxInterpolatedIntervals) return { kind: "gap", contributions: [] };
  const ins = apportion(prev.atMs, next.atMs, inBytes, gridMs);
  const outs = apportion(prev.atMs, next.atMs, outBytes, gridMs);
  return {
    kind: "counted",
    inBytes,
    outBytes,
    interpolated: missed,
    contributions: ins.map((share, i) => ({
      start: share.start,
      inBytes: share.bytes,
      outBytes: outs[i].bytes,
      coveredMs: share.coveredMs,
      interpolated: missed,
    })),
  };
}

export type IntervalRow = { start: number; inBytes: bigint; outBytes: bigint; interpolated: boolean };

/** The merger's state as plain JSON (bytes as decimal strings), to keep it across restarts. */
export type OpenIntervalJson = { start: number; in: string; out: string; covered: number; interpolated: boolean };

/**
 * The intervals of one interface that polls have covered only in part so far. `add` sums the
 * contributions per interval; `take(front)` hands back, and forgets, every interval that ends at or
 * before `front` (the newest reading: no later poll can add to them): complete ones as rows,
 * the others counted as incomplete (not written).
 */
export class IntervalMerger {
  private open = new Map<number, { inBytes: bigint; outBytes: bigint; coveredMs: number; interpolated: boolean }>();

  constructor(
    private readonly gridMs = GRID_MS,
    state: OpenIntervalJson[] = [],
  ) {
    for (const s of state)
      this.open.set(s.start, { inBytes: BigInt(s.in), outBytes: BigInt(s.out), coveredMs: s.covered, interpolated: s.interpolated });
  }

  add(contributions: readonly Contribution[]): void {
    for (const c of contributions) {
      const entry = this.open.get(c.start) ?? { inBytes: 0n, outBytes: 0n, coveredMs: 0, interpolated: false };
      entry.inBytes += c.inBytes;
      entry.outBytes += c.outBytes;
      entry.coveredMs += c.coveredMs;
      entry.interpolated ||= c.interpolated;
      this.open.set(c.start, entry);
    }
  }

  take(frontMs: number): { rows: IntervalRow[]; incomplete: number } {
    const rows: IntervalRow[] = [];
    let incomplete = 0;
    for (const [start, entry] of [...this.open].sort((a, b) => a[0] - b[0])) {
      if (start + this.gridMs > frontMs) continue;
      this.open.delete(start);
      if (entry.coveredMs >= this.gridMs)
        rows.push({ start, inBytes: entry.inBytes, outBytes: entry.outBytes, interpolated: entry.interpolated });
      else incomplete += 1;
    }
    return { rows, incomplete };
  }

  toJSON(): OpenIntervalJson[] {
    return [...this.open].map(([start, e]) => ({
      start,
      in: e.inBytes.toString(),
      out: e.outBytes.toString(),
      covered: e.coveredMs,
      interpolated: e.interpolated,
    }));
  }
}

/** One interface's accounting between polls: its previous reading and its open intervals. */
export type InterfaceAccountJson = {
  /** The reading, bytes as decimal strings; null before the first. */
  last: { at: number; uptime: number; in: string; out: string; ifIndex: number; ifName: string } | null;
  open: OpenIntervalJson[];
};

export type Reading = CounterSample & {
  /** Where the counters were read: a different ifIndex or ifName than last time is another counter. */
  ifIndex: number;
  ifName: string;
};

export type ObserveResult = { kind: Difference["kind"] | "first" | "moved"; rows: IntervalRow[]; incomplete: number };

/**
 * Feeds one reading of an interface: the difference from the previous one (none for the first, or
 * when the counters were read from another ifIndex or ifName), merged, and the intervals now final.
 */
export function observe(
  account: InterfaceAccountJson,
  reading: Reading,
  options: AccountingOptions,
): { account: InterfaceAccountJson; result: ObserveResult } {
  const gridMs = options.gridMs ?? GRID_MS;
  const merger = new IntervalMerger(gridMs, account.open);
  const last = account.last;
  let kind: ObserveResult["kind"];
  if (!last) kind = "first";
  else if (last.ifIndex !== reading.ifIndex || last.ifName !== reading.ifName) kind = "moved";
  else {
    const prev: CounterSample = { atMs: last.at, uptime: last.uptime, inOctets: BigInt(last.in), outOctets: BigInt(last.out) };
    const diff = difference(prev, reading, options);
    kind = diff.kind;
    if (diff.kind === "stale") return { account, result: { kind, rows: [], incomplete: 0 } };
    merger.add(diff.contributions);
  }
  const { rows, incomplete } = merger.take(reading.atMs);
  return {
    account: {
      last: {
        at: reading.atMs,
        uptime: reading.uptime,
        in: reading.inOctets.toString(),
        out: reading.outOctets.toString(),
        ifIndex: reading.ifIndex,
        ifName: reading.ifName,
      },
      open: merger.toJSON(),
    },
    result: { kind, rows, incomplete },
  };
}
