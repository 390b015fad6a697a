import { Button, Group, NativeSelect, Paper, Radio, Stack, TextInput } from "@mantine/core";
import { Form, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { useCallback, useEffect, useRef } from "react";
import type { ExplorerData } from "../explorer.server";
import { CUSTOM_RANGE, customRangeError, DEFAULT_DATE_RANGE } from "../range-params";
import { DateRangeField } from "./DateRangeField";
import { FilterBar } from "./FilterBar";
import { useHydrated } from "~/components/use-hydrated";
import { HydrationFallback } from "~/components/HydrationFallback";
import { IpVersionField } from "./IpVersionField";

const SUBMIT_DELAY_MS = 400;

/**
 * Submits the form (GET: the URL is the state) a moment after the last change of a named control,
 * so several quick changes make one request. Controls without a name (the filter bar's inputs,
 * the dimension to add a filter to) are not part of the URL and do not count. Returns the same
 * delayed submit for changes made in code (hidden fields).
 */
function useDebouncedAutoSubmit(formRef: React.RefObject<HTMLFormElement>): () => void {
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const schedule = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (!formRef.current) return;
      rememberFocus(formRef.current);
      submit(formRef.current, { method: "get" });
    }, SUBMIT_DELAY_MS);
  }, [formRef, submit]);
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const onChange = (event: Event) => {
      if ((event.target as HTMLInputElement | null)?.name) schedule();
    };
    const cancel = () => clearTimeout(timer.current);
    form.addEventListener("change", onChange);
    form.addEventListener("submit", cancel);
    return () => {
      cancel();
      form.removeEventListener("change", onChange);
      form.removeEventListener("submit", cancel);
    };
  }, [formRef, schedule]);
  return schedule;
}

/**
 * The control that had the focus when the form submitted itself. The form is drawn anew for the new
 * URL (its key is the search), which would drop a keyboard user's focus onto the page's body; the new
 * form gives the focus back to the same control (for radios: the same value).
 */
let focusBeforeSubmit: { name: string; value: string | null } | null = null;

function rememberFocus(form: HTMLFormElement) {
  const active = document.activeElement as HTMLInputElement | null;
  focusBeforeSubmit =
    active && form.contains(active) && active.name ? { name: active.name, value: active.type === "radio" ? active.value : null } : null;
}

function useRestoredFocus(formRef: React.RefObject<HTMLFormElement>) {
  useEffect(() => {
    const wanted = focusBeforeSubmit;
    const form = formRef.current;
    if (!wanted || !form) return;
    focusBeforeSubmit = null;
    const target = [...form.elements].find(
      (el): el is HTMLInputElement =>
        (el as HTMLInputElement).name === wanted.name && (wanted.value === null || (el as HTMLInputElement).value === wanted.value),
    );
    target?.focus();
  }, [formRef]);
}

/** Without JavaScript: one text field per filter parameter (`DIMENSION:value,!value`) and one for a new filter. */
function FilterTextFields({ filters }: { filters: readonly string[] }) {
  return (
    <Stack gap={4}>
      {filters.map((f, i) => (
        <TextInput key={`${i}:${f}`} name="filter" defaultValue={f} aria-label={`Filter ${i + 1}`} w={520} />
      ))}
      <TextInput
        name="filter"
        defaultValue=""
        label={filters.length ? "Add a filter" : "Filter"}
        aria-label="New filter"
        placeholder="AS_SRC_INGRESS:2906,!AS15169"
        description="One dimension per field: DIMENSION:value,value; a leading ! negates a value. Empty a field to remove its filter."
        w={520}
        data-testid="new-filter"
      />
    </Stack>
  );
}

/**
 * The options of a flows screen as one GET form. It renders completely on the server and works
 * without JavaScript (text fields for filters, date-time inputs for the range); with JavaScript the
 * filters become a filter bar with autocomplete and the range is checked before it is applied, both
 * writing the same URL parameters.
 */
export function OptionsForm({ data, path, label }: { data: ExplorerData; path: string; label: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  const scheduleSubmit = useDebouncedAutoSubmit(formRef);
  useRestoredFocus(formRef);
  const hydrated = useHydrated();
  const { params } = data;
  const navigation = useNavigation();
  const location = useLocation();
  const dimensionOptions = data.dimensions.map((d) => ({ value: d.value, label: d.label }));
  const rangeValue = params.dateRange ?? (params.start !== undefined && params.end !== undefined ? CUSTOM_RANGE : DEFAULT_DATE_RANGE);
  const shownRange = data.flows?.range ?? data.requested;
  return (
    // data-search: the URL state the form shows (the page commits a navigation's data after the URL changes).
    <Form
      method="get"
      action={path}
      ref={formRef}
      aria-label={`${label} options`}
      data-search={location.search}
      data-tour="explorer-options"
    >
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group align="flex-end" gap="md" wrap="wrap">
            <NativeSelect
              label="Dimension"
              name="dimension"
              defaultValue={data.dimension?.id}
              data={dimensionOptions}
              w={260}
              wrapperProps={{ "data-tour": "explorer-dimension" }}
            />
            <IpVersionField value={params.ipVersion} />
          </Group>
          <div data-tour="explorer-range">
            <DateRangeField
              rangeValue={rangeValue}
              start={params.start}
              end={params.end}
              shown={{ start: shownRange.start, end: shownRange.end }}
              timezone={data.timezone}
              error={customRangeError(params, data.timezone)}
              hydrated={hydrated}
              onChange={scheduleSubmit}
            />
          </div>
          <Group align="flex-end" gap="md" wrap="wrap">
            {/* The Sankey view needs its own permission (SANKEY_TOPOLOGY): without it only the timeseries is offered. */}
            {data.sankeyAllowed ? (
              <Radio.Group label="View" name="view" defaultValue={params.view} data-tour="explorer-view">
                <Group gap="xs" mt={6}>
                  <Radio value="timeseries" label="Timeseries" />
                  <Radio value="sankey" label="Sankey" />
                </Group>
              </Radio.Group>
            ) : null}
            {/* Comparison with the previous period of equal length; the table view (set below the chart) rides along. */}
            <label
              style={{ display: "flex", alignItems: "center", gap: 6, fontSize: "var(--mantine-font-size-sm)", paddingBottom: 6 }}
              data-tour="explorer-compare"
            >
              <input type="checkbox" name="compare" value="1" defaultChecked={params.compare} data-testid="compare" />
              Compare with the previous period
            </label>
            {/* The next period predicted from the previous weeks, dashed after the last bucket (timeseries only). */}
            <label
              style={{ display: "flex", alignItems: "center", gap: 6, fontSize: "var(--mantine-font-size-sm)", paddingBottom: 6 }}
              data-tour="explorer-predict"
            >
              <input type="checkbox" name="predict" value="1" defaultChecked={params.predict} data-testid="predict" />
              Predict the next period
            </label>
            {params.table !== "aggregated" ? <input type="hidden" name="table" value={params.table} /> : null}
            {params.pivot ? <input type="hidden" name="pivot" value="1" /> : null}
            {data.sankeyAllowed ? (
              <NativeSelect
                label="Second dimension (sankey)"
                name="dimension2"
                defaultValue={params.dimension2 ?? ""}
                data={[{ value: "", label: "—" }, ...dimensionOptions]}
                w={260}
              />
            ) : null}
          </Group>
          <div data-tour="explorer-filters">
            {hydrated ? (
              <FilterBar
                filterParamValues={params.filter}
                applied={data.flows?.filters ?? []}
                dimensions={dimensionOptions}
                defaultDimension={data.dimension?.id}
                onChange={scheduleSubmit}
              />
            ) : (
              <HydrationFallback>
                <FilterTextFields filters={params.filter} />
              </HydrationFallback>
            )}
          </div>
          <Group>
            <Button
              type="submit"
              loading={navigation.state === "loading" && navigation.location?.pathname === path}
              data-tour="explorer-show"
            >
              Show
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Form>
  );
}
