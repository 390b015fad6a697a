import { describe, expect, it } from "vitest";
import { parsePlainMarkup } from "~/lib/plain-markup";

describe("plain markup of the legal pages", () => {
  it("makes headings, paragraphs with their line breaks, and lists", () => {
    expect(
      parsePlainMarkup("# Operator\nExample Carrier GmbH\nMain street 1\n\n- Phone: 123\n- Mail: a@b.example\n\n## Register\nHRB 1"),
    ).toEqual([
      { kind: "heading", text: "Operator" },
      { kind: "paragraph", lines: ["Example Carrier GmbH", "Main street 1"] },
      { kind: "list", items: ["Phone: 123", "Mail: a@b.example"] },
      { kind: "heading", text: "Register" },
      { kind: "paragraph", lines: ["HRB 1"] },
    ]);
  });

  it("keeps HTML as text to be shown, and ignores blank input", () => {
    expect(parsePlainMarkup('<img src=x onerror="alert(1)">')).toEqual([{ kind: "paragraph", lines: ['<img src=x onerror="alert(1)">'] }]);
    expect(parsePlainMarkup(" \r\n\r\n ")).toEqual([]);
  });
});
