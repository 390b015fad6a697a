/** The flows charts' size and colours, shared by the timeseries and the Sankey chart (each loaded on its own). */

export const CHART_WIDTH = 1000;
export const CHART_HEIGHT = 360;

/**
 * d3's category10: one colour per top value; the folded rest ("Others") is grey so no value shares
 * its colour. A value whose mapping gives it a colour (the AS, application and infrastructure
 * mappings) is drawn in that colour.
 */
export const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
export const OTHERS_COLOR = "#c8c8c8";
