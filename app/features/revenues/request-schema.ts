/** The body of POST api/revenue_cost/ (spec: {month, year}); the range checks (1–12, not future, not before any data) are the service's. */
import { z } from "zod";

export const revenueCostBodySchema = z
  .object({
    month: z.number({ message: "month must be a whole number from 1 to 12" }).int("month must be a whole number from 1 to 12"),
    year: z.number({ message: "year must be a whole number" }).int("year must be a whole number"),
  })
  .strict();
