import { Alert, Text } from "@mantine/core";
import { Sankey } from "@nivo/sankey";
import { formatBitsPerSecond } from "~/lib/units";
import { describeSankey } from "./chart-descriptions";
import type { SankeyData } from "./charts";
import { CHART_WIDTH, OTHERS_COLOR, PALETTE } from "./chart-style";
import { SankeyLinkTooltip, SankeyNodeTooltip, SankeyStages, SankeyTable, sankeyLabel, SANKEY_LABEL_COLOR } from "./sankey-extras";

/*
 * The Sankey chart apart from the timeseries chart (charts.tsx): a screen imports it lazily
 * (lazy-charts.ts), so a timeseries view loads no Sankey code.
 */

/**
 * A Sankey of two or more dimensions (node ids are dimension:key, labels the names with their
 * bit/s). `stages`: the heading of each column. Hovering a node or a link shows its value; the
 * table below lists every link with its value, also without JavaScript.
 */
export function SankeyChart({
  sankey,
  error,
  height = 480,
  stages,
}: {
  sankey: SankeyData | null | undefined;
  error?: string | null;
  height?: number;
  stages?: readonly string[];
}) {
  if (error) {
    return (
      <Alert color="yellow" title="Sankey" data-testid="sankey-error">
        {error}
      </Alert>
    );
  }
  if (!sankey || !sankey.links.length) return <Text c="dimmed">No traffic in this range.</Text>;
  return (
    <div>
      <div data-testid="sankey-chart" style={{ overflowX: "auto" }}>
        <SankeyDiagram sankey={sankey} height={height} stages={stages} />
      </div>
      <SankeyTable sankey={sankey} stages={stages} />
    </div>
  );
}

/** The Sankey's SVG alone (no Mantine components: the image export renders it without a provider). */
export function SankeyDiagram({ sankey, height = 480, stages }: { sankey: SankeyData; height?: number; stages?: readonly string[] }) {
  const names = new Map(sankey.nodes.map((n) => [n.id, n.name]));
  const colorOf = new Map(sankey.nodes.map((n, i) => [n.id, n.color || PALETTE[i % PALETTE.length]]));
  const top = stages?.length ? 34 : 10;
  return (
    <Sankey
      role="img"
      ariaLabel={describeSankey(sankey)}
      width={CHART_WIDTH}
      height={height + top - 10}
      animate={false}
      data={{ nodes: sankey.nodes.map((n) => ({ id: n.id })), links: sankey.links.map((l) => ({ ...l })) }}
      margin={{ top, right: 220, bottom: 10, left: 220 }}
      label={(n) => sankeyLabel(names.get(String(n.id)) ?? String(n.id), n.value)}
      valueFormat={(v) => formatBitsPerSecond(Number(v))}
      colors={(node) => colorOf.get(String(node.id)) ?? OTHERS_COLOR}
      nodeOpacity={1}
      linkOpacity={0.4}
      enableLinkGradient={false}
      labelPosition="outside"
      labelTextColor={SANKEY_LABEL_COLOR}
      nodeBorderWidth={0}
      nodeTooltip={SankeyNodeTooltip}
      linkTooltip={SankeyLinkTooltip}
      layers={["links", "nodes", "labels", ...(stages?.length ? [SankeyStages(stages)] : []), "legends"]}
    />
  );
}
