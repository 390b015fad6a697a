import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "~/server/password.server";

describe("password hashing", () => {
  it("verifies the right password only, with a fresh salt each time", async () => {
    const first = await hashPassword("correct horse");
    const second = await hashPassword("correct horse");
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword("correct horse", first)).toBe(true);
    expect(await verifyPassword("correct hors", first)).toBe(false);
    expect(await verifyPassword("correct horse", null)).toBe(false);
    expect(await verifyPassword("correct horse", "plain$text")).toBe(false);
  });
});
