import { BROWSER_MINIMUMS } from "./constants";

/** Chrome/Chromium 129+ and Firefox 128+ are supported (shell §5); others get a warning, never a block. */
export function browserSupport(userAgent: string | null): { supported: boolean; browser: string | null; version: number | null } {
  if (!userAgent) return { supported: true, browser: null, version: null };
  const firefox = /Firefox\/(\d+)/.exec(userAgent);
  if (firefox) return { supported: Number(firefox[1]) >= BROWSER_MINIMUMS.firefox, browser: "Firefox", version: Number(firefox[1]) };
  const chrome = /(?:Chrome|Chromium|HeadlessChrome)\/(\d+)/.exec(userAgent);
  if (chrome && !/Edg\//.test(userAgent))
    return { supported: Number(chrome[1]) >= BROWSER_MINIMUMS.chrome, browser: "Chrome", version: Number(chrome[1]) };
  return { supported: false, browser: null, version: null };
}

export const INCOMPATIBLE_BROWSER_MESSAGE =
  "Your browser is not supported. flowlens is made for Chrome or Chromium 129 or newer and Firefox 128 or newer; some screens may not work as intended.";

/** The route handle of a screen whose interactive parts (charts, pickers, tables) need a supported browser. */
export const MODERN_BROWSER_HANDLE = { needsModernBrowser: true } as const;

/** Whether any of the matched routes' handles asks for a modern browser. */
export function needsModernBrowser(handles: unknown[]): boolean {
  return handles.some((h) => typeof h === "object" && h !== null && (h as { needsModernBrowser?: unknown }).needsModernBrowser === true);
}
