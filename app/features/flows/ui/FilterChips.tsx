import { Pill, Tooltip, VisuallyHidden } from "@mantine/core";
import { IconLock } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { getDimension, type DimensionId } from "~/features/filter/dimensions";
import type { FlowFilter } from "~/features/filter/filters";
import { valueLabel } from "~/features/filter/value-labels";
import { filterValueName } from "~/features/filter/ui/filter-client";

/** The name of a filter value from api/filter/metadata/ (batched); null until known, or when there is none. */
function useValueName(dimension: DimensionId, value: string, enabled: boolean): string | null {
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    filterValueName(dimension, value).then((n) => {
      if (live) setName(n);
    });
    return () => {
      live = false;
    };
  }, [dimension, value, enabled]);
  return name;
}

/** How a value reads on its chip: tags as they are referenced, the rest as people read it (value-labels.ts). */
function valueText(filter: FlowFilter): string {
  return filter.tag ? filter.value : valueLabel(filter.dimension, filter.value);
}

function FilterChip({
  filter,
  removable,
  named,
  onRemove,
}: {
  filter: FlowFilter;
  removable: boolean;
  named: boolean;
  onRemove: () => void;
}) {
  // Tags are named by the tag itself; names are only looked up for plain values.
  const name = useValueName(filter.dimension, filter.value, named && !filter.tag);
  const value = valueText(filter);
  // An AS shows its name and number; other values are their name (which includes the value) or the value.
  const isAs = getDimension(filter.dimension).filterKind === "AS_NUMBER" && !filter.tag;
  const text = name && name !== filter.value && name !== value ? (isAs || filter.tag ? `${name} (${value})` : name) : value;
  const title = `${filter.isNegation ? "Excluded" : "Included"}${filter.locked ? ", locked by your account's restrictions" : ""}: ${getDimension(filter.dimension).label} ${value}`;
  return (
    <Tooltip label={title} openDelay={300}>
      <Pill
        size="md"
        withRemoveButton={removable}
        onRemove={onRemove}
        removeButtonProps={{ "aria-label": `Remove filter ${filter.isNegation ? "not " : ""}${value}` }}
        data-testid="filter-chip"
        data-dimension={filter.dimension}
        data-value={filter.value}
        data-negated={filter.isNegation || undefined}
        data-locked={filter.locked || undefined}
        style={{
          // Negated chips read as exclusions: red and struck through; locked ones are outlined.
          backgroundColor: filter.isNegation ? "var(--mantine-color-red-1)" : "var(--mantine-color-blue-1)",
          color: filter.isNegation ? "var(--mantine-color-red-9)" : "var(--mantine-color-blue-9)",
          border: filter.locked ? "1px dashed var(--mantine-color-gray-6)" : undefined,
        }}
      >
        {filter.isNegation ? <span aria-label="not">≠ </span> : null}
        {/* An SVG icon, not the 🔒 emoji: without an emoji font that rendered as an empty box. */}
        {filter.locked ? (
          <>
            <IconLock size={12} stroke={2} aria-hidden="true" style={{ verticalAlign: "-1px", marginRight: 4 }} data-testid="locked-icon" />
            <VisuallyHidden>locked: </VisuallyHidden>
          </>
        ) : null}
        <span style={filter.isNegation ? { textDecoration: "line-through" } : undefined}>{text}</span>
      </Pill>
    </Tooltip>
  );
}

/**
 * The chips of one dimension's filters; locked chips have no remove button. `named`: look the
 * values' names up (only for dimensions the user may use: the metadata call refuses the others).
 */
export function FilterChips({
  filters,
  locked,
  named,
  onRemove,
}: {
  filters: readonly FlowFilter[];
  locked: boolean;
  named: boolean;
  onRemove: (filter: FlowFilter) => void;
}) {
  return (
    <Pill.Group>
      {filters.map((f) => (
        <FilterChip
          key={`${f.isNegation ? "!" : ""}${f.value}`}
          filter={f}
          removable={!locked && !f.locked}
          named={named}
          onRemove={() => onRemove(f)}
        />
      ))}
    </Pill.Group>
  );
}
