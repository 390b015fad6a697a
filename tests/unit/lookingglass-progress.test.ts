import { describe, expect, it } from "vitest";
import { PROGRESS_CAP_PERCENT, PROGRESS_TICK_MS, startProgress, stopProgress, tickProgress } from "~/features/lookingglass/progress";

describe("Looking Glass progress bar", () => {
  it("starts at 0 and ticks every 100 ms by 1/timeout of the bar, the step shrinking by 1 % per tick", () => {
    expect(PROGRESS_TICK_MS).toBe(100);
    const p0 = startProgress(20);
    expect(p0.percent).toBe(0);
    const p1 = tickProgress(p0);
    expect(p1.percent).toBeCloseTo(5);
    const p2 = tickProgress(p1);
    expect(p2.percent - p1.percent).toBeCloseTo(5 * 0.99);
    const p3 = tickProgress(p2);
    expect(p3.percent - p2.percent).toBeCloseTo(5 * 0.99 * 0.99);
  });

  it("never reaches 100 % while running", () => {
    let p = startProgress(1);
    for (let i = 0; i < 2000; i++) p = tickProgress(p);
    expect(p.percent).toBe(PROGRESS_CAP_PERCENT);
  });

  it("stops when the status leaves Pending; an abort resets it", () => {
    const p = tickProgress(tickProgress(startProgress(10)));
    const stopped = stopProgress(p);
    expect(tickProgress(stopped)).toEqual(stopped);
    expect(stopProgress(p, { reset: true }).percent).toBe(0);
  });
});
