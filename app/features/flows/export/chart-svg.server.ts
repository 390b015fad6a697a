/**
 * The Flow Explorer's chart as an SVG file, rendered on the server by the very components of the
 * screen (ui/charts.tsx, nivo renders plain SVG without a browser); the PNG export rasterises it
 * (features/shared/export/png.server.ts).
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { TimeseriesSvg, type SankeyData, type TimeseriesData } from "../ui/charts";
import { SankeyDiagram } from "../ui/sankey-chart";
import type { PreviousTotals } from "../ui/timeseries-extras";

export type ChartInput =
  | { kind: "timeseries"; timeseries: TimeseriesData; timezone: string; window?: number | null; previous?: PreviousTotals | null }
  | { kind: "sankey"; sankey: SankeyData; stages?: readonly string[] };

/**
 * The timeseries chart's <svg> as the screen shows it before its interactive version has loaded:
 * rendered here, on the server, and put into the page as markup (keepForRender), so its data do not
 * travel a second time as loader data. Empty when nothing is drawn.
 */
export function screenTimeseriesMarkup(chart: Omit<Extract<ChartInput, { kind: "timeseries" }>, "kind">): string {
  return renderToStaticMarkup(createElement(TimeseriesSvg, chart));
}

/** What the image says above the chart: the screen and dimension, then the range with its timezone and what is counted. */
export type ChartCaption = { title: string; lines: readonly string[] };

const CAPTION_LINE = 18;

const xml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The standalone SVG document of the chart (the <svg> element the screen shows, with an XML
 * declaration), under its caption: a file passed on must say what it shows without the screen.
 */
export function chartSvg(chart: ChartInput, caption: ChartCaption): string {
  const markup = renderToStaticMarkup(
    chart.kind === "timeseries"
      ? createElement(TimeseriesSvg, {
          timeseries: chart.timeseries,
          timezone: chart.timezone,
          window: chart.window,
          previous: chart.previous,
        })
      : createElement(SankeyDiagram, { sankey: chart.sankey, stages: chart.stages }),
  );
  const start = markup.indexOf("<svg");
  const end = markup.lastIndexOf("</svg>");
  // The callers check for data first; a chart without data renders a text, not an <svg>.
  if (start < 0 || end < 0) throw new Error("The chart rendered no SVG");
  const chartMarkup = markup.slice(start, end + "</svg>".length);
  const width = Number(/width="(\d+)"/.exec(chartMarkup)?.[1] ?? 1000);
  const height = Number(/height="(\d+)"/.exec(chartMarkup)?.[1] ?? 400);
  const top = 30 + caption.lines.length * CAPTION_LINE;
  const text = [
    `<text x="16" y="24" font-family="sans-serif" font-size="16" font-weight="600" fill="#1a1a1a">${xml(caption.title)}</text>`,
    ...caption.lines.map(
      (line, i) =>
        `<text x="16" y="${24 + (i + 1) * CAPTION_LINE}" font-family="sans-serif" font-size="12" fill="#333333">${xml(line)}</text>`,
    ),
  ].join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height + top}" viewBox="0 0 ${width} ${height + top}"><rect width="100%" height="100%" fill="white"/>${text}<g transform="translate(0, ${top})">${chartMarkup}</g></svg>\n`;
}
