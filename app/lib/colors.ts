import type { MantineColorsTuple } from "@mantine/core";

/** Spec defaults (shell §9). */
export const DEFAULT_COLORS = { primary: "#137cbd", secondary: "#5c7080", tertiary: "#394b59" } as const;
/** Above this relative luminance a colour counts as light and takes dark text (shell §9: 0.8). */
export const CONTRAST_THRESHOLD = 0.8;

const HEX = /^#([0-9a-f]{6})$/i;

export function isHexColor(value: string): boolean {
  return HEX.test(value);
}

function channels(hex: string): [number, number, number] {
  const value = parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/** WCAG relative luminance, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Text colour for a background: dark on light colours, white otherwise. */
export function contrastText(background: string): "#000000" | "#ffffff" {
  return isHexColor(background) && relativeLuminance(background) > CONTRAST_THRESHOLD ? "#000000" : "#ffffff";
}

function mix(hex: string, target: number, amount: number): string {
  return (
    "#" +
    channels(hex)
      .map((c) => Math.round(c + (target - c) * amount).toString(16).padStart(2, "0"))
      .join("")
  );
}

/** Ten Mantine shades around a brand colour (index 6 is the colour itself). */
export function shadesOf(hex: string): MantineColorsTuple {
  const base = isHexColor(hex) ? hex.toLowerCase() : DEFAULT_COLORS.primary;
  const lighter = [0.92, 0.8, 0.65, 0.5, 0.32, 0.16].map((a) => mix(base, 255, a));
  const darker = [0.15, 0.3, 0.45].map((a) => mix(base, 0, a));
  return [...lighter, base, ...darker] as unknown as MantineColorsTuple;
}
