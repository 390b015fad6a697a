import { Group, NativeSelect, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useEffect, useState } from "react";
import { MESSAGES, rangeEndOutOfRange, rangeStartOutOfRange } from "~/lib/messages";
import { CUSTOM_RANGE } from "../range-params";
import { DATE_RANGE_PRESETS, parseInstant, PRESET_LABELS, rangeProblem, TIME_PRESETS, type TimeRange } from "~/lib/time-range";
import { dataBounds, type DataBounds } from "./flows-client";
import { DateTimeField } from "~/components/DateFields";
import { formatUnix, toDateTimeField } from "~/lib/date-format";

const RANGE_OPTIONS = [
  { group: "Time", items: TIME_PRESETS.map((p) => ({ value: p, label: PRESET_LABELS[p] })) },
  { group: "Date range", items: DATE_RANGE_PRESETS.map((p) => ({ value: p, label: PRESET_LABELS[p] })) },
  { group: "Custom", items: [{ value: CUSTOM_RANGE, label: "Custom (start / end)" }] },
];

export type DateRangeProps = {
  /** The select's value from the URL: a preset or CUSTOM. */
  rangeValue: string;
  /** The URL's start / end as written (ISO or unix seconds), when given. */
  start: string | undefined;
  end: string | undefined;
  /** The range the view shows (after presets and clamping), to fill the inputs when the URL has none. */
  shown: TimeRange;
  timezone: string;
  /** Why the URL's custom range was not used (also shown without JavaScript). */
  error: string | null;
  hydrated: boolean;
  /** Called after the inputs changed the range (the form submits). */
  onChange: () => void;
  /** Only the date ranges (no time presets), for screens that read hourly data. */
  datesOnly?: boolean;
};

/**
 * The time range of a flows form: a preset select and two date fields in the spec's dd.MM.yyyy HH:mm
 * (components/DateFields.tsx) in the user's timezone, the same fields with and without JavaScript;
 * the URL gets what they show (`01.11.2026 10:00`).
 * Without JavaScript the inputs are the form's start / end and apply with "Custom". With
 * JavaScript, editing a date chooses "Custom", and a pair that breaks the validity rule
 * (start <= end <= newest data) or lies outside the data (api/flows/timestamps/) is not applied:
 * a toast and the field say why.
 */
export function DateRangeField(props: DateRangeProps) {
  const { timezone, shown, start, end } = props;
  const initial = {
    start: toDateTimeField(parseInstant(start, timezone, "start") ?? shown.start, timezone),
    end: toDateTimeField(parseInstant(end, timezone, "end") ?? shown.end, timezone),
  };
  return props.hydrated ? <DateRangeInputs {...props} initial={initial} /> : <DateRangeFields {...props} initial={initial} />;
}

type Initial = { initial: { start: string; end: string } };

const rangeOptions = (datesOnly: boolean | undefined) => (datesOnly ? RANGE_OPTIONS.filter((g) => g.group !== "Time") : RANGE_OPTIONS);

function Hint({ timezone }: { timezone: string }) {
  return (
    <Text size="xs" c="dimmed" mt={28}>
      Times in {timezone}. Start and end apply with “Custom (start / end)”.
    </Text>
  );
}

function DateRangeFields({ rangeValue, timezone, error, initial, datesOnly }: DateRangeProps & Initial) {
  return (
    <Group align="flex-start" gap="md" wrap="wrap">
      <NativeSelect label="Date range" name="dateRange" defaultValue={rangeValue} data={rangeOptions(datesOnly)} w={210} />
      <DateTimeField
        label={`Start (${timezone})`}
        name="start"
        defaultValue={initial.start}
        error={error}
        w={220}
        data-testid="range-start"
      />
      <DateTimeField label={`End (${timezone})`} name="end" defaultValue={initial.end} w={220} data-testid="range-end" />
      <Hint timezone={timezone} />
    </Group>
  );
}

function DateRangeInputs({ rangeValue, timezone, error, onChange, initial, datesOnly }: DateRangeProps & Initial) {
  const [preset, setPreset] = useState(rangeValue);
  // What the URL gets (hidden fields) and what the inputs show while the user edits.
  const [applied, setApplied] = useState(initial);
  const [draft, setDraft] = useState(initial);
  const [bounds, setBounds] = useState<DataBounds | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    dataBounds().then((b) => {
      if (live) setBounds(b);
    });
    return () => {
      live = false;
    };
  }, []);

  const fmt = (ts: number) => formatUnix(ts, timezone);

  /** Checks the pair when an input is left: applies a valid change, explains an invalid one. */
  const check = () => {
    if (draft.start === applied.start && draft.end === applied.end) return;
    const candidate = { start: parseInstant(draft.start, timezone, "start"), end: parseInstant(draft.end, timezone, "end") };
    if (candidate.start === null || candidate.end === null) return; // still being typed
    // Until the data's range is known only the order can be checked; the server clamps the rest.
    const found = rangeProblem({ start: candidate.start, end: candidate.end }, bounds ?? { min: -Infinity, max: Infinity });
    if (found) {
      const message =
        found === "start-out-of-range" && bounds
          ? rangeStartOutOfRange(fmt(candidate.start), fmt(bounds.min), fmt(bounds.max))
          : found === "end-out-of-range" && bounds
            ? rangeEndOutOfRange(fmt(candidate.end), fmt(bounds.min), fmt(bounds.max))
            : MESSAGES.datePickerError;
      setProblem(message);
      notifications.show({ color: "red", title: MESSAGES.datePickerTitle, message });
      return;
    }
    setProblem(null);
    setApplied(draft);
    setPreset(CUSTOM_RANGE);
    onChange();
  };

  const custom = preset === CUSTOM_RANGE;
  const edit = (edge: "start" | "end") => (e: React.ChangeEvent<HTMLInputElement>) => {
    const value = e.currentTarget.value;
    setDraft((d) => ({ ...d, [edge]: value }));
  };
  return (
    <Group align="flex-start" gap="md" wrap="wrap">
      <NativeSelect
        label="Date range"
        name="dateRange"
        value={preset}
        onChange={(e) => setPreset(e.currentTarget.value)}
        data={rangeOptions(datesOnly)}
        w={210}
      />
      <DateTimeField
        label={`Start (${timezone})`}
        value={draft.start}
        onChange={edit("start")}
        onBlur={check}
        error={problem ?? error}
        w={220}
        data-testid="range-start"
      />
      <DateTimeField
        label={`End (${timezone})`}
        value={draft.end}
        onChange={edit("end")}
        onBlur={check}
        error={problem ? true : undefined}
        w={220}
        data-testid="range-end"
      />
      {/* Only a custom range puts start / end into the URL; a preset is resolved on the server. */}
      <input type="hidden" name="start" value={applied.start} disabled={!custom} />
      <input type="hidden" name="end" value={applied.end} disabled={!custom} />
    </Group>
  );
}
