/**
 * The pure part of the flow-derived interface utilisation: which intervals a run writes (runRange)
 * and the rows made from the bytes each router exported (flowUtilRows), on hand-computed values; when
 * the background task runs, and that FLOWS_UTIL=off keeps it from starting.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { flowUtilTask, nextBoundaryDelay } from "~/features/collector/flow-util/flow-util.server";
import { flowUtilRows, runRange } from "~/features/collector/flow-util/rows";
import type { Services } from "~/server/services.server";

const DAY = 86_400;
const T = 1_800_000_000; // a multiple of 300
const base = { lateMarginSeconds: 1800, backfillSeconds: 35 * DAY, maxSeconds: DAY, demoEnd: null };

describe("runRange", () => {
  it("starts the first run at the backfill limit, at most a day of intervals", () => {
    expect(runRange({ ...base, now: T + 90, watermark: null })).toEqual({ from: T - 35 * DAY, to: T - 34 * DAY });
  });

  it("rewrites from the watermark less the margin to the last closed interval", () => {
    expect(runRange({ ...base, now: T + 299, watermark: T - 600 })).toEqual({ from: T - 2400, to: T });
  });

  it("never starts before the backfill limit, however old the watermark", () => {
    expect(runRange({ ...base, now: T, watermark: T - 100 * DAY })).toEqual({ from: T - 35 * DAY, to: T - 34 * DAY });
  });

  it("never writes before the end of the demo's history", () => {
    expect(runRange({ ...base, now: T + 10, watermark: null, demoEnd: T - 900 })).toEqual({ from: T - 900, to: T });
    // Loaded just now: nothing closed after it yet.
    expect(runRange({ ...base, now: T + 10, watermark: null, demoEnd: T })).toEqual({ from: T, to: T });
  });
});

describe("flowUtilRows", () => {
  const inventory = [
    {
      name: "r1",
      interfaces: [
        { name: "ext", kind: "external", neighbour_as: 3356, capacity: 10e9 },
        { name: "core", kind: "core", neighbour_as: null, capacity: 100e9 },
      ],
    },
    { name: "r2", interfaces: [{ name: "acc", kind: "access", neighbour_as: null, capacity: 1e9 }] },
  ];

  it("gives every inventory interface of a router that exported, 0 where nothing named it; skips what the inventory lacks", () => {
    const rows = flowUtilRows(
      [
        { time: T, router: "r1", interface: "ext", inBytes: 1000, outBytes: 0 },
        { time: T, router: "r1", interface: "ext", inBytes: 0, outBytes: 250 },
        { time: T, router: "r1", interface: "", inBytes: 77, outBytes: 0 },
        { time: T, router: "r1", interface: "gone", inBytes: 5, outBytes: 5 },
        { time: T, router: "unknown", interface: "ext", inBytes: 9, outBytes: 9 },
        { time: T + 300, router: "r2", interface: "", inBytes: 1, outBytes: 0 },
      ],
      inventory,
    );
    const common = { source: "flows", interpolated: 0 };
    expect(rows).toEqual([
      {
        time: T,
        router: "r1",
        interface: "core",
        kind: "core",
        neighbor_asn: 0,
        in_bytes: 0,
        out_bytes: 0,
        capacity_bps: 100e9,
        ...common,
      },
      {
        time: T,
        router: "r1",
        interface: "ext",
        kind: "external",
        neighbor_asn: 3356,
        in_bytes: 1000,
        out_bytes: 250,
        capacity_bps: 10e9,
        ...common,
      },
      {
        time: T + 300,
        router: "r2",
        interface: "acc",
        kind: "access",
        neighbor_asn: 0,
        in_bytes: 0,
        out_bytes: 0,
        capacity_bps: 1e9,
        ...common,
      },
    ]);
  });
});

describe("flowUtilTask", () => {
  const services = (FLOWS_UTIL: "on" | "off") => ({ config: { FLOWS_UTIL } }) as unknown as Services;

  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs a minute after each 5-minute boundary", () => {
    expect(nextBoundaryDelay(T * 1000)).toBe(360_000);
    expect(nextBoundaryDelay(T * 1000 + 59_000)).toBe(301_000);
    expect(nextBoundaryDelay(T * 1000 + 299_999)).toBe(60_001);
  });

  it("with FLOWS_UTIL=off starts nothing; on, waits for its first run and stops cleanly", async () => {
    vi.useFakeTimers();
    flowUtilTask.start(services("off"));
    expect(vi.getTimerCount()).toBe(0);
    flowUtilTask.start(services("on"));
    flowUtilTask.start(services("on")); // started once only
    expect(vi.getTimerCount()).toBe(1);
    await flowUtilTask.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});
