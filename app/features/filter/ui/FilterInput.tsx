import { Badge, Combobox, Group, Loader, Text, TextInput, useCombobox } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { filterValueHint, type DimensionId } from "../dimensions";
import { suggestValues, type ValueSuggestion } from "./filter-client";

const SEARCH_DELAY_MS = 150;

/**
 * A value input for one dimension with autocomplete suggestions (names and values from
 * api/autocomplete/ through the client cache). Picking a suggestion, or Enter on typed text,
 * hands the value to `onPick`; a leading `!` negates it. `onPick` answers whether the value was
 * taken (the input then empties). The input has no name: it is not part of the submitted form.
 */
export function FilterInput({
  dimension,
  onPick,
  label,
  ariaLabel,
  placeholder,
  width = 260,
}: {
  dimension: DimensionId;
  onPick: (value: string) => boolean;
  label?: string;
  ariaLabel: string;
  /** Default: what the dimension accepts (filterValueHint). */
  placeholder?: string;
  width?: number;
}) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [text, setText] = useState("");
  const [items, setItems] = useState<ValueSuggestion[]>([]);
  const [loading, setLoading] = useState(false);
  const latest = useRef(0);

  useEffect(() => {
    const call = ++latest.current;
    if (!text.trim()) {
      setItems([]);
      setLoading(false);
      return;
    }
    const timer = setTimeout(() => {
      setLoading(true);
      suggestValues(dimension, text)
        .catch(() => [] as ValueSuggestion[])
        .then((found) => {
          // Only the answer to the newest term counts.
          if (call !== latest.current) return;
          setItems(found);
          setLoading(false);
          combobox.resetSelectedOption();
        });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
    // The combobox store is left out: it is a new object every render, its methods do not change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dimension, text]);

  const take = (value: string) => {
    if (!value.trim()) return;
    if (onPick(value.trim())) {
      setText("");
      setItems([]);
      combobox.closeDropdown();
    }
  };

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(value) => {
        take(value);
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target>
        <TextInput
          label={label}
          aria-label={ariaLabel}
          placeholder={placeholder ?? filterValueHint(dimension)}
          value={text}
          w={width}
          autoComplete="off"
          rightSection={loading ? <Loader size={14} /> : null}
          onChange={(e) => {
            setText(e.currentTarget.value);
            combobox.openDropdown();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          onKeyDown={(e) => {
            if (e.key !== "Enter") return;
            // Enter never submits the whole form from here; with a highlighted suggestion the combobox picks it.
            e.preventDefault();
            if (combobox.dropdownOpened && combobox.getSelectedOptionIndex() !== -1) return;
            take(text);
          }}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={!items.length}>
        <Combobox.Options mah={320} style={{ overflowY: "auto" }} data-testid="filter-suggestions">
          {items.map((item) => (
            <Combobox.Option value={item.value} key={`${item.type}:${item.value}`}>
              <Group gap="xs" wrap="nowrap" justify="space-between">
                <Text size="sm" truncate>
                  {item.name}
                </Text>
                <Group gap={4} wrap="nowrap">
                  {item.type !== "PRIMITIVE" ? (
                    <Badge size="xs" variant="light">
                      {item.type === "TAG_GROUP" ? "tag group" : "tag"}
                    </Badge>
                  ) : null}
                  <Text size="xs" c="dimmed">
                    {item.value}
                  </Text>
                </Group>
              </Group>
            </Combobox.Option>
          ))}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
