import { Box, TextInput } from "@mantine/core";
import { isHexColor } from "~/lib/colors";

/** A #rrggbb field with a swatch of the colour typed so far (transparent while it is not a colour yet). */
export function ColourInput({
  name,
  label,
  value,
  onChange,
  error,
}: {
  name: string;
  label: string;
  value: string;
  onChange: (e: React.ChangeEvent<HTMLInputElement>) => void;
  error?: string;
}) {
  return (
    <TextInput
      name={name}
      label={label}
      value={value}
      onChange={onChange}
      error={error}
      placeholder="#rrggbb"
      maxLength={7}
      leftSection={
        <Box w={16} h={16} style={{ borderRadius: 3, border: "1px solid #ccc", background: isHexColor(value) ? value : "transparent" }} />
      }
    />
  );
}
