import type { LookingGlassRow } from "~/features/routing/route-columns";
import type { RunState } from "./status";

/** The table rows of a run: every vantage point's rows in the order the answers came. */
export function flattenRunRows(run: RunState<LookingGlassRow>): LookingGlassRow[] {
  return run.outcomes.flatMap((o) => ("rows" in o ? o.rows : []));
}
