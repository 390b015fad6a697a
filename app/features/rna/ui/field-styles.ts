/**
 * A field with an error keeps its value in the text colour and says the error in a darker red than
 * Mantine's default, which is below WCAG AA's 4.5:1 on white (the screen's axe scan shows a prefix
 * out of range).
 */
export const READABLE_ERROR = {
  input: { color: "var(--mantine-color-text)" },
  error: { color: "var(--mantine-color-red-9)" },
} as const;
