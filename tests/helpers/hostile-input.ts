/**
 * Hostile input for the fuzz tests (fuzz-api.test.ts: the JSON operations; fuzz-screens.test.ts:
 * the screens' GET parameters and forms): NUL and other control characters, CR/LF, huge strings,
 * unicode and lone surrogates, path traversal, SQL fragments, dates that do not exist, huge,
 * negative and fractional numbers.
 */
import fc from "fast-check";

export const hostileString = fc.oneof(
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\r\nSet-Cookie: x=1",
    "line\nINFO forged log line",
    "\t=cmd|' /C calc'!A0",
    "../../../../etc/passwd",
    "..%2F..%2Fetc%2Fpasswd",
    "' OR '1'='1' --",
    "1; DROP TABLE users; --",
    "'); SELECT sleep(10); --",
    "%00",
    "%",
    "\ud800",
    "\udfff\ud800",
    "\u202e\u0301",
    "😀".repeat(50),
    "",
    " ",
    "null",
    "-1",
    "2147483648",
    "99999999999999999999",
    "1e308",
    "NaN",
    "0x10",
    "#1",
    "#g1",
    "!",
    "AS",
    "::",
    "[]",
    "{}",
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 10 }),
  fc.nat({ max: 3 }).map((n) => "x".repeat([1_000, 10_000, 100_000, 300_000][n])),
);

export const hostileNumber = fc.oneof(
  fc.constantFrom(2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 53 + 2, -1, 0, -0, 0.5, -101.5, 1e308, -1e308, 4294967296, 1e-9),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Dates and times that do not exist or that no store holds. */
export const hostileDate = fc.oneof(
  fc.constantFrom(
    "2026-02-30",
    "2026-13-01T00:00:00Z",
    "0000-00-00",
    "9999-12-31T23:59:59Z",
    "+275760-09-13T00:00:00.001Z",
    "-271821-04-20",
    "1969-12-31T23:59:59Z",
    "2026-11-25T25:61",
    "1764028800000000",
    "now-1d",
  ),
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString()),
);

/** One text value of a URL parameter or form field: any of the above, written as text. */
export const hostileText = fc.oneof(hostileString, hostileString, hostileNumber.map(String), hostileDate);
