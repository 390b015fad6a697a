/**
 * The planners' charts' sizes, shared by the charts (ui/PlannerCharts.tsx) and the loader, which
 * sends a chart only as many points as its plot has pixel columns (app/lib/series-thinning.ts).
 */

/** Width of the traffic chart and of a link's utilisation chart (px). */
export const CHART_WIDTH = 1000;

export const TRAFFIC_CHART_MARGIN = { top: 10, right: 110, bottom: 40, left: 80 } as const;
export const UTILISATION_CHART_MARGIN = { top: 10, right: 110, bottom: 40, left: 60 } as const;

/** The pixel columns of a chart's plot: its width without the axes' and legend's margins. */
export const plotColumns = (margin: { left: number; right: number }) => CHART_WIDTH - margin.left - margin.right;
