import { Button, Group, NativeSelect, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMemo, useState } from "react";
import { MESSAGES } from "~/lib/messages";
import { getDimension, isDimensionId, type DimensionId } from "~/features/filter/dimensions";
import { AdvancedFilterDialog, type DimensionOption } from "./AdvancedFilterDialog";
import {
  dropValue,
  filterParams,
  filterRows,
  initialFilterState,
  pickValue,
  type AppliedFilter,
  type FilterBarState,
  type FilterChange,
} from "./filter-bar-state";
import { FilterChips } from "./FilterChips";
import { FilterInput } from "~/features/filter/ui/FilterInput";

const TOAST_TITLE = "Filter";

/** Whether two states write the same URL (a repeated value changes nothing). */
const sameParams = (a: FilterBarState, b: FilterBarState) => filterParams(a).join("\n") === filterParams(b).join("\n");

/**
 * The filters of the options form with JavaScript: one row per dimension with its chips and an
 * input to add values, a row to start a filter on another dimension, and the advanced query
 * filter dialog. The state is written into hidden `filter` inputs in the URL form
 * (`DIMENSION:v1,!v2`), and every change asks the form to submit, so the URL stays the state.
 */
export function FilterBar({
  filterParamValues,
  applied,
  dimensions,
  defaultDimension,
  onChange,
}: {
  filterParamValues: readonly string[];
  applied: readonly AppliedFilter[];
  dimensions: readonly DimensionOption[];
  defaultDimension: string | undefined;
  /** Called after the state changed (the form submits). */
  onChange: () => void;
}) {
  const [state, setState] = useState<FilterBarState>(() => initialFilterState(filterParamValues, applied));
  const [newDimension, setNewDimension] = useState<string>(defaultDimension ?? dimensions[0]?.value ?? "");
  const [dialogOpen, setDialogOpen] = useState(false);
  const rows = useMemo(() => filterRows(state), [state]);
  const usable = useMemo(() => new Set(dimensions.map((d) => d.value)), [dimensions]);
  const open = useMemo(() => dimensions.filter((d) => !isDimensionId(d.value) || !state.locked.has(d.value)), [dimensions, state.locked]);

  /** Applies a change: refusals and notices as toasts; true when the filters changed. */
  const commit = (change: FilterChange): boolean => {
    if (change.error) notifications.show({ color: "red", title: TOAST_TITLE, message: change.error });
    if (change.notice) notifications.show({ color: "yellow", title: TOAST_TITLE, message: change.notice });
    const next = { ...state, filters: change.filters };
    if (!sameParams(next, state)) {
      setState(next);
      onChange();
    }
    return !change.error;
  };

  /** Adds several values in turn (the dialog), each with its own notice. */
  const pickAll = (dimension: DimensionId, texts: readonly string[]) => {
    let current = state;
    for (const text of texts) {
      const change = pickValue(current, dimension, text);
      if (change.error) notifications.show({ color: "red", title: TOAST_TITLE, message: change.error });
      if (change.notice) notifications.show({ color: "yellow", title: TOAST_TITLE, message: change.notice });
      current = { ...current, filters: change.filters };
    }
    if (!sameParams(current, state)) {
      setState(current);
      onChange();
    }
  };

  return (
    <Stack gap={6} data-testid="filter-bar">
      <Text size="sm" fw={500}>
        Filters
      </Text>
      {rows.map((row) => {
        const label = getDimension(row.dimension).label;
        return (
          <Group key={row.dimension} gap="sm" wrap="wrap" align="center" data-testid="filter-row" data-dimension={row.dimension}>
            <Text size="sm" w={190} fw={500}>
              {label}
              {row.locked ? (
                <Text span size="xs" c="dimmed">
                  {" "}
                  (locked)
                </Text>
              ) : null}
            </Text>
            <FilterChips
              filters={row.filters}
              locked={row.locked}
              named={usable.has(row.dimension)}
              onRemove={(f) => commit(dropValue(state, f))}
            />
            {row.locked ? null : (
              <FilterInput
                dimension={row.dimension}
                ariaLabel={`Add a value to ${label}`}
                placeholder="Add a value"
                width={200}
                onPick={(v) => commit(pickValue(state, row.dimension, v))}
              />
            )}
          </Group>
        );
      })}
      <Group gap="sm" align="flex-end" wrap="wrap">
        {/* No name: choosing where to add is not part of the URL until a value is added. */}
        <NativeSelect
          aria-label="Filter dimension"
          value={newDimension}
          data={open.map((d) => ({ value: d.value, label: d.label }))}
          onChange={(e) => setNewDimension(e.currentTarget.value)}
          w={220}
        />
        {isDimensionId(newDimension) ? (
          <FilterInput
            key={newDimension}
            dimension={newDimension}
            ariaLabel="New filter value"
            onPick={(v) => commit(pickValue(state, newDimension as DimensionId, v))}
          />
        ) : null}
        <Button variant="light" onClick={() => setDialogOpen(true)} data-testid="advanced-filter-open">
          {MESSAGES.advancedQueryFilter}
        </Button>
      </Group>
      {filterParams(state).map((value) => (
        <input key={value} type="hidden" name="filter" value={value} />
      ))}
      <AdvancedFilterDialog
        opened={dialogOpen}
        onClose={() => setDialogOpen(false)}
        dimensions={open}
        defaultDimension={isDimensionId(newDimension) ? newDimension : undefined}
        onApply={pickAll}
      />
    </Stack>
  );
}
