/**
 * "This vantage point's routing table changed": the BMP station says so after it wrote an
 * End-of-RIB's sweep, a peer's withdrawal or a batch of updates; a flow collector running in the
 * same process listens and reloads the enrichment tables of those vantage points, so flows are
 * enriched with the live table within seconds instead of at the next minute's reload. Requests are
 * gathered for DEBOUNCE_MS after the first one (a burst of updates is one reload). In-process only:
 * a collector in another process reloads on its own schedule (every minute).
 */

export const DEBOUNCE_MS = 3_000;

type Listener = (vantagePoints: string[]) => void;

const holder = globalThis as unknown as { __flowlensRoutingRefresh?: { listeners: Set<Listener>; pending: Set<string> } };
const state = (holder.__flowlensRoutingRefresh ??= { listeners: new Set(), pending: new Set() });
let timer: NodeJS.Timeout | null = null;

/** Asks the collectors of this process to reload the tables of `vantagePoint` (debounced). */
export function requestRoutingRefresh(vantagePoint: string, debounceMs = DEBOUNCE_MS): void {
  if (!state.listeners.size) return;
  state.pending.add(vantagePoint);
  if (timer) return;
  timer = setTimeout(() => {
    timer = null;
    const vantagePoints = [...state.pending].sort();
    state.pending.clear();
    for (const listener of state.listeners) listener(vantagePoints);
  }, debounceMs);
  timer.unref();
}

/** Listens for refresh requests; returns the removal. */
export function onRoutingRefresh(listener: Listener): () => void {
  state.listeners.add(listener);
  return () => {
    state.listeners.delete(listener);
    if (!state.listeners.size) state.pending.clear();
  };
}
