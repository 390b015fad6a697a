/**
 * What a Looking Glass screen renders, computed on the server from its URL (spec §2): the vantage
 * points of the variant, the form's state, and — when the URL carries a query — the results. The
 * private screen uses it for deep links; the public page depends on it entirely, because it must
 * work without JavaScript: its GET form lands here and the results come back as HTML.
 */
import { netcommandAccess, requestOwner } from "~/features/netcommand/access.server";
import type { NetcommandScope } from "~/features/netcommand/targets";
import {
  createNetcommandJob,
  NetcommandInputError,
  NetcommandLimitError,
  readNetcommandJob,
  waitForJob,
} from "~/features/netcommand/jobs.server";
import { runReducer, initialRunState, eventsOfResponse, type RunState } from "~/features/lookingglass/status";
import { publicQueryLimiter } from "~/features/routing/lookingglass-cache.server";
import {
  cachedLookingGlassQuery,
  LookingGlassInputError,
  resolveRouteFilters,
  vantagePointRouters,
  type LookingGlassResult,
} from "~/features/routing/lookingglass.server";
import { ALL_VANTAGE_POINTS, resolveVantagePoints } from "~/features/routing/vantage-point-names";
import {
  forbiddenVantagePoints,
  listVantagePoints,
  vantagePointsRefusal,
  type LookingGlassVariant,
  type VantagePointJson,
} from "~/features/routing/vantage-points.server";
import { DEFAULT_TIMEZONE, safeTimezone } from "~/lib/date-format";
import { MESSAGES } from "~/lib/messages";
import { getUserSettings } from "~/server/settings/user-settings.server";
import { clientAddress } from "~/server/auth/session.server";
import type { UserContext } from "~/server/auth/user-context.server";
import { log } from "~/server/log.server";
import type { Services } from "~/server/services.server";
import type { LookingGlassRow } from "~/features/routing/route-columns";
import type { NetcommandBlockData } from "./ui/NetcommandResults";
import { availableQueryTypes, isNetcommandType, QUERY_TYPES } from "~/lib/routing-query-types";
import { LOCAL_TOOLS } from "~/features/netcommand/local.server";
import { SSH_TIMEOUT_MS } from "~/features/netcommand/ssh.server";
import {
  JOBS_PARAM,
  PARAM,
  isSubmitted,
  parseLookingGlassUrl,
  rawRouteFilters,
  rawVantagePointNames,
  readLookingGlassUrl,
  type LookingGlassUrlState,
} from "./url-state";
import { parseTerm } from "./validation";

export const SELECT_VANTAGE_POINT = "Select at least one vantage point.";

/** The vantage point fields a screen needs (the address is shown in ping/traceroute headings). */
export type ScreenVantagePoint = Pick<VantagePointJson, "key" | "display_name" | "description" | "legacy_description" | "router" | "ip">;

export type LookingGlassPage = {
  variant: LookingGlassVariant;
  vantagePoints: ScreenVantagePoint[];
  state: LookingGlassUrlState;
  canInvokeNetcommandApi: boolean;
  /** The timezone times are shown in: the user's; UTC on the public page. */
  timezone: string;
  /** Whether the URL asked for a query. */
  submitted: boolean;
  /** The term's validation error (shown on the input), or the vantage point selection's. */
  termError: string | null;
  vantagePointError: string | null;
  /** A RIB view or community the URL asked for that cannot apply (unknown, malformed, or sent to the public page). */
  filterError: { field: "ribView" | "community"; message: string } | null;
  /** The run as the reducer leaves it: status, per-vantage-point outcomes, banner, notices. */
  run: RunState<LookingGlassRow>;
  /** The normalised term the server answered for. */
  answeredTerm: string | null;
  /** Ping/traceroute blocks the server ran (the page without JavaScript). */
  jobs: NetcommandBlockData[];
  /** While some of those jobs still run: the URL that reads them again (the page refreshes to it). */
  refreshUrl: string | null;
  /** Per query type, the seconds the server gives a run before it fails it: the progress bar's time-out (spec §4). */
  progressTimeoutSeconds: Record<string, number>;
};

/**
 * How long a run of each query type may take on this server: routing queries are bounded by the
 * query door's time limit; ping and traceroute by the longer of the local tool's and the SSH
 * session's limits (a vantage point may use either).
 */
export function progressTimeouts(config: Pick<Services["config"], "QUERY_MAX_EXECUTION_SECONDS">): Record<string, number> {
  const timeouts: Record<string, number> = {};
  for (const type of QUERY_TYPES)
    timeouts[type] = isNetcommandType(type)
      ? Math.max(LOCAL_TOOLS[type].timeoutMs, SSH_TIMEOUT_MS) / 1000
      : config.QUERY_MAX_EXECUTION_SECONDS;
  return timeouts;
}

/** How long a loader waits for ping/traceroute jobs before answering with what it has (then the page refreshes). */
export const NETCOMMAND_WAIT_MS = 15_000;

/**
 * Whether ping and traceroute are offered: logged-in users need the flag canInvokeNetcommandApi;
 * anonymous visitors of the public page get them when the flag is on for everybody (the same rule
 * as api/netcommand/).
 */
export async function netcommandAllowed(services: Pick<Services, "pg" | "config">, user: UserContext | null): Promise<boolean> {
  return "scope" in (await netcommandAccess(services, user));
}

const screenVantagePoint = (vp: VantagePointJson): ScreenVantagePoint => ({
  key: vp.key,
  display_name: vp.display_name,
  description: vp.description,
  legacy_description: vp.legacy_description,
  router: vp.router,
  ip: vp.ip,
});

/** A query's answer as the reducer's finished run (Completed or NoData, with its notices). */
export function runOfResult(
  result: Pick<LookingGlassResult, "results" | "results_limit" | "results_maximum">,
  nameOf: (key: string) => string,
): RunState<LookingGlassRow> {
  let run = runReducer(initialRunState<LookingGlassRow>(), { type: "start" });
  for (const event of eventsOfResponse<LookingGlassRow>(result as never, nameOf)) run = runReducer(run, event);
  return run;
}

/**
 * Why the URL's vantage points are refused to a delegated user (some outside their routers, or
 * none available to them at all), or null. "all" means all of theirs.
 */
export function refusedVantagePoints(full: readonly VantagePointJson[], routers: readonly string[] | null, url: URL): string | null {
  if (routers === null || !isSubmitted(url.searchParams)) return null;
  const names = rawVantagePointNames(url.searchParams.getAll(PARAM.vantagePoints));
  const all = names.some((n) => n.trim() === ALL_VANTAGE_POINTS);
  const forbidden = all ? [] : forbiddenVantagePoints(resolveVantagePoints(full, names).selected, routers);
  if (forbidden.length) return vantagePointsRefusal(forbidden.map((vp) => vp.display_name));
  return full.some((vp) => routers.includes(vp.router)) ? null : vantagePointsRefusal([]);
}

export async function loadLookingGlassPage(
  services: Pick<Services, "pg" | "ch" | "config">,
  options: { variant: LookingGlassVariant; url: URL; request: Request; user: UserContext | null },
): Promise<LookingGlassPage> {
  const { variant, url } = options;
  const [canInvokeNetcommandApi, timezone] = await Promise.all([
    netcommandAllowed(services, options.user),
    userTimezone(services, options.user),
  ]);
  const queryTypes = availableQueryTypes(canInvokeNetcommandApi);
  const submitted = isSubmitted(url.searchParams);
  const base = {
    variant,
    canInvokeNetcommandApi,
    timezone,
    submitted,
    termError: null,
    vantagePointError: null,
    filterError: null,
    answeredTerm: null,
    jobs: [],
    refreshUrl: null,
    progressTimeoutSeconds: progressTimeouts(services.config),
  };

  let available: VantagePointJson[];
  let refusal: string | null = null;
  try {
    const [full, routers] = await Promise.all([listVantagePoints(services, { variant }), vantagePointRouters(services, options.user)]);
    // A delegated user sees only the vantage points of their routers; naming another is refused, not ignored.
    available = routers === null ? full : full.filter((vp) => routers.includes(vp.router));
    refusal = refusedVantagePoints(full, routers, url);
  } catch (error) {
    log.error(`Looking Glass: the vantage points could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
    return {
      ...base,
      vantagePoints: [],
      state: parseLookingGlassUrl(url.searchParams, [], queryTypes),
      run: runReducer(initialRunState<LookingGlassRow>(), { type: "backendError" }),
    };
  }
  // Read once: the names are resolved here, the term parsed below, and both handed to the query.
  const { state, selected } = readLookingGlassUrl(url.searchParams, available, queryTypes);
  const page: LookingGlassPage = { ...base, vantagePoints: available.map(screenVantagePoint), state, run: initialRunState() };
  if (!submitted) return page;
  if (refusal) return { ...page, vantagePointError: refusal };

  const termCheck = parseTerm(state.queryType, state.queryTerm);
  if (!termCheck.ok) return { ...page, termError: termCheck.error };
  if (state.selectedVantagePoints.length === 0) return { ...page, vantagePointError: SELECT_VANTAGE_POINT };
  // Ping and traceroute: network commands, not routing table queries.
  if (!termCheck.rib) return { ...page, ...(await runNetcommandJobs(services, options, selected, state, termCheck.value)) };

  // The RIB view and the community filter: the private screen's choices; the public page refuses them.
  let filters: ReturnType<typeof resolveRouteFilters>;
  try {
    filters = resolveRouteFilters(variant, rawRouteFilters(url.searchParams));
  } catch (error) {
    if (!(error instanceof LookingGlassInputError)) throw error;
    const filterError = { field: error.field as "ribView" | "community", message: error.message };
    if (variant === "private") return { ...page, filterError };
    return {
      ...page,
      filterError,
      run: runReducer(runReducer(initialRunState(), { type: "start" }), { type: "error", message: error.message }),
    };
  }

  if (variant === "public") {
    const decision = publicQueryLimiter.take(clientAddress(options.request));
    if (!decision.allowed) {
      const message = `Too many Looking Glass queries. Please try again in ${decision.retryAfterSeconds} seconds.`;
      return { ...page, run: runReducer(runReducer(initialRunState(), { type: "start" }), { type: "error", message }) };
    }
  }
  try {
    const result = await cachedLookingGlassQuery(
      services,
      {
        variant,
        queryType: termCheck.rib.queryType,
        match: termCheck.rib.match,
        term: termCheck.value,
        vantagePoints: selected,
        ...filters,
      },
      options.user,
    );
    const nameOf = (key: string) => available.find((vp) => vp.key === key)?.display_name ?? key;
    return { ...page, run: runOfResult(result, nameOf), answeredTerm: result.queryTerm };
  } catch (error) {
    // A refused or timed-out query (the query door's 429/503): the error boundary says when to retry.
    if (error instanceof Response) throw error;
    log.error(`Looking Glass query failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return { ...page, run: runReducer(runReducer(initialRunState(), { type: "start" }), { type: "error", message: MESSAGES.serverError }) };
  }
}

async function userTimezone(services: Pick<Services, "pg">, user: UserContext | null): Promise<string> {
  return user ? safeTimezone((await getUserSettings(services.pg.db, user.id)).timezone) : DEFAULT_TIMEZONE;
}

const pendingRun = () => runReducer(initialRunState<LookingGlassRow>(), { type: "start" });

/**
 * Ping/traceroute for the page without JavaScript: a job per selected vantage point, waited for up
 * to NETCOMMAND_WAIT_MS. Jobs still running then are shown with their state and the page refreshes
 * to a URL naming the jobs (JOBS_PARAM), which reads them again instead of starting new ones.
 */
async function runNetcommandJobs(
  services: Pick<Services, "pg" | "config">,
  options: { variant: LookingGlassVariant; url: URL; request: Request; user: UserContext | null },
  selected: readonly VantagePointJson[],
  state: LookingGlassUrlState,
  destination: string,
): Promise<Pick<LookingGlassPage, "run" | "jobs" | "refreshUrl">> {
  const access = await netcommandAccess(services, options.user);
  if (!("scope" in access))
    return { run: runReducer(pendingRun(), { type: "jobFailed", message: MESSAGES.permissionDenied }), jobs: [], refreshUrl: null };
  // The public page runs jobs from public vantage points only, whoever is logged in.
  const scope: NetcommandScope = options.variant === "public" ? { ...access.scope, vantagePoints: "public" } : access.scope;
  const { owner } = requestOwner(options.request, options.user);
  let ids: Record<string, string> = {};
  try {
    const known: unknown = JSON.parse(options.url.searchParams.get(JOBS_PARAM) ?? "{}");
    if (known && typeof known === "object")
      ids = Object.fromEntries(Object.entries(known).filter(([, v]) => typeof v === "string")) as Record<string, string>;
  } catch {
    ids = {};
  }
  const reading = selected.every((vp) => ids[vp.display_name]);
  if (!reading) {
    try {
      const created = await Promise.all(
        selected.map((vp) =>
          createNetcommandJob(services, { owner, scope, networkElement: vp.key, queryType: state.queryType, targetAddress: destination }),
        ),
      );
      ids = Object.fromEntries(selected.map((vp, i) => [vp.display_name, created[i].jobID]));
    } catch (error) {
      if (error instanceof NetcommandInputError || error instanceof NetcommandLimitError) {
        return { run: runReducer(pendingRun(), { type: "jobFailed", message: error.message }), jobs: [], refreshUrl: null };
      }
      throw error;
    }
  }
  const views = await Promise.all(
    selected.map(async (vp) => {
      // Jobs named by the URL must belong to this visitor; new ones are theirs by construction.
      const view = reading
        ? await readNetcommandJob(services, ids[vp.display_name], owner)
        : await waitForJob(services, ids[vp.display_name], NETCOMMAND_WAIT_MS);
      return view ?? { state: "FAILURE" as const, result: "Request failed" };
    }),
  );
  const jobs: NetcommandBlockData[] = selected.map((vp, i) => ({
    vantagePoint: vp.display_name,
    ip: vp.ip,
    destination,
    state: views[i].state,
    result: views[i].result,
  }));
  const running = jobs.some((j) => j.state === "PENDING" || j.state === "STARTED" || j.state === "RETRY");
  if (!running) return { run: runReducer(pendingRun(), { type: "commandsDone" }), jobs, refreshUrl: null };
  const next = new URL(options.url);
  next.searchParams.set(JOBS_PARAM, JSON.stringify(ids));
  return { run: pendingRun(), jobs, refreshUrl: `${next.pathname}?${next.searchParams}` };
}
