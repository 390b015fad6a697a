import { describe, expect, it } from "vitest";
import {
  eventsOfResponse,
  initialRunState,
  runReducer,
  statusLabel,
  statusName,
  type RunEvent,
  type RunState,
} from "~/features/lookingglass/status";
import { MESSAGES } from "~/lib/messages";

type Row = { id: number };
const run = (events: RunEvent<Row>[], from: RunState<Row> = initialRunState<Row>()) => events.reduce(runReducer<Row>, from);

describe("Looking Glass request status", () => {
  it("starts Pending and completes with data", () => {
    const s = run([{ type: "start" }, { type: "result", vantagePoint: "A", rows: [{ id: 1 }] }, { type: "finish" }]);
    expect(s.status).toBe("COMPLETED");
    expect(s.notices).toEqual([]);
  });

  it("ends NoData with an error notice when every answer is empty", () => {
    const s = run([{ type: "start" }, { type: "result", vantagePoint: "A", rows: [] }, { type: "finish" }]);
    expect(s.status).toBe("NO_DATA");
    expect(s.notices).toEqual([{ kind: "error", message: "No data found for search at A. Try with other parameters." }]);
    expect(run([{ type: "start" }, { type: "finish" }]).notices).toEqual([{ kind: "error", message: MESSAGES.noDataForSearch }]);
  });

  it("says once that none of the selected vantage points had data when all of them had none", () => {
    const names = ["fra-er1 Frankfurt, Germany", "ams-er1 Amsterdam, Netherlands", "vie-er1 Vienna, Austria"];
    const s = run([{ type: "start" }, ...names.map((vantagePoint) => ({ type: "notFound" as const, vantagePoint })), { type: "finish" }]);
    expect(s.status).toBe("NO_DATA");
    expect(s.notices).toEqual([
      { kind: "error", message: "None of the selected vantage points has data for this search. Try with other parameters." },
    ]);
  });

  it("adds a 'no data' entry per 404 and one warning per run; Completed when an earlier vantage point had data", () => {
    const s = run([
      { type: "start" },
      { type: "result", vantagePoint: "A", rows: [{ id: 1 }] },
      { type: "notFound", vantagePoint: "B" },
      { type: "notFound", vantagePoint: "C" },
      { type: "finish" },
    ]);
    expect(s.status).toBe("COMPLETED");
    expect(s.outcomes).toEqual([
      { vantagePoint: "A", rows: [{ id: 1 }] },
      { vantagePoint: "B", noData: true },
      { vantagePoint: "C", noData: true },
    ]);
    // One warning naming every vantage point without data, not only the first.
    expect(s.notices).toEqual([{ kind: "warning", message: "No data found for search at B and C." }]);
    const none = run([{ type: "start" }, { type: "notFound", vantagePoint: "B" }, { type: "finish" }]);
    expect(none.status).toBe("NO_DATA");
    // A new run warns again.
    expect(run([{ type: "start" }, { type: "notFound", vantagePoint: "C" }, { type: "finish" }], none).notices).toHaveLength(1);
  });

  it("aborts on other errors, on abort, and fails when a job cannot be created", () => {
    expect(run([{ type: "start" }, { type: "error", message: "boom" }]).status).toBe("ABORTED");
    expect(run([{ type: "start" }, { type: "abort" }]).status).toBe("ABORTED");
    expect(run([{ type: "abort" }]).status).toBe("IDLE");
    expect(run([{ type: "start" }, { type: "jobFailed", message: "no" }]).status).toBe("FAILED");
    expect(run([{ type: "start" }, { type: "commandsDone" }]).status).toBe("COMPLETED");
  });

  it("sets BACKEND_ERROR with the offline message, which a change of type does not clear", () => {
    const s = run([{ type: "backendError" }]);
    expect(s.status).toBe("BACKEND_ERROR");
    expect(s.notices[0].message).toBe(MESSAGES.lookingGlassOffline);
    expect(run([{ type: "reset" }], s).status).toBe("BACKEND_ERROR");
  });

  it("resets status and output when the query type changes", () => {
    const done = run([
      { type: "start" },
      { type: "result", vantagePoint: "A", rows: [{ id: 1 }] },
      { type: "finish", limit: { shown: 1, total: 5 } },
    ]);
    expect(run([{ type: "reset" }], done)).toEqual(initialRunState());
  });

  it("ignores answers of a run that is no longer pending", () => {
    const aborted = run([
      { type: "start" },
      { type: "abort" },
      { type: "result", vantagePoint: "A", rows: [{ id: 1 }] },
      { type: "finish" },
    ]);
    expect(aborted.status).toBe("ABORTED");
    expect(aborted.outcomes).toEqual([]);
  });

  it("names statuses per variant", () => {
    expect(statusName("NO_DATA", "private")).toBe("NoData");
    expect(statusName("NO_DATA", "public")).toBe("NO_DATA");
    expect(statusName("IDLE", "private")).toBe("Idle");
    expect(statusName("NO_RESPONSE", "public")).toBe("NO_RESPONSE");
    expect(statusName("NO_RESPONSE", "private")).toBe("Aborted");
  });

  it("shows words, not codes, in both variants", () => {
    expect(statusLabel("NO_DATA", "private")).toBe("No data");
    expect(statusLabel("NO_DATA", "public")).toBe("No data");
    expect(statusLabel("IDLE", "public")).toBe("Ready");
    expect(statusLabel("BACKEND_ERROR", "public")).toBe("Offline");
    expect(statusLabel("NO_RESPONSE", "private")).toBe("Aborted");
  });

  it("turns a response into events, with the banner only when both limit fields are present", () => {
    const response = { results: { fra1: [{ id: 1 }], fra2: "VantagePointWithNoData" }, results_limit: 1, results_maximum: 9 };
    const s = run([{ type: "start" }, ...eventsOfResponse<Row>(response, (k) => k.toUpperCase())]);
    expect(s.limit).toEqual({ shown: 1, total: 9 });
    expect(s.outcomes).toEqual([
      { vantagePoint: "FRA1", rows: [{ id: 1 }] },
      { vantagePoint: "FRA2", noData: true },
    ]);
    const partial = run([{ type: "start" }, ...eventsOfResponse<Row>({ ...response, results_maximum: null }, (k) => k)]);
    expect(partial.limit).toBeNull();
  });
});
