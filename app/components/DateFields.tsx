import { TextInput, type TextInputProps } from "@mantine/core";
import { SPEC_DATE_PATTERN, SPEC_DATE_TIME_PATTERN } from "~/lib/time-range";

/**
 * Date fields in the spec's formats (shell §9: dd.MM.yyyy, dd.MM.yyyy HH:mm), the same with and
 * without JavaScript. A browser's own date input (`type="date"` / `"datetime-local"`) shows the
 * browser's locale instead ("11/29/2026, 09:31 PM"), next to dd.MM.yyyy everywhere else: these are
 * text fields whose placeholder shows the format and whose pattern stops a form with another one
 * before it is sent. The screens read it with the one parser of every tool (parseInstant of ~/lib/time-range).
 */
type FieldProps = Omit<TextInputProps, "type" | "pattern" | "placeholder">;

const FORMATS = {
  date: { placeholder: "dd.MM.yyyy", pattern: SPEC_DATE_PATTERN, title: "Write the date as dd.MM.yyyy" },
  dateTime: { placeholder: "dd.MM.yyyy HH:mm", pattern: SPEC_DATE_TIME_PATTERN, title: "Write the date and time as dd.MM.yyyy HH:mm" },
};

function SpecDateInput({ format, ...props }: FieldProps & { format: keyof typeof FORMATS }) {
  return <TextInput type="text" {...FORMATS[format]} autoComplete="off" spellCheck={false} {...props} />;
}

/** dd.MM.yyyy HH:mm (the time may be left out: the day's start). */
export function DateTimeField(props: FieldProps) {
  return <SpecDateInput format="dateTime" {...props} />;
}

/** dd.MM.yyyy */
export function DateField(props: FieldProps) {
  return <SpecDateInput format="date" {...props} />;
}
