import { Button, Checkbox, Group, Modal, Stack, Tooltip } from "@mantine/core";
import { useState } from "react";
import { MESSAGES } from "~/lib/messages";

export type PickableColumn = { id: string; header: string; visible: boolean };

/** Whether a choice of visible columns may be applied: the spec's "Column picker needs at least one column selected". */
export const canApplyColumns = (visible: Record<string, boolean>) => Object.values(visible).some(Boolean);

/**
 * The "Select a column" dialog of the tables (spec shell §2): one checkbox per column; Apply stays
 * disabled, with a tooltip saying why, until at least one column is ticked. Needs JavaScript; without
 * it every column is shown.
 */
export function ColumnPicker({
  columns,
  onApply,
}: {
  columns: readonly PickableColumn[];
  onApply: (visible: Record<string, boolean>) => void;
}) {
  const [opened, setOpened] = useState(false);
  const [choice, setChoice] = useState<Record<string, boolean>>({});
  const open = () => {
    setChoice(Object.fromEntries(columns.map((c) => [c.id, c.visible])));
    setOpened(true);
  };
  const applicable = canApplyColumns(choice);
  return (
    <>
      <Button variant="default" size="xs" onClick={open} data-testid="column-picker">
        Columns
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={MESSAGES.selectColumnTitle}>
        <Stack gap="xs">
          {columns.map((c) => (
            <Checkbox
              key={c.id}
              label={c.header}
              checked={choice[c.id] ?? false}
              onChange={(e) => {
                // Read now: React clears currentTarget once the handler returns, before the updater runs.
                const checked = e.currentTarget.checked;
                setChoice((prev) => ({ ...prev, [c.id]: checked }));
              }}
            />
          ))}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={() => setOpened(false)}>
              Cancel
            </Button>
            <Tooltip label={MESSAGES.selectAtLeastOneColumn} disabled={applicable}>
              {/* A disabled button fires no pointer events: the wrapper carries the tooltip. */}
              <span>
                <Button
                  disabled={!applicable}
                  onClick={() => {
                    onApply(choice);
                    setOpened(false);
                  }}
                  data-testid="column-picker-apply"
                >
                  Apply
                </Button>
              </span>
            </Tooltip>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
