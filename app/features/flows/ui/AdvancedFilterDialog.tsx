import { Alert, Button, Checkbox, Group, Modal, NativeSelect, Pill, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { MESSAGES } from "~/lib/messages";
import { isDimensionId, type DimensionId } from "~/features/filter/dimensions";
import { parseFilterValue } from "~/features/filter/filters";
import { advancedFilterValues } from "./filter-bar-state";
import { FilterInput } from "~/features/filter/ui/FilterInput";

export type DimensionOption = { value: string; label: string };

/**
 * The "Advanced query filter" dialog: a dimension (only those the user may use and that are not
 * locked), one or more values with autocomplete, and negation; Apply hands the filter texts
 * (`!value` when negated) to the form. Invalid values get the '{value} is not a valid {name}
 * input' toast and are not taken.
 */
export function AdvancedFilterDialog({
  opened,
  onClose,
  dimensions,
  defaultDimension,
  onApply,
}: {
  opened: boolean;
  onClose: () => void;
  dimensions: readonly DimensionOption[];
  defaultDimension: string | undefined;
  onApply: (dimension: DimensionId, texts: string[]) => void;
}) {
  const [dimension, setDimension] = useState(defaultDimension ?? dimensions[0]?.value ?? "");
  const [values, setValues] = useState<string[]>([]);
  const [negate, setNegate] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const fail = (message: string) => {
    setError(message);
    notifications.show({ color: "red", title: MESSAGES.advancedQueryFilter, message });
  };

  const reset = () => {
    setValues([]);
    setNegate(false);
    setError(null);
  };

  const addValue = (typed: string): boolean => {
    if (!isDimensionId(dimension)) return false;
    const bare = typed.replace(/^!/, "").trim();
    const parsed = parseFilterValue(dimension, bare);
    if ("error" in parsed) {
      fail(parsed.error);
      return false;
    }
    // A `!` typed or picked here negates the whole filter, like the checkbox.
    if (typed.startsWith("!")) setNegate(true);
    setError(null);
    setValues((list) => (list.includes(bare) ? list : [...list, bare]));
    return true;
  };

  const apply = () => {
    const result = advancedFilterValues(dimension, values, negate);
    if ("error" in result) return fail(result.error);
    onApply(dimension as DimensionId, result.texts);
    reset();
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={() => {
        reset();
        onClose();
      }}
      title={MESSAGES.advancedQueryFilter}
      size="lg"
    >
      <Stack gap="sm" data-testid="advanced-filter-dialog">
        <NativeSelect
          label="Dimension"
          value={dimension}
          data={dimensions.map((d) => ({ value: d.value, label: d.label }))}
          onChange={(e) => {
            setDimension(e.currentTarget.value);
            setValues([]);
            setError(null);
          }}
        />
        {isDimensionId(dimension) ? (
          <FilterInput
            key={dimension}
            dimension={dimension}
            onPick={addValue}
            label="Values"
            ariaLabel="Advanced filter value"
            width={420}
            placeholder="Type a value or a name, Enter to add"
          />
        ) : null}
        {values.length ? (
          <Pill.Group data-testid="advanced-filter-values">
            {values.map((v) => (
              <Pill key={v} withRemoveButton onRemove={() => setValues((list) => list.filter((x) => x !== v))}>
                {negate ? `≠ ${v}` : v}
              </Pill>
            ))}
          </Pill.Group>
        ) : (
          <Text size="sm" c="dimmed">
            No values yet.
          </Text>
        )}
        <Checkbox label="Negation: exclude these values" checked={negate} onChange={(e) => setNegate(e.currentTarget.checked)} />
        {error ? (
          <Alert color="red" data-testid="advanced-filter-error">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={() => {
              reset();
              onClose();
            }}
          >
            Cancel
          </Button>
          <Button onClick={apply}>Apply</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
