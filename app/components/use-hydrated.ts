import { useEffect, useState } from "react";

/**
 * False on the server and in the first browser render (so hydration matches the server's HTML),
 * true from then on: controls that need JavaScript replace their no-JavaScript fallbacks.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
