import { Line } from "@nivo/line";
import type { HistoryRow } from "../history";
import { formatEur } from "../format";

/**
 * Cost and revenue over the months of the history as lines (EUR); months without a bill are gaps. Loaded lazily:
 * only a page that asks for the history fetches nivo, and the table stays beside it as its text.
 */
export function HistoryChart({ rows }: { rows: readonly HistoryRow[] }) {
  const series = (id: string, pick: (r: HistoryRow) => number | null) => ({ id, data: rows.map((r) => ({ x: r.key, y: pick(r) })) });
  const data = [series("Cost", (r) => r.costEur), series("Revenue", (r) => r.revenueEur)];
  const billed = rows.filter((r) => r.costEur !== null);
  const words = billed.length
    ? `Cost and revenue from ${billed[0].label} to ${billed[billed.length - 1].label}; the latest: cost ${billed[billed.length - 1].cost}, revenue ${billed[billed.length - 1].revenue}.`
    : "No month with a bill.";
  return (
    <div style={{ overflowX: "auto" }} data-testid="history-chart" tabIndex={0} role="region" aria-label="Cost and revenue by month">
      <Line
        role="img"
        ariaLabel={words}
        width={900}
        height={280}
        animate={false}
        data={data}
        margin={{ top: 10, right: 120, bottom: 40, left: 90 }}
        xScale={{ type: "point" }}
        yScale={{ type: "linear", min: 0, max: "auto" }}
        colors={["#c92a2a", "#2b8a3e"]}
        pointSize={6}
        axisLeft={{ tickValues: 5, format: (v) => formatEur(Number(v)) }}
        axisBottom={{ format: (v) => String(v) }}
        legends={[{ anchor: "top-right", direction: "column", translateX: 110, itemWidth: 100, itemHeight: 18, symbolSize: 10 }]}
      />
    </div>
  );
}
