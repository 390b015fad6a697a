/**
 * What the Sankey charts add to nivo's: labels with the node's bit/s in a dark colour that reads on
 * the white page (nivo derives label colours from the node's, some of which are too light), column
 * headings, hover tooltips outside the chart's box, and the links as a table.
 */
import { Table } from "@mantine/core";
import type { CustomSankeyLayerProps, DefaultLink, DefaultNode, SankeyLinkDatum, SankeyNodeDatum } from "@nivo/sankey";
import { formatBitsPerSecond } from "~/lib/units";
import { FloatingTooltip } from "./FloatingTooltip";

/** Near-black: 16:1 against white, well above WCAG's 4.5:1. */
export const SANKEY_LABEL_COLOR = "#1a1a1a";

type Data = { nodes: readonly { id: string; name: string }[]; links: readonly { source: string; target: string; value: number }[] };

export const sankeyLabel = (name: string, bps: number) => `${name} · ${formatBitsPerSecond(bps)}`;

/** The heading of each column above its nodes (columns are nivo's layers: dimension 0, 1, …). */
export function SankeyStages(stages: readonly string[]) {
  return function Stages({ nodes }: CustomSankeyLayerProps<DefaultNode, DefaultLink>) {
    const columns = new Map<number, { x0: number; x1: number }>();
    for (const n of nodes) if (!columns.has(n.layer)) columns.set(n.layer, { x0: n.x0, x1: n.x1 });
    const last = Math.max(...columns.keys());
    return (
      <g data-testid="sankey-stages">
        {[...columns].map(([layer, c]) => (
          // The first column's heading starts at its nodes, the last one's ends there, the others are centred.
          <text
            key={layer}
            x={layer === 0 ? c.x0 : layer === last ? c.x1 : (c.x0 + c.x1) / 2}
            y={-14}
            textAnchor={layer === 0 ? "start" : layer === last ? "end" : "middle"}
            fontSize={13}
            fontWeight={600}
            fill={SANKEY_LABEL_COLOR}
          >
            {stages[layer] ?? ""}
          </text>
        ))}
      </g>
    );
  };
}

export function SankeyNodeTooltip({ node }: { node: SankeyNodeDatum<DefaultNode, DefaultLink> }) {
  return (
    <FloatingTooltip testId="sankey-tooltip">
      <strong>{node.label}</strong>
    </FloatingTooltip>
  );
}

export function SankeyLinkTooltip({ link }: { link: SankeyLinkDatum<DefaultNode, DefaultLink> }) {
  return (
    <FloatingTooltip testId="sankey-tooltip">
      {link.source.label.split(" · ")[0]} → {link.target.label.split(" · ")[0]}: <strong>{formatBitsPerSecond(link.value)}</strong>
    </FloatingTooltip>
  );
}

/** Every link with its value and its share of the traffic leaving its source column. */
export function SankeyTable({ sankey, stages }: { sankey: Data; stages?: readonly string[] }) {
  const names = new Map(sankey.nodes.map((n) => [n.id, n.name]));
  const column = new Map<string, number>();
  // Links join consecutive columns: a node that only receives sits one column after its sources.
  for (const l of sankey.links) if (!column.has(l.source)) column.set(l.source, 0);
  for (let changed = true; changed;) {
    changed = false;
    for (const l of sankey.links) {
      const next = (column.get(l.source) ?? 0) + 1;
      if ((column.get(l.target) ?? -1) < next) {
        column.set(l.target, next);
        changed = true;
      }
    }
  }
  const columnTotals = new Map<number, number>();
  for (const l of sankey.links) columnTotals.set(column.get(l.source) ?? 0, (columnTotals.get(column.get(l.source) ?? 0) ?? 0) + l.value);
  const rows = [...sankey.links].sort((a, b) => (column.get(a.source) ?? 0) - (column.get(b.source) ?? 0) || b.value - a.value);
  return (
    <Table striped withTableBorder mt="sm" data-testid="sankey-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>From</Table.Th>
          <Table.Th>To</Table.Th>
          <Table.Th ta="right">Traffic</Table.Th>
          <Table.Th ta="right">Share of the step</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((l) => {
          const step = column.get(l.source) ?? 0;
          const total = columnTotals.get(step) ?? 0;
          return (
            <Table.Tr key={`${l.source}→${l.target}`} data-value={l.value}>
              <Table.Td>
                {stages?.[step] ? `${stages[step]}: ` : ""}
                {names.get(l.source) ?? l.source}
              </Table.Td>
              <Table.Td>
                {stages?.[step + 1] ? `${stages[step + 1]}: ` : ""}
                {names.get(l.target) ?? l.target}
              </Table.Td>
              <Table.Td ta="right">{formatBitsPerSecond(l.value)}</Table.Td>
              <Table.Td ta="right">{total > 0 ? `${((l.value / total) * 100).toFixed(1)} %` : "—"}</Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
