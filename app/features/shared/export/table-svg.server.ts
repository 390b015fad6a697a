/**
 * A sheet (~/lib/sheet) as an SVG image of its table, for the tools' table images (the Looking
 * Glass's PNG export rasterises it with png.server.ts).
 */
import type { Sheet } from "~/lib/sheet";

/** A header row and one line per row, monospaced so columns align. */
export function tableSvg(sheet: Sheet): string {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const texts = [sheet.columns.map((c) => c.header), ...sheet.rows.map((r) => r.map(String))];
  const widths = sheet.columns.map((_, i) => Math.min(60, Math.max(...texts.map((t) => t[i].length))) + 2);
  const charPx = 7.2;
  const rowPx = 18;
  const width = Math.ceil(widths.reduce((a, w) => a + w, 0) * charPx) + 20;
  const height = texts.length * rowPx + 20;
  const lines = texts.map((t, r) => {
    let x = 10;
    const cells = t.map((cell, i) => {
      const out = `<text x="${x.toFixed(1)}" y="${10 + (r + 1) * rowPx - 5}"${r === 0 ? ' font-weight="bold"' : ""}>${esc(cell.slice(0, 60))}</text>`;
      x += widths[i] * charPx;
      return out;
    });
    const band = r > 0 && r % 2 === 0 ? `<rect x="0" y="${10 + r * rowPx}" width="${width}" height="${rowPx}" fill="#f1f3f5"/>` : "";
    return band + cells.join("");
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="DejaVu Sans Mono, monospace" font-size="12"><rect width="100%" height="100%" fill="white"/>${lines.join("")}</svg>\n`;
}
