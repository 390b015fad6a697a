import { useLocation, useMatches } from "@remix-run/react";
import { useEffect } from "react";
import { trackScreenView } from "~/lib/usage-tracking";

/**
 * Records each screen the user opens (a route change: the route path, never the URL with its
 * query) with the usage tracking, only when the user gave consent. Failures are silent.
 */
export function ScreenViewTracking({ consented }: { consented: boolean }) {
  const { pathname } = useLocation();
  const matches = useMatches();
  const hasParams = Object.keys(matches[matches.length - 1]?.params ?? {}).length > 0;
  useEffect(() => {
    void trackScreenView(consented, pathname, hasParams);
  }, [consented, pathname, hasParams]);
  return null;
}
