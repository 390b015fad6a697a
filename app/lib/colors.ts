import type { MantineColorsTuple } from "@mantine/core";

/** Spec defaults (shell §9). */
export const DEFAULT_COLORS = { primary: "#137cbd", secondary: "#5c7080", tertiary: "#394b59" } as const;

/** WCAG 2.1 AA minimum contrast for normal-size text (success criterion 1.4.3). */
export const MIN_TEXT_CONTRAST = 4.5;

/**
 * Text that warns without alarming (a range adjusted, a profile missing): an orange that reads on
 * the light surfaces (5.6:1 on white). Mantine's orange.8 and orange.9 fall short of 4.5:1.
 */
export const WARNING_TEXT = "#b8400b";

const HEX = /^#([0-9a-f]{6})$/i;
const WHITE = "#ffffff";
const BLACK = "#000000";

export function isHexColor(value: string): boolean {
  return HEX.test(value);
}

function channels(hex: string): [number, number, number] {
  const value = parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex(rgb: number[]): string {
  return (
    "#" +
    rgb
      .map((c) =>
        Math.round(Math.min(255, Math.max(0, c)))
          .toString(16)
          .padStart(2, "0"),
      )
      .join("")
  );
}

/** WCAG relative luminance, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two opaque colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/**
 * Text colour for a background: white when white reads at 4.5:1 (the look of the brand's buttons
 * and header), otherwise black. The spec's luminance threshold of 0.8 would put white text on
 * mid-light colours such as #c0c0c0 (1.8:1), so the WCAG ratio decides instead; one of the two
 * always reaches 4.5:1.
 */
export function contrastText(background: string): "#000000" | "#ffffff" {
  if (!isHexColor(background)) return BLACK;
  return contrastRatio(WHITE, background) >= MIN_TEXT_CONTRAST ? WHITE : BLACK;
}

function mix(hex: string, target: number, amount: number): string {
  return toHex(channels(hex).map((c) => c + (target - c) * amount));
}

/** `hex` laid over `background` with the given opacity, as the browser paints it. */
export function blend(hex: string, opacity: number, background: string): string {
  const bg = channels(background);
  return toHex(channels(hex).map((c, i) => c * opacity + bg[i] * (1 - opacity)));
}

/**
 * The colour itself when it reads at `min` on every background, otherwise the same hue darkened
 * towards black in small steps until it does (black itself reads on any light background).
 */
export function readableOn(hex: string, backgrounds: string[], min = MIN_TEXT_CONTRAST): string {
  const passes = (c: string) => backgrounds.every((bg) => contrastRatio(c, bg) >= min);
  for (let amount = 0; amount < 1; amount += 0.02) {
    const candidate = amount === 0 ? hex.toLowerCase() : mix(hex, 0, amount);
    if (passes(candidate)) return candidate;
  }
  return BLACK;
}

/** Ten Mantine shades around a brand colour (index 6 is the colour itself). */
export function shadesOf(hex: string): MantineColorsTuple {
  const base = isHexColor(hex) ? hex.toLowerCase() : DEFAULT_COLORS.primary;
  const lighter = [0.92, 0.8, 0.65, 0.5, 0.32, 0.16].map((a) => mix(base, 255, a));
  const darker = [0.15, 0.3, 0.45].map((a) => mix(base, 0, a));
  return [...lighter, base, ...darker] as unknown as MantineColorsTuple;
}

/** The shade Mantine paints filled, light and outline variants with (its default primaryShade). */
export const BASE_SHADE = 6;
/** Opacities of Mantine's light variant background and its hover state. */
const LIGHT_OPACITIES = [0.1, 0.12];
/** The light surfaces text sits on: white, and Mantine's gray.0 and gray.1 (page and table backgrounds). */
export const LIGHT_SURFACES = [WHITE, "#f8f9fa", "#f1f3f5"];

/**
 * What a theme colour paints with so that its text reaches 4.5:1 in the light scheme:
 * - filled: the base shade, or the first darker shade of the tuple that carries white text; a
 *   colour too light for white at every shade keeps its base shade and takes black text;
 * - light (tinted background, e.g. badges, alerts, the active menu item): the base shade darkened
 *   until it reads on its own tint and the hover tint;
 * - text and outline: the base shade darkened until it reads on the light surfaces.
 */
export type ColorRoles = { filled: string; filledHover: string; filledText: string; lightColor: string; text: string };

const rolesCache = new Map<string, ColorRoles>();

/** colorRoles, remembered per tuple: the theme asks for them on every render of a coloured component. */
export function colorRoles(shades: readonly string[]): ColorRoles {
  const key = shades.join();
  let roles = rolesCache.get(key);
  if (!roles) {
    roles = computeColorRoles(shades);
    if (rolesCache.size > 500) rolesCache.clear();
    rolesCache.set(key, roles);
  }
  return roles;
}

function computeColorRoles(shades: readonly string[]): ColorRoles {
  const base = shades[BASE_SHADE];
  let filledShade = BASE_SHADE;
  while (filledShade < 9 && contrastRatio(WHITE, shades[filledShade]) < MIN_TEXT_CONTRAST) filledShade++;
  if (contrastRatio(WHITE, shades[filledShade]) < MIN_TEXT_CONTRAST) filledShade = BASE_SHADE;
  const filled = shades[filledShade];
  const filledText = contrastText(filled);
  // Hover goes one shade darker under white text and one lighter under black text, keeping the contrast.
  const filledHover = filledText === WHITE ? shades[Math.min(9, filledShade + 1)] : shades[Math.max(0, filledShade - 1)];
  const tints = LIGHT_SURFACES.flatMap((surface) => LIGHT_OPACITIES.map((o) => blend(base, o, surface)));
  return {
    filled,
    filledHover,
    filledText,
    lightColor: readableOn(base, tints),
    text: readableOn(base, LIGHT_SURFACES),
  };
}

/**
 * Light-scheme CSS variables for every theme colour (they replace Mantine's, which paint text in
 * shade 6 whatever its contrast), the dimmed text colour derived from the style's secondary colour,
 * and links in the primary colour's readable text shade.
 */
export function accessibleColorVariables(
  colors: Record<string, readonly string[]>,
  primaryColor: string,
  secondary: string,
): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, shades] of Object.entries(colors)) {
    if (shades.length !== 10 || !shades.every(isHexColor)) continue;
    const roles = colorRoles(shades);
    Object.assign(variables, {
      [`--mantine-color-${name}-filled`]: roles.filled,
      [`--mantine-color-${name}-filled-hover`]: roles.filledHover,
      [`--mantine-color-${name}-light-color`]: roles.lightColor,
      [`--mantine-color-${name}-text`]: roles.text,
      [`--mantine-color-${name}-outline`]: roles.text,
    });
  }
  const primary = colors[primaryColor];
  if (primary) {
    const roles = colorRoles(primary);
    variables["--mantine-color-anchor"] = roles.text;
    variables["--mantine-primary-color-contrast"] = roles.filledText;
  }
  variables["--mantine-color-dimmed"] = readableOn(isHexColor(secondary) ? secondary : DEFAULT_COLORS.secondary, LIGHT_SURFACES);
  return variables;
}
