import { describe, expect, it } from "vitest";
import { EMAIL_MAX_LENGTH, isValidEmail, normalizeEmail } from "~/lib/email";

describe("isValidEmail (shell §5: standard address, top-level part of 2 or more letters)", () => {
  it.each([
    "user@example.com",
    "first.last@example.co",
    "delegated@flowlens.example",
    "a+tag@sub.domain.example.org",
    "o'brien@example.ie",
    "x_y-z@my-host.example.de",
    "UPPER@EXAMPLE.COM",
    "1234@123.example.info",
  ])("accepts %s", (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    ["empty", ""],
    ["no @", "user.example.com"],
    ["no local part", "@example.com"],
    ["no domain", "user@"],
    ["no top-level part", "user@localhost"],
    ["one-letter top-level part", "user@example.c"],
    ["digits in the top-level part", "user@example.c0m"],
    ["numeric top-level part", "user@192.168.0.1"],
    ["two @", "user@@example.com"],
    ["@ in the local part", "us@er@example.com"],
    ["blank inside", "us er@example.com"],
    ["surrounding blanks", " user@example.com "],
    ["leading dot", ".user@example.com"],
    ["trailing dot in the local part", "user.@example.com"],
    ["double dot in the local part", "us..er@example.com"],
    ["empty domain label", "user@example..com"],
    ["domain label starting with a hyphen", "user@-example.com"],
    ["domain label ending with a hyphen", "user@example-.com"],
    ["trailing dot in the domain", "user@example.com."],
    ["address literal", "user@[192.168.0.1]"],
    ["quoted local part", '"user"@example.com'],
    ["angle brackets", "<user@example.com>"],
  ])("rejects %s", (_label, email) => {
    expect(isValidEmail(email)).toBe(false);
  });

  it("rejects non-strings and over-long addresses", () => {
    expect(isValidEmail(undefined)).toBe(false);
    expect(isValidEmail(null)).toBe(false);
    expect(isValidEmail(42)).toBe(false);
    expect(isValidEmail(`${"a".repeat(65)}@example.com`)).toBe(false);
    const longDomain = `${"d".repeat(60)}.`.repeat(4) + "com";
    expect(isValidEmail(`a@${longDomain}`)).toBe(EMAIL_MAX_LENGTH >= `a@${longDomain}`.length);
    expect(isValidEmail(`a@${"d".repeat(64)}.com`)).toBe(false);
  });

  it("normalizes for storage and comparison", () => {
    expect(normalizeEmail("  Dana.Delegated@FlowLens.Example ")).toBe("dana.delegated@flowlens.example");
  });
});
