/**
 * Whether a request was started by this application's own pages (or by the user typing the
 * address), as opposed to another site: a link, image or form elsewhere that makes the browser
 * call a GET which changes state (the spec's GET /logout).
 *
 * Browsers send Sec-Fetch-Site: "same-origin" for the app's own links and server redirects that
 * stayed within the app (the guard's /logout?reason=no-permissions), "none" when the user typed
 * the address or used a bookmark. Browsers without it (older ones, text browsers) are judged by
 * Origin, then Referer, compared by host with the address the request was sent to. Nothing at all
 * counts as foreign: the caller then confirms with one button.
 */
export function isSameOriginRequest(request: Request): boolean {
  const site = request.headers.get("Sec-Fetch-Site");
  if (site) return site === "same-origin" || site === "none";
  const own = new URL(request.url).host;
  for (const header of ["Origin", "Referer"]) {
    const value = request.headers.get(header);
    if (!value || value === "null") continue;
    try {
      return new URL(value).host === own;
    } catch {
      return false;
    }
  }
  return false;
}
