/**
 * The browser side of a Looking Glass run (spec §4): submit through api/lookingglass/ (ping and
 * traceroute through api/netcommand/ jobs), the status reducer, the progress bar, toasts, and the
 * URL kept in step with the form. Starts from the run the server rendered, so a deep link shows
 * its results at once and JavaScript only takes over the next submit.
 */
import { notifications } from "@mantine/notifications";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { ApiClientError, createApiClient, failureOf } from "~/lib/api-client";
import { MESSAGES } from "~/lib/messages";
import { runNetcommand } from "~/lib/netcommand-client";
import { isNetcommandType, type NetcommandQueryType } from "~/lib/routing-query-types";
import type { LookingGlassRow } from "~/features/routing/route-columns";
import { finishProgress, IDLE_PROGRESS, PROGRESS_TICK_MS, startProgress, tickProgress, type Progress } from "../progress";
import { eventsOfResponse, runReducer, type RunEvent, type RunState } from "../status";
import { serializeLookingGlassUrl, type LookingGlassUrlState, type VantagePointRef } from "../url-state";

/** Looking Glass toasts are at most 40 em wide (spec §9). */
const TOAST_STYLE = { maxWidth: "40em" } as const;
export type NetcommandBlock = { vantagePoint: string; ip: string; destination: string; state: string; result: string };

type VantagePoint = VantagePointRef & { router: string; ip: string };

type Reduced = { run: RunState<LookingGlassRow>; jobs: NetcommandBlock[] };
type Action =
  { event: RunEvent<LookingGlassRow> } | { jobs: NetcommandBlock[] } | { job: Partial<NetcommandBlock> & { vantagePoint: string } };

function reduce(state: Reduced, action: Action): Reduced {
  if ("event" in action) {
    const run = runReducer(state.run, action.event);
    return { run, jobs: action.event.type === "reset" || action.event.type === "start" ? [] : state.jobs };
  }
  if ("jobs" in action) return { ...state, jobs: action.jobs };
  return { ...state, jobs: state.jobs.map((j) => (j.vantagePoint === action.job.vantagePoint ? { ...j, ...action.job } : j)) };
}

export function useLookingGlassRun(options: {
  initialRun: RunState<LookingGlassRow>;
  initialJobs: NetcommandBlock[];
  vantagePoints: readonly VantagePoint[];
  path: string;
  /** Per query type, the server's time-out in seconds: the progress bar's pace (spec §4). */
  progressTimeoutSeconds: Readonly<Record<string, number>>;
}) {
  const [state, dispatch] = useReducer(reduce, { run: options.initialRun, jobs: options.initialJobs });
  const [progress, setProgress] = useState<Progress>(
    options.initialRun.status === "COMPLETED" || options.initialRun.status === "NO_DATA"
      ? { ...IDLE_PROGRESS, percent: 100 }
      : IDLE_PROGRESS,
  );
  // The server's notices are on the page already; only the browser's own runs become toasts.
  const shownNotices = useRef(options.initialRun.notices.length);
  const client = useRef(createApiClient());
  const runId = useRef(0);
  const controller = useRef<AbortController | null>(null);
  const runTimeout = useRef<number | undefined>(undefined);

  // Each notice of the run becomes one toast.
  useEffect(() => {
    const notices = state.run.notices;
    for (const notice of notices.slice(shownNotices.current)) {
      notifications.show({ color: notice.kind === "error" ? "red" : "yellow", message: notice.message, style: TOAST_STYLE });
    }
    shownNotices.current = notices.length;
  }, [state.run.notices]);

  // The bar ticks while Pending and stops as soon as the status leaves it.
  const pending = state.run.status === "PENDING";
  useEffect(() => {
    if (!pending) {
      setProgress((p) => finishProgress(p, state.run.status));
      return;
    }
    setProgress(startProgress(runTimeout.current));
    const timer = setInterval(() => setProgress(tickProgress), PROGRESS_TICK_MS);
    return () => clearInterval(timer);
  }, [pending, state.run.status]);

  const event = (e: RunEvent<LookingGlassRow>) => dispatch({ event: e });

  // How a failed call ends the run: the api-client's reading (failureOf) decides the words.
  const failed = (error: unknown) => {
    const failure = failureOf(error);
    if (
      error instanceof ApiClientError &&
      error.status === 403 &&
      (error.body as { exception_code?: string } | undefined)?.exception_code === "not_authenticated"
    ) {
      event({ type: "inactive", message: MESSAGES.sessionExpired });
    } else if (failure.kind === "aborted") {
      event({ type: "abort" });
    } else if (failure.kind === "network") {
      event({ type: "noResponse", message: failure.message });
    } else {
      event({ type: "error", message: failure.message });
    }
  };

  const submit = useCallback(
    async (form: LookingGlassUrlState) => {
      const id = ++runId.current;
      const selected = options.vantagePoints.filter((vp) => form.selectedVantagePoints.includes(vp.display_name));
      // The URL follows the form, without a navigation (the loader would run the query a second time).
      const search = serializeLookingGlassUrl(form, options.vantagePoints).toString();
      window.history.replaceState(window.history.state, "", `${options.path}?${search}`);
      runTimeout.current = options.progressTimeoutSeconds[form.queryType];
      event({ type: "start" });
      if (isNetcommandType(form.queryType)) {
        controller.current?.abort();
        controller.current = new AbortController();
        return runNetcommands(id, form, selected);
      }
      try {
        const response = await client.current.request<{
          results: Record<string, LookingGlassRow[] | string>;
          results_limit: number | null;
          results_maximum: number | null;
        }>("api/lookingglass/", {
          method: "POST",
          body: {
            queryTerm: form.queryTerm.trim(),
            queryType: form.queryType,
            vantagePoints: selected.map((vp) => vp.key),
            // The private screen's table and community filter; the default tables and no filter are not sent.
            ...(form.ribView !== "default" ? { ribView: form.ribView } : {}),
            ...(form.community.trim() ? { community: form.community.trim() } : {}),
          },
          throwErrors: true,
          requestId: null,
        });
        if (id !== runId.current) return;
        const nameOf = (key: string) => options.vantagePoints.find((vp) => vp.key === key)?.display_name ?? key;
        for (const e of eventsOfResponse<LookingGlassRow>(response, nameOf)) event(e);
      } catch (error) {
        if (id !== runId.current) return;
        // A 404 for the request: none of the vantage points has data.
        if (error instanceof ApiClientError && error.status === 404) {
          for (const vp of selected) event({ type: "notFound", vantagePoint: vp.display_name });
          event({ type: "finish" });
        } else failed(error);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [options.vantagePoints, options.path],
  );

  async function runNetcommands(id: number, form: LookingGlassUrlState, selected: VantagePoint[]) {
    const destination = form.queryTerm.trim();
    const queryType = form.queryType as NetcommandQueryType;
    dispatch({ jobs: selected.map((vp) => ({ vantagePoint: vp.display_name, ip: vp.ip, destination, state: "PENDING", result: "" })) });
    const outcomes = await Promise.all(
      selected.map((vp) =>
        runNetcommand(
          client.current,
          { networkElement: vp.key, queryType, targetAddress: destination },
          {
            signal: controller.current?.signal,
            onUpdate: (job) => {
              if (id === runId.current) dispatch({ job: { vantagePoint: vp.display_name, state: job.state, result: job.result } });
            },
          },
        ),
      ),
    );
    if (id !== runId.current) return;
    // A job that could not be created fails the run (spec §4), with the server's reason.
    const failed = outcomes.find((o) => o.status === "Failed");
    if (failed && failed.status === "Failed") {
      dispatch({ jobs: [] });
      event({ type: "jobFailed", message: failed.detail });
      return;
    }
    event({ type: "commandsDone" });
  }

  const reset = useCallback(() => {
    runId.current++;
    controller.current?.abort();
    dispatch({ event: { type: "reset" } });
    setProgress(IDLE_PROGRESS);
  }, []);

  const abort = useCallback(() => {
    runId.current++;
    controller.current?.abort();
    dispatch({ event: { type: "abort" } });
    setProgress(IDLE_PROGRESS);
  }, []);

  return { run: state.run, jobs: state.jobs, progress, submit, reset, abort };
}
