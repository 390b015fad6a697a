import { RateLimiter } from "./bounded-maps.server";

/**
 * Client error reports (POST api/error_report/) a client may send: per user (or per client address
 * for callers without a login) 10 a minute — a page that fails in a loop reports the same error over
 * and over, and each report is a row and a log line. In a .server module: a route module may export
 * only loader/action/headers that use server code, or the browser build refuses it.
 */
export const ERROR_REPORT_RATE = { windowMs: 60_000, perAddress: 10, withoutAddress: 30 } as const;
export const errorReportLimiter = new RateLimiter(ERROR_REPORT_RATE);
