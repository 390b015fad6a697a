/**
 * The Looking Glass request status (spec §4) as a pure reducer. One run is one submit: it starts
 * Pending and ends Completed, NoData, Aborted or Failed. The private screen shows the status by
 * its private name (Idle, Pending, …), the public one by its capitalised name (IDLE, PENDING, …),
 * which has three more: NO_RESPONSE (the server could not be reached), BACKEND_ERROR (the vantage
 * points could not be loaded) and USER_INACTIVE (the session behind the request expired).
 */
import { MESSAGES } from "~/lib/messages";

export const PRIVATE_STATUSES = ["Idle", "Pending", "Completed", "NoData", "Aborted", "Failed"] as const;
export type PrivateStatus = (typeof PRIVATE_STATUSES)[number];
export const PUBLIC_STATUSES = [
  "IDLE",
  "PENDING",
  "COMPLETED",
  "FAILED",
  "ABORTED",
  "NO_DATA",
  "NO_RESPONSE",
  "BACKEND_ERROR",
  "USER_INACTIVE",
] as const;
export type PublicStatus = (typeof PUBLIC_STATUSES)[number];

export type Variant = "public" | "private";

/** The status in the reducer: the public names, a superset of the private ones. */
export type Status = PublicStatus;

const PRIVATE_NAME: Record<"IDLE" | "PENDING" | "COMPLETED" | "NO_DATA" | "ABORTED" | "FAILED", PrivateStatus> = {
  IDLE: "Idle",
  PENDING: "Pending",
  COMPLETED: "Completed",
  NO_DATA: "NoData",
  ABORTED: "Aborted",
  FAILED: "Failed",
};

/**
 * The spec's name of a status in a variant (the machine name, kept in the page's data attributes).
 * The private set has no NO_RESPONSE, BACKEND_ERROR or USER_INACTIVE: there an unreachable server
 * aborts the run, and a failed vantage point load or an expired session is the app frame's concern
 * (offline notice, login), so they read Aborted and Failed.
 */
export function statusName(status: Status, variant: Variant): PublicStatus | PrivateStatus {
  if (variant === "public") return status;
  if (status === "NO_RESPONSE") return "Aborted";
  if (status === "BACKEND_ERROR" || status === "USER_INACTIVE") return "Failed";
  return PRIVATE_NAME[status];
}

/** What people read for a status: words, not the spec's codes (NODATA, IDLE …). */
const STATUS_LABELS: Record<PublicStatus | PrivateStatus, string> = {
  IDLE: "Ready",
  Idle: "Ready",
  PENDING: "Querying…",
  Pending: "Querying…",
  COMPLETED: "Completed",
  Completed: "Completed",
  NO_DATA: "No data",
  NoData: "No data",
  ABORTED: "Aborted",
  Aborted: "Aborted",
  FAILED: "Failed",
  Failed: "Failed",
  NO_RESPONSE: "No response from the server",
  BACKEND_ERROR: "Offline",
  USER_INACTIVE: "Session expired",
};

export function statusLabel(status: Status, variant: Variant): string {
  return STATUS_LABELS[statusName(status, variant)];
}

export type Notice = { kind: "error" | "warning"; message: string };

/** One result entry per vantage point: its rows, or the 'no data' entry. */
export type VantagePointOutcome<Row> = { vantagePoint: string; rows: Row[] } | { vantagePoint: string; noData: true };

export type RunState<Row> = {
  status: Status;
  /** Per vantage point, in the order the answers arrived. */
  outcomes: VantagePointOutcome<Row>[];
  /** The results banner: both set when the server cut the rows (results_limit of results_maximum). */
  limit: { shown: number; total: number } | null;
  /** Notices (toasts) of the run, in order; the screen shows each once. */
  notices: Notice[];
};

/** "A", "A and B", "A, B and C". */
function listNames(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * The run's one 'no data' notice, naming every vantage point that had none: a warning beside
 * rows of others, the error of an empty run otherwise ("none of the selected vantage points"
 * when several were asked and none had data).
 */
export function noDataMessage(noData: readonly string[], asked: number): string {
  if (noData.length === asked && asked > 1)
    return `None of the selected vantage points has data for this search. Try with other parameters.`;
  if (noData.length === asked) return `No data found for search at ${listNames(noData)}. Try with other parameters.`;
  return `No data found for search at ${listNames(noData)}.`;
}

export type RunEvent<Row> =
  | { type: "start" }
  /** Rows (possibly none) for one vantage point. */
  | { type: "result"; vantagePoint: string; rows: Row[] }
  /** A 404 (or "VantagePointWithNoData") for one vantage point. */
  | { type: "notFound"; vantagePoint: string }
  /** Every answer of the run is in. */
  | { type: "finish"; limit?: { shown: number; total: number } | null }
  /** Any other error of the request. */
  | { type: "error"; message: string }
  /** No HTTP answer at all (network down, server unreachable). */
  | { type: "noResponse"; message: string }
  /** The session behind the request expired. */
  | { type: "inactive"; message: string }
  /** Every network command job of the run has ended (its blocks show success or failure). */
  | { type: "commandsDone" }
  /** A network command job could not be created. */
  | { type: "jobFailed"; message: string }
  /** The vantage points could not be loaded. */
  | { type: "backendError" }
  /** The user aborted the request. */
  | { type: "abort" }
  /** The query type changed: back to the start, output cleared. */
  | { type: "reset" };

export function initialRunState<Row>(status: Status = "IDLE"): RunState<Row> {
  return { status, outcomes: [], limit: null, notices: [] };
}

const hasRows = <Row>(state: RunState<Row>) => state.outcomes.some((o) => "rows" in o && o.rows.length > 0);

export function runReducer<Row>(state: RunState<Row>, event: RunEvent<Row>): RunState<Row> {
  switch (event.type) {
    case "start":
      return { ...initialRunState<Row>("PENDING") };
    case "result":
      if (state.status !== "PENDING") return state;
      if (event.rows.length === 0) return runReducer(state, { type: "notFound", vantagePoint: event.vantagePoint });
      return { ...state, outcomes: [...state.outcomes, { vantagePoint: event.vantagePoint, rows: event.rows }] };
    case "notFound":
      if (state.status !== "PENDING") return state;
      // The notice waits for the end of the run: one message names every vantage point without data.
      return { ...state, outcomes: [...state.outcomes, { vantagePoint: event.vantagePoint, noData: true }] };
    case "finish": {
      if (state.status !== "PENDING") return state;
      const noData = state.outcomes.filter((o) => "noData" in o).map((o) => o.vantagePoint);
      if (hasRows(state)) {
        const notices = noData.length
          ? [...state.notices, { kind: "warning" as const, message: noDataMessage(noData, state.outcomes.length) }]
          : state.notices;
        return { ...state, status: "COMPLETED", limit: event.limit ?? null, notices };
      }
      const message = noData.length ? noDataMessage(noData, noData.length) : MESSAGES.noDataForSearch;
      return { ...state, status: "NO_DATA", limit: null, notices: [...state.notices, { kind: "error", message }] };
    }
    case "error":
      return { ...state, status: "ABORTED", notices: [...state.notices, { kind: "error", message: event.message }] };
    case "noResponse":
      return { ...state, status: "NO_RESPONSE", notices: [...state.notices, { kind: "error", message: event.message }] };
    case "inactive":
      return { ...state, status: "USER_INACTIVE", notices: [...state.notices, { kind: "error", message: event.message }] };
    case "commandsDone":
      return state.status === "PENDING" ? { ...state, status: "COMPLETED" } : state;
    case "jobFailed":
      return { ...state, status: "FAILED", notices: [...state.notices, { kind: "error", message: event.message }] };
    case "backendError":
      return { ...initialRunState<Row>("BACKEND_ERROR"), notices: [{ kind: "error", message: MESSAGES.lookingGlassOffline }] };
    case "abort":
      return state.status === "PENDING" ? { ...state, status: "ABORTED" } : state;
    case "reset":
      // The offline state outlives a change of type: the vantage points are still missing.
      return state.status === "BACKEND_ERROR" ? state : initialRunState<Row>();
  }
}

/** A whole server answer (results keyed by vantage point) as the run's events, finish included. */
export function eventsOfResponse<Row>(
  response: { results: Record<string, Row[] | string>; results_limit?: number | null; results_maximum?: number | null },
  nameOf: (key: string) => string,
): RunEvent<Row>[] {
  const events: RunEvent<Row>[] = Object.entries(response.results).map(([key, value]) =>
    Array.isArray(value) ? { type: "result", vantagePoint: nameOf(key), rows: value } : { type: "notFound", vantagePoint: nameOf(key) },
  );
  const limited = response.results_limit != null && response.results_maximum != null;
  events.push({ type: "finish", limit: limited ? { shown: response.results_limit!, total: response.results_maximum! } : null });
  return events;
}

export const isPending = (status: Status) => status === "PENDING";
