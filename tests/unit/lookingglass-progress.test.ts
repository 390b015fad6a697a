import { describe, expect, it } from "vitest";
import { progressTimeouts } from "~/features/lookingglass/page.server";
import {
  finishProgress,
  PROGRESS_CAP_PERCENT,
  PROGRESS_TICK_MS,
  PROGRESS_TIMEOUT_SECONDS,
  startProgress,
  stopProgress,
  tickProgress,
} from "~/features/lookingglass/progress";
import { LOCAL_TOOLS } from "~/features/netcommand/local.server";
import { SSH_TIMEOUT_MS } from "~/features/netcommand/ssh.server";

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

  it("a finished run fills the bar; an aborted run and one whose jobs could not be created reset it", () => {
    const p = tickProgress(tickProgress(startProgress(10)));
    expect(finishProgress(p, "COMPLETED").percent).toBe(100);
    expect(finishProgress(p, "NO_DATA").percent).toBe(100);
    expect(finishProgress(p, "ABORTED").percent).toBe(0);
    expect(finishProgress(p, "NO_RESPONSE").percent).toBe(0);
    expect(finishProgress(p, "FAILED").percent).toBe(0);
    expect(finishProgress(p, "FAILED").running).toBe(false);
  });

  it("paces itself by the server's time-out of the query type, not a fixed one", () => {
    const timeouts = progressTimeouts({ QUERY_MAX_EXECUTION_SECONDS: 42 });
    expect(timeouts).toEqual({
      AsPathQuery: 42,
      IpPrefixQuery: 42,
      PingQuery: Math.max(LOCAL_TOOLS.PingQuery.timeoutMs, SSH_TIMEOUT_MS) / 1000,
      TracerouteQuery: Math.max(LOCAL_TOOLS.TracerouteQuery.timeoutMs, SSH_TIMEOUT_MS) / 1000,
    });
    expect(startProgress(timeouts.AsPathQuery).stepPercent).toBeCloseTo(100 / 42);
    // A missing or broken time-out falls back to the default pace rather than a frozen or infinite bar.
    expect(startProgress(Number.NaN).stepPercent).toBeCloseTo(100 / PROGRESS_TIMEOUT_SECONDS);
    expect(startProgress(0).stepPercent).toBeCloseTo(100 / PROGRESS_TIMEOUT_SECONDS);
  });
});
