/** The query of api/asrelations/: an optional month (YYYY-MM, UTC); the current month when absent. */
import { z } from "zod";

export const asRelationsQuerySchema = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "A month as YYYY-MM, e.g. 2026-11.")
    .optional(),
});

/** The month's first second and the next month's (unix seconds, UTC). */
export function monthRange(month: string): { start: number; end: number } {
  const [y, m] = month.split("-").map(Number);
  return { start: Date.UTC(y, m - 1, 1) / 1000, end: Date.UTC(y, m, 1) / 1000 };
}

export function currentMonth(now = new Date()): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
}
