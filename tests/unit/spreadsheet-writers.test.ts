/**
 * SheetJS (`xlsx` 0.18.5) stays a writer (docs/decisions/012-spreadsheet-writers.md): its known advisories are in
 * its parsers, so no application module may read a spreadsheet with it, and only the export module imports it.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const APP = join(__dirname, "../../app");
const EXPORT_MODULE = "features/shared/export/spreadsheet.server.ts";

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(name) ? [{ path: relative(APP, full), text: readFileSync(full, "utf8") }] : [];
  });
}

const IMPORTS_SHEETJS = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)["']xlsx["']/;
const SHEETJS_READERS = /\bXLSX\s*\.\s*(?:read|readFile)\b|\butils\s*\.\s*sheet_to_\w+/;

describe("the spreadsheet writers", () => {
  const files = sources(APP);

  it("only the export module imports SheetJS", () => {
    expect(files.filter((f) => IMPORTS_SHEETJS.test(f.text)).map((f) => f.path)).toEqual([EXPORT_MODULE]);
  });

  it("the export module never calls a SheetJS reader", () => {
    const text = files.find((f) => f.path === EXPORT_MODULE)!.text;
    expect(text).toMatch(/XLSX\.write\(/);
    expect(text).not.toMatch(SHEETJS_READERS);
  });

  it("the patterns catch what they are meant to", () => {
    expect(IMPORTS_SHEETJS.test('import XLSX from "xlsx";')).toBe(true);
    expect(IMPORTS_SHEETJS.test("const x = await import('xlsx')")).toBe(true);
    expect(IMPORTS_SHEETJS.test('import X from "xlsx-other";')).toBe(false);
    expect(SHEETJS_READERS.test("XLSX.read(buffer)")).toBe(true);
    expect(SHEETJS_READERS.test("XLSX.utils.sheet_to_json(ws)")).toBe(true);
    expect(SHEETJS_READERS.test("XLSX.write(wb, {})")).toBe(false);
  });
});
