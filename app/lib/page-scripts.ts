/**
 * Pages that do not hydrate. A route whose page works as server-rendered HTML, and whose few
 * interactive touches a small script of its own provides, says so in its handle
 * (WITHOUT_APP_SCRIPTS_HANDLE): the root layout then renders none of the app's scripts for it — no
 * Remix <Scripts/> (module scripts, modulepreloads, the loader data), no <ScrollRestoration/>, no
 * hydration mark — only its CSS. The public Looking Glass is such a page: open to anyone, often
 * on a slow link, and complete without JavaScript (docs/decisions/014-public-pages-without-the-app-runtime.md).
 */
export const WITHOUT_APP_SCRIPTS_HANDLE = { appScripts: false } as const;

/** Whether the matched routes' handles let the page load the app's scripts (every page does, unless one says otherwise). */
export function loadsAppScripts(handles: unknown[]): boolean {
  return !handles.some((h) => typeof h === "object" && h !== null && (h as { appScripts?: unknown }).appScripts === false);
}
