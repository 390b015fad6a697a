/**
 * The body of both Looking Glass screens: the form, the progress bar and status, then the results
 * area — the before-submit text, the offline text, the results banner, the table (plain HTML from
 * the server, the interactive table once JavaScript runs) or the ping/traceroute blocks.
 */
import { Alert, Badge, Button, Group, Progress as ProgressBar, Stack, Text } from "@mantine/core";
import { lazy, Suspense, useMemo } from "react";
import { ChunkBoundary } from "~/components/ChunkBoundary";
import { useHydrated } from "~/components/use-hydrated";
import { CopyAction } from "~/components/CopyAction";
import { MESSAGES, resultsLimited } from "~/lib/messages";
import { availableQueryTypes } from "~/lib/routing-query-types";
import { flattenRunRows } from "../run-rows";
import { LookingGlassForm } from "./LookingGlassForm";
import { NetcommandResults } from "./NetcommandResults";
import type { LookingGlassPageData } from "../page-data";
import { PlainResultsTable } from "./PlainResultsTable";
import type { PlainTableState } from "../plain-table";
import { statusLabel, statusName } from "../status";
import { serializeLookingGlassUrl } from "../url-state";
import { SCRIPT_HOOKS } from "./public-page-script";
import { useLookingGlassRun } from "./use-lookingglass-run";

// The interactive table (mantine-react-table) loads after hydration, in its own chunk.
const ResultsTable = lazy(() => import("./ResultsTable").then((m) => ({ default: m.ResultsTable })));

export function LookingGlassScreen({
  page,
  path,
  exportPath,
  tableState,
  rna,
  ownScript = false,
}: {
  page: LookingGlassPageData;
  path: string;
  exportPath: string;
  /** The server-rendered table's page, sort and filter (plain-table.ts). */
  tableState: PlainTableState;
  /** 'Show in RNA': offered when not null; `vrfs` are the VRFs of the vantage points' routers. */
  rna: { rawFlowsEmpty: boolean; vrfs: readonly { router: string; name: string; rd: string }[] } | null;
  /**
   * The page does not hydrate and runs the small script of public-page-script.ts instead: it gets
   * the markup that script shows when needed (an Abort button, the before-submit text).
   */
  ownScript?: boolean;
}) {
  const hydrated = useHydrated();
  const { run, jobs, progress, submit, reset, abort } = useLookingGlassRun({
    initialRun: page.run,
    initialJobs: page.jobs,
    vantagePoints: page.vantagePoints,
    path,
    progressTimeoutSeconds: page.progressTimeoutSeconds,
  });
  const rows = useMemo(() => flattenRunRows(run), [run]);
  const offline = run.status === "BACKEND_ERROR";
  const started = run.status !== "IDLE";
  const state = useMemo(() => serializeLookingGlassUrl(page.state, page.vantagePoints), [page.state, page.vantagePoints]);
  const search = hydrated ? new URLSearchParams(window.location.search) : state;
  const formats = page.variant === "public" ? ["csv", "xls", "xlsx"] : ["png", "csv", "xls", "xlsx"];
  const exportSearch = new URLSearchParams(search);
  exportSearch.delete("page");
  if (page.variant === "public") exportSearch.set("variant", "public");
  const exports = formats.map((format) => ({
    label: format === "png" ? "PNG" : `Table (${format})`,
    href: `${exportPath}?${exportSearch}&format=${format}`,
  }));
  const routerOf = (vp: string) => page.vantagePoints.find((v) => v.display_name === vp)?.router;
  const vrfOf = (vp: string, rd: string) => {
    const router = routerOf(vp);
    return rna?.vrfs.find((v) => v.router === router && v.rd === rd)?.name;
  };
  // The server's table: shown while the interactive one loads, and with its export links without
  // JavaScript or when the interactive one's chunk cannot be loaded (ChunkBoundary).
  const plainTable = (
    <PlainResultsTable
      rows={rows}
      variant={page.variant}
      timezone={page.timezone}
      state={tableState}
      path={path}
      query={state}
      rna={rna ? { rawFlowsEmpty: rna.rawFlowsEmpty, routerOf, vrfOf } : null}
    />
  );
  const plainWithLinks = (
    <Stack gap="xs">
      <Group gap="xs" data-testid="export-links">
        {exports.map((e) => (
          <a key={e.label} href={e.href}>
            {e.label}
          </a>
        ))}
      </Group>
      {plainTable}
    </Stack>
  );

  return (
    <Stack gap="md">
      <LookingGlassForm
        action={path}
        vantagePoints={page.vantagePoints}
        queryTypes={availableQueryTypes(page.canInvokeNetcommandApi)}
        initial={page.state}
        pending={run.status === "PENDING"}
        termError={page.termError}
        vantagePointError={page.vantagePointError}
        routeFilters={page.variant === "private"}
        filterError={page.filterError}
        onSubmit={hydrated ? submit : undefined}
        onQueryTypeChange={reset}
      />
      <Group gap="sm" align="center">
        <ProgressBar
          data-testid={SCRIPT_HOOKS.progress}
          value={progress.percent}
          style={{ flex: 1 }}
          size="sm"
          aria-label="Query progress"
          animated={run.status === "PENDING"}
        />
        {hydrated && run.status === "PENDING" ? (
          <Button size="compact-xs" variant="default" onClick={abort}>
            Abort
          </Button>
        ) : null}
        {ownScript ? (
          // Shown by the script while the answer loads (a span: the button's own display would beat `hidden`).
          <span hidden {...{ [SCRIPT_HOOKS.abort]: "" }}>
            <Button size="compact-xs" variant="default" type="button">
              Abort
            </Button>
          </span>
        ) : null}
        {started ? <CopyAction value={() => window.location.href} label="Copy link" ariaLabel="Copy link to this query" /> : null}
        <Badge variant="light" data-testid="lookingglass-status" data-status={statusName(run.status, page.variant)}>
          {statusLabel(run.status, page.variant)}
        </Badge>
      </Group>
      <section aria-label="Results" data-testid="lookingglass-results" data-tour="lg-results">
        {offline ? (
          <Alert color="red">{MESSAGES.lookingGlassOffline}</Alert>
        ) : !started && jobs.length === 0 ? (
          <Text c="dimmed">{MESSAGES.lookingGlassBeforeSubmit}</Text>
        ) : jobs.length > 0 ? (
          <NetcommandResults blocks={jobs} />
        ) : (
          <Stack gap="sm">
            {run.notices.map((n, i) => (
              <Alert key={i} color={n.kind === "error" ? "red" : "yellow"} variant="light" data-testid="lookingglass-notice">
                {n.message}
              </Alert>
            ))}
            {run.limit ? (
              <Alert color="yellow" data-testid="results-banner">
                {resultsLimited(run.limit.total, run.limit.shown)}
              </Alert>
            ) : null}
            {rows.length > 0 ? (
              hydrated ? (
                <ChunkBoundary fallback={plainWithLinks}>
                  <Suspense fallback={plainTable}>
                    <ResultsTable
                      rows={rows}
                      variant={page.variant}
                      timezone={page.timezone}
                      exports={exports}
                      rna={rna ? { rawFlowsEmpty: rna.rawFlowsEmpty, routerOf, vrfOf } : null}
                    />
                  </Suspense>
                </ChunkBoundary>
              ) : (
                plainWithLinks
              )
            ) : null}
          </Stack>
        )}
      </section>
      {ownScript ? (
        // What a change of query type brings back (the results cleared), for the page's script.
        <template {...{ [SCRIPT_HOOKS.beforeSubmit]: "" }}>
          <Text c="dimmed">{MESSAGES.lookingGlassBeforeSubmit}</Text>
        </template>
      ) : null}
    </Stack>
  );
}
