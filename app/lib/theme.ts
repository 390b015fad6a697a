import {
  createTheme,
  defaultVariantColorsResolver,
  Input,
  Notification,
  parseThemeColor,
  type CSSVariablesResolver,
  type VariantColorsResolver,
} from "@mantine/core";
import { accessibleColorVariables, colorRoles, DEFAULT_COLORS, shadesOf } from "./colors";
import classes from "./theme.module.css";

type ThemeStyle = { colorPrimary: string; colorSecondary: string; font: string | null };

/**
 * Filled variants of theme colours take the text colour that reads on them (white, or black on
 * colours too light for white); Mantine would paint white on every one.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if ((input.variant ?? "filled") !== "filled") return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor || parsed.shade !== undefined) return colors;
  return { ...colors, color: colorRoles(input.theme.colors[parsed.color]).filledText };
};

/** The Mantine theme of a site style: the primary colour as "brand", the branded font when chosen. */
export function themeOf(style: ThemeStyle | undefined) {
  return createTheme({
    primaryColor: "brand",
    colors: { brand: shadesOf(style?.colorPrimary ?? DEFAULT_COLORS.primary) },
    variantColorResolver,
    components: {
      Input: Input.extend({ classNames: { input: classes.input } }),
      Notification: Notification.extend({
        classNames: { description: classes.notificationDescription },
        defaultProps: { closeButtonProps: { "aria-label": "Close" } },
      }),
    },
    // Only the branded font replaces Mantine's system font stack (an undefined value would erase it).
    ...(style?.font === "TeleGroteskNext" ? { fontFamily: "TeleGroteskNext, system-ui, sans-serif" } : {}),
  });
}

/** Light-scheme colour variables whose text reaches WCAG AA contrast (see accessibleColorVariables). */
export function cssVariablesResolverOf(style: ThemeStyle | undefined): CSSVariablesResolver {
  return (theme) => ({
    variables: {},
    light: accessibleColorVariables(theme.colors, theme.primaryColor, style?.colorSecondary ?? DEFAULT_COLORS.secondary),
    dark: {},
  });
}
