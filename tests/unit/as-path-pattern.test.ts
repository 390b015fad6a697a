import { describe, expect, it } from "vitest";
import { asPathRegex, asPathSubject, formatAsPathPattern, matchesAsPath, parseAsPathPattern } from "~/lib/as-path-pattern";
import { AS_PATH_CASES } from "../fixtures/as-path-cases";

describe("parseAsPathPattern", () => {
  it("reads AS numbers, ? and * with optional whitespace", () => {
    const parsed = parseAsPathPattern("  ?3356*  15169 ");
    expect(parsed.ok && formatAsPathPattern(parsed.tokens)).toBe("? 3356 * 15169");
    const empty = parseAsPathPattern("   ");
    expect(empty.ok && empty.tokens).toEqual([]);
    const zeros = parseAsPathPattern("0064500");
    expect(zeros.ok && formatAsPathPattern(zeros.tokens)).toBe("64500");
  });

  it.each(["AS3356", "3356,174", "3356 + 174", "^3356$", "(1|2)", "3356.5", "-1"])("refuses %s with a clear message", (pattern) => {
    const parsed = parseAsPathPattern(pattern);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(
      /^Invalid AS path pattern: use AS numbers, \? for exactly one AS and \* for any number of ASes/,
    );
  });

  it("refuses numbers beyond 32 bits", () => {
    expect(parseAsPathPattern("4294967295").ok).toBe(true);
    const parsed = parseAsPathPattern("4294967296");
    expect(!parsed.ok && parsed.error).toContain("4294967296 is larger than the largest AS number");
  });

  it("compiles to an anchored expression of digits, spaces and fixed tokens only", () => {
    const parsed = parseAsPathPattern("? 3356 *");
    expect(parsed.ok && asPathRegex(parsed.tokens)).toBe("^[0-9]+ 3356 (?:[0-9]+ )*$");
    expect(asPathSubject([3356, 15169])).toBe("3356 15169 ");
    expect(asPathSubject([])).toBe("");
  });
});

describe("pattern × path table (run on chDB too, in the Looking Glass integration test)", () => {
  it.each(AS_PATH_CASES)("%s on [%s] → %s", (pattern, path, expected) => {
    const parsed = parseAsPathPattern(pattern);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(matchesAsPath(parsed.tokens, path)).toBe(expected);
  });
});
