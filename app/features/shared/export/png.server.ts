/**
 * An SVG document rasterised to PNG with resvg (@resvg/resvg-js: a native renderer shipped as
 * prebuilt packages per platform, no browser or canvas needed): the PNG export of every tool's
 * chart or table image. Fonts come from the system; DejaVu Sans / Liberation Sans are the fallbacks
 * of a Debian machine when an SVG's "sans-serif" has no match.
 */
import { Resvg } from "@resvg/resvg-js";

/** PNGs are drawn at twice the SVG's size so the 11 px labels stay legible when zoomed. */
export const PNG_SCALE = 2;

export function svgToPng(svg: string): Uint8Array<ArrayBuffer> {
  const resvg = new Resvg(svg, {
    background: "white",
    fitTo: { mode: "zoom", value: PNG_SCALE },
    font: { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans", sansSerifFamily: "DejaVu Sans" },
  });
  return new Uint8Array(resvg.render().asPng());
}
