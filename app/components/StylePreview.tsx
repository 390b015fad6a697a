import { Box, Group, Stack, Text } from "@mantine/core";
import { contrastText, isHexColor } from "~/lib/colors";

export type StyleColours = { company_name: string; color_primary: string; color_secondary: string; color_tertiary: string };

/** Live preview of a style: the header in the tertiary colour, and each colour with the text colour contrastText() picks. */
export function StylePreview({ style }: { style: StyleColours }) {
  const swatch = (colour: string, label: string) => {
    const valid = isHexColor(colour);
    return (
      <Box
        data-testid={`preview-${label.toLowerCase()}`}
        px="sm"
        py={6}
        style={{
          borderRadius: 4,
          background: valid ? colour : "#eeeeee",
          color: valid ? contrastText(colour) : "#000000",
          border: "1px solid #ddd",
          fontSize: 13,
        }}
      >
        {label} {valid ? colour : "(invalid)"}
      </Box>
    );
  };
  const header = isHexColor(style.color_tertiary) ? style.color_tertiary : "#eeeeee";
  return (
    <Stack gap={6} aria-label="Preview">
      <Text size="sm" fw={500}>
        Preview
      </Text>
      <Box px="md" py={8} style={{ borderRadius: 4, background: header, color: contrastText(header), fontWeight: 700 }}>
        {style.company_name || "—"}
      </Box>
      <Group gap="xs">
        {swatch(style.color_primary, "Primary")}
        {swatch(style.color_secondary, "Secondary")}
        {swatch(style.color_tertiary, "Tertiary")}
      </Group>
    </Stack>
  );
}
