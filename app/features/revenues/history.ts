/** The 12-month history of Revenues & Costs as the screen shows it (isomorphic: the loader fills it, the view reads it). */

/** One month of the history: its totals in EUR (for the chart) and as people read them (for the table). */
export type HistoryRow = {
  key: string;
  label: string;
  closed: boolean;
  /** Null: no bill this month (before any data). */
  costEur: number | null;
  revenueEur: number | null;
  marginEur: number | null;
  cost: string;
  revenue: string;
  margin: string;
};

/** How many months the history shows, the asked month the last (URL history=12). */
export const HISTORY_MONTHS = 12;
