/** The writers of an insert's body: one interface, a format each (flow-row-tsv.ts, flow-row-rowbinary.ts). */
import type { FlowRow, FlowRowFormat } from "./flow-row";
import { RowBinaryWriter } from "./flow-row-rowbinary";
import { TsvWriter } from "./flow-row-tsv";

/** Rows into the body of one insert, in FLOW_ROW_COLUMNS order. */
export interface FlowRowWriter {
  readonly rows: number;
  readonly length: number;
  row(r: FlowRow): void;
  /** The body written so far in a buffer of its own (transferable), and a fresh start. */
  take(): Uint8Array;
}

export function flowRowWriter(format: FlowRowFormat): FlowRowWriter {
  return format === "RowBinary" ? new RowBinaryWriter() : new TsvWriter();
}
