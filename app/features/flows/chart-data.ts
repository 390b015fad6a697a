/**
 * How a flows screen's page and its chart meet (explorer.server.ts, ui/ScreenTimeseries.tsx).
 * Isomorphic.
 */

/**
 * The search parameter of the screen's own request for its chart's data: the loader then answers
 * with the whole timeseries, which the screen's page leaves out (its chart is markup).
 */
export const CHART_DATA_PARAM = "chartData";

/** The key of the timeseries chart's server-rendered markup (keepForRender of the request scope). */
export const TIMESERIES_MARKUP = "flows.timeseriesMarkup";
