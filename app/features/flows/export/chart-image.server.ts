/**
 * The Flow Explorer's chart as an image file: SVG rendered on the server by the very components of
 * the screen (ui/charts.tsx, nivo renders plain SVG without a browser), and PNG rasterised from that
 * SVG with resvg (@resvg/resvg-js: a native renderer shipped as prebuilt packages per platform, no
 * browser or canvas needed). Fonts come from the system; DejaVu Sans / Liberation Sans are the
 * fallbacks of a Debian machine when nivo's "sans-serif" has no match.
 */
import { Resvg } from "@resvg/resvg-js";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { SankeyChart, TimeseriesChart, type SankeyData, type TimeseriesData } from "../ui/charts";

export type ChartInput = { kind: "timeseries"; timeseries: TimeseriesData; timezone: string } | { kind: "sankey"; sankey: SankeyData };

/** PNGs are drawn at twice the chart's size so the 11 px labels stay legible when zoomed. */
export const PNG_SCALE = 2;

/** The standalone SVG document of the chart (the <svg> element the screen shows, with an XML declaration). */
export function chartSvg(chart: ChartInput): string {
  const markup = renderToStaticMarkup(
    chart.kind === "timeseries" ? createElement(TimeseriesChart, { timeseries: chart.timeseries, timezone: chart.timezone }) : createElement(SankeyChart, { sankey: chart.sankey }),
  );
  const start = markup.indexOf("<svg");
  const end = markup.lastIndexOf("</svg>");
  // The callers check for data first; a chart without data renders a text, not an <svg>.
  if (start < 0 || end < 0) throw new Error("The chart rendered no SVG");
  return `<?xml version="1.0" encoding="UTF-8"?>\n${markup.slice(start, end + "</svg>".length)}\n`;
}

export function chartPng(svg: string): Uint8Array<ArrayBuffer> {
  const resvg = new Resvg(svg, {
    background: "white",
    fitTo: { mode: "zoom", value: PNG_SCALE },
    font: { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans", sansSerifFamily: "DejaVu Sans" },
  });
  return new Uint8Array(resvg.render().asPng());
}
