import { Group, NativeSelect, TextInput } from "@mantine/core";
import { DateTimePicker } from "@mantine/dates";
import { notifications } from "@mantine/notifications";
import { useEffect, useRef, useState } from "react";
import { MESSAGES, rangeEndOutOfRange, rangeStartOutOfRange } from "~/lib/messages";
import { CUSTOM_RANGE } from "../params";
import { DATE_RANGE_PRESETS, PRESET_LABELS, rangeProblem, TIME_PRESETS, unixToWallDate, wallDateToUnix, type TimeRange } from "../time";
import { dataBounds, type DataBounds } from "./flows-client";
import { fmtTime } from "./format";

/** The long date format of spec §9 (dd.MM.yyyy HH:mm), the timezone shown beside it. */
const LONG_FORMAT = "DD.MM.YYYY HH:mm";

const RANGE_OPTIONS = [
  { group: "Time", items: TIME_PRESETS.map((p) => ({ value: p, label: PRESET_LABELS[p] })) },
  { group: "Date range", items: DATE_RANGE_PRESETS.map((p) => ({ value: p, label: PRESET_LABELS[p] })) },
  { group: "Custom", items: [{ value: CUSTOM_RANGE, label: "Custom (start / end)" }] },
];

export type DateRangeProps = {
  /** The select's value from the URL: a preset or CUSTOM. */
  rangeValue: string;
  /** The URL's start / end (unix seconds), when given. */
  start: number | undefined;
  end: number | undefined;
  /** The range the view shows (after presets and clamping), to start the pickers from. */
  shown: TimeRange;
  timezone: string;
  /** Why the URL's custom range was not used (also shown without JavaScript). */
  error: string | null;
  hydrated: boolean;
  /** Called after the pickers changed the range (the form submits). */
  onChange: () => void;
};

/**
 * The options form's time range: a preset select, and a start / end pair in unix seconds. Without
 * JavaScript these are text fields. With it, two date-time pickers show the range in the user's
 * timezone, limited to the data (api/flows/timestamps/), and write unix seconds into hidden
 * start / end fields; a pair that breaks the validity rule (start <= end <= max date) or lies
 * outside the data is not applied and gets a toast instead.
 */
export function DateRangeField(props: DateRangeProps) {
  return props.hydrated ? <DateRangePickers {...props} /> : <DateRangeTextFields {...props} />;
}

function DateRangeTextFields({ rangeValue, start, end, shown, timezone, error }: DateRangeProps) {
  // The value read in the user's timezone; an empty field shows the shown range's bound (the placeholder) read the same way.
  const describe = (ts: number | undefined, example: number) => `${ts === undefined ? "e.g. " : ""}${fmtTime(ts ?? example, timezone, LONG_FORMAT)} (${timezone})`;
  return (
    <Group align="flex-start" gap="md" wrap="wrap">
      <NativeSelect label="Date range" name="dateRange" defaultValue={rangeValue} data={RANGE_OPTIONS} w={210} />
      <TextInput label="Start (unix seconds)" name="start" defaultValue={start ?? ""} placeholder={String(shown.start)} description={describe(start, shown.start)} error={error} inputMode="numeric" w={220} />
      <TextInput label="End (unix seconds)" name="end" defaultValue={end ?? ""} placeholder={String(shown.end)} description={describe(end, shown.end)} inputMode="numeric" w={220} />
    </Group>
  );
}

function DateRangePickers({ rangeValue, start, end, shown, timezone, error, onChange }: DateRangeProps) {
  const [preset, setPreset] = useState(rangeValue);
  // What the URL gets (hidden fields) and what the pickers show while the user edits.
  const [applied, setApplied] = useState<TimeRange>(() => (start !== undefined && end !== undefined && start <= end ? { start, end } : shown));
  const [draft, setDraft] = useState<{ start: Date | null; end: Date | null }>(() => ({ start: unixToWallDate(applied.start, timezone), end: unixToWallDate(applied.end, timezone) }));
  const [bounds, setBounds] = useState<DataBounds | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // The popover's close callback is created before the last change renders: read the newest draft from here.
  const latest = useRef(draft);
  latest.current = draft;
  // A closing popover reports itself twice (its own onClose and the picker's): check each pair once.
  const lastChecked = useRef<string | null>(null);

  useEffect(() => {
    let live = true;
    dataBounds().then((b) => {
      if (live) setBounds(b);
    });
    return () => {
      live = false;
    };
  }, []);

  const fmt = (ts: number) => fmtTime(ts, timezone, LONG_FORMAT);

  /** Checks the pickers' pair when a picker closes: applies a valid change, explains an invalid one. */
  const check = () => {
    const d = latest.current;
    if (!d.start || !d.end) return;
    const candidate = { start: wallDateToUnix(d.start, timezone), end: wallDateToUnix(d.end, timezone) };
    const key = `${candidate.start}-${candidate.end}`;
    if (lastChecked.current === key) return;
    lastChecked.current = key;
    if (candidate.start === applied.start && candidate.end === applied.end) {
      setProblem(null);
      return;
    }
    // Until the data's range is known only the order can be checked; the server clamps the rest.
    const found = rangeProblem(candidate, bounds ?? { min: -Infinity, max: Infinity });
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
    setApplied(candidate);
    setPreset(CUSTOM_RANGE);
    onChange();
  };

  const limits = bounds ? { minDate: unixToWallDate(bounds.min, timezone), maxDate: unixToWallDate(bounds.max, timezone) } : {};
  const custom = preset === CUSTOM_RANGE;
  return (
    <Group align="flex-start" gap="md" wrap="wrap">
      <NativeSelect label="Date range" name="dateRange" value={preset} onChange={(e) => setPreset(e.currentTarget.value)} data={RANGE_OPTIONS} w={210} />
      <DateTimePicker
        label={`Start (${timezone})`}
        valueFormat={LONG_FORMAT}
        value={draft.start}
        onChange={(v) => setDraft((d) => ({ ...d, start: v }))}
        popoverProps={{ onClose: check }}
        error={problem ?? error}
        w={220}
        data-testid="range-start"
        {...limits}
      />
      <DateTimePicker
        label={`End (${timezone})`}
        valueFormat={LONG_FORMAT}
        value={draft.end}
        onChange={(v) => setDraft((d) => ({ ...d, end: v }))}
        popoverProps={{ onClose: check }}
        error={problem ? true : undefined}
        w={220}
        data-testid="range-end"
        {...limits}
      />
      {/* Only a custom range puts start / end into the URL; a preset is resolved on the server. */}
      <input type="hidden" name="start" value={applied.start} disabled={!custom} />
      <input type="hidden" name="end" value={applied.end} disabled={!custom} />
    </Group>
  );
}
