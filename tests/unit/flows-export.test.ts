import { describe, expect, it } from "vitest";
import ExcelJS from "exceljs";
import XLSX from "xlsx";
import { neutraliseFormula, sheetToCsv } from "~/lib/sheet-csv";
import { writeXls, writeXlsx } from "~/features/shared/export/spreadsheet.server";
import { EXPORT_FORMATS, exportFilename, exportFilePrefix, isExportFormat, unsupportedFormat } from "~/lib/export-files";
import { aggregatedSheet, detailedSheet } from "~/features/flows/export/sheet";
import { spreadsheetValue, type Sheet } from "~/lib/sheet";
import { detailedRows, pivotTable } from "~/features/flows/table-views";

// 2026-11-20 00:00:00 UTC
const NOV_20 = 1_795_132_800;
const DAY = 86_400;

describe("export file names (prefix + name)", () => {
  it("prefix flowlens_<screen>_, then dimension, variant and the days in the user's timezone", () => {
    const range = { start: NOV_20, end: NOV_20 + 2 * DAY + 3600 };
    expect(exportFilePrefix("flow-explorer")).toBe("flowlens_flow-explorer_");
    expect(exportFilename({ dimensions: ["AS_SRC_INGRESS"], range, timezone: "UTC" }, "xlsx")).toBe(
      "flowlens_flow-explorer_AS_SRC_INGRESS_20261120-20261122.xlsx",
    );
    expect(exportFilename({ dimensions: ["AS_SRC_INGRESS"], variant: "detailed", range, timezone: "UTC" }, "csv")).toBe(
      "flowlens_flow-explorer_AS_SRC_INGRESS_detailed_20261120-20261122.csv",
    );
    expect(
      exportFilename(
        { dimensions: ["AS_SRC_INGRESS", "AS_DST_INGRESS"], variant: "sankey", range, timezone: "UTC" },
        "png",
        "as-flows-egress",
      ),
    ).toBe("flowlens_as-flows-egress_AS_SRC_INGRESS-AS_DST_INGRESS_sankey_20261120-20261122.png");
  });

  it("the last day is the day of the range's last second, in the user's timezone", () => {
    // [Nov 20 00:00, Nov 22 00:00) UTC ends on Nov 21; in Auckland (UTC+13) it covers Nov 20 13:00 – Nov 22 12:59.
    const range = { start: NOV_20, end: NOV_20 + 2 * DAY };
    expect(exportFilename({ dimensions: ["X"], range, timezone: "UTC" }, "svg")).toBe("flowlens_flow-explorer_X_20261120-20261121.svg");
    expect(exportFilename({ dimensions: ["X"], range, timezone: "Pacific/Auckland" }, "svg")).toBe(
      "flowlens_flow-explorer_X_20261120-20261122.svg",
    );
    expect(exportFilename({ dimensions: ["X"], range, timezone: "America/New_York" }, "svg")).toBe(
      "flowlens_flow-explorer_X_20261119-20261121.svg",
    );
  });

  it("unsafe characters never reach the header or the file system", () => {
    const name = exportFilename(
      { dimensions: ['a"b/c'], variant: "x y", range: { start: NOV_20, end: NOV_20 + 60 }, timezone: "UTC" },
      "csv",
    );
    expect(name).toBe("flowlens_flow-explorer_a-b-c_x-y_20261120-20261120.csv");
  });

  it("formats: csv, xls, xlsx, png, svg; anything else is named in the error", () => {
    expect([...EXPORT_FORMATS]).toEqual(["csv", "xls", "xlsx", "png", "svg"]);
    expect(isExportFormat("xlsx")).toBe(true);
    expect(isExportFormat("pdf")).toBe(false);
    expect(unsupportedFormat("pdf")).toBe('Unsupported export format "pdf"; use one of csv, xls, xlsx, png, svg.');
  });
});

const TIMESERIES = {
  buckets: [NOV_20, NOV_20 + 900],
  series: [
    { key: "2906", name: "Netflix", values: [100, 200] },
    { key: "-101", name: "Others", values: [5, 0] },
  ],
};

describe("table views", () => {
  it("detailed: one row per bucket and value, buckets in order, series order within", () => {
    expect(detailedRows(TIMESERIES)).toEqual([
      { time: NOV_20, key: "2906", name: "Netflix", bps: 100, complete: true },
      { time: NOV_20, key: "-101", name: "Others", bps: 5, complete: true },
      { time: NOV_20 + 900, key: "2906", name: "Netflix", bps: 200, complete: true },
      { time: NOV_20 + 900, key: "-101", name: "Others", bps: 0, complete: true },
    ]);
  });

  it("pivot: buckets as rows, values as columns", () => {
    expect(pivotTable(TIMESERIES)).toEqual({
      columns: [
        { key: "2906", name: "Netflix" },
        { key: "-101", name: "Others" },
      ],
      rows: [
        { time: NOV_20, values: [100, 5], complete: true },
        { time: NOV_20 + 900, values: [200, 0], complete: true },
      ],
    });
  });
});

describe("sheets and CSV", () => {
  it("aggregated: labelled headers, AS numbers as numbers, whole bit/s, the share; the compared columns only with the comparison", () => {
    const rows = [
      { key: "1", name: "A; B", bps: 12.5, bytes: "1000", previousBps: 0.4, differencePercent: 1000, differenceCapped: true },
      { key: "2906", name: "Netflix", bps: 37.5, bytes: "3000", previousBps: 30.2, differencePercent: 24.17, differenceCapped: false },
    ];
    expect(sheetToCsv(aggregatedSheet("Flow Explorer", "AS_SRC_INGRESS", rows, false), ";")).toBe(
      'Source AS (ingress);Name;Bits per second;Share (%);Bytes\r\n1;"A; B";13;25;1000\r\n2906;Netflix;38;75;3000\r\n',
    );
    expect(sheetToCsv(aggregatedSheet("Flow Explorer", "AS_SRC_INGRESS", rows, true), ",")).toBe(
      "Source AS (ingress),Name,Bits per second,Share (%),Bytes,Previous period (bit/s),Difference to the previous period (%)\r\n1,A; B,13,25,1000,0,1000\r\n2906,Netflix,38,75,3000,30,24.2\r\n",
    );
    const asColumn = aggregatedSheet("Flow Explorer", "AS_SRC_INGRESS", rows, false).columns[0];
    expect(asColumn).toEqual({ header: "Source AS (ingress)", kind: "number" });
    expect(spreadsheetValue(aggregatedSheet("Flow Explorer", "AS_SRC_INGRESS", rows, false).rows[1][0], asColumn.kind)).toBe(2906);
  });

  it("aggregated: other dimensions' values as people read them", () => {
    const sheet = (dimension: Parameters<typeof aggregatedSheet>[1], key: string, name: string) =>
      aggregatedSheet("Flow Explorer", dimension, [{ key, name, bps: 1, bytes: "1" }], false);
    expect(sheet("IANA_PROTOCOL", "17", "UDP").rows[0].slice(0, 2)).toEqual(["UDP", "UDP"]);
    expect(sheet("IANA_PROTOCOL", "143", "143").rows[0][0]).toBe("143");
    expect(sheet("INTERFACE_IN", "lon-er1|xe-0/0/6", "lon-er1 xe-0/0/6 (Transit)").rows[0].slice(0, 2)).toEqual([
      "lon-er1 xe-0/0/6",
      "lon-er1 xe-0/0/6 (Transit)",
    ]);
    expect(sheet("AS_APPLICATION", "", "Not mapped").rows[0].slice(0, 2)).toEqual(["Not mapped", "Not mapped"]);
    expect(sheet("AS_APPLICATION", "", "Not mapped").columns[0]).toEqual({ header: "Application", kind: "text" });
  });

  it("detailed: the spec's date format in the user's timezone, unix seconds, whole bit/s", () => {
    const sheet = detailedSheet("Flow Explorer", "AS_SRC_INGRESS", detailedRows(TIMESERIES).slice(0, 1), "Europe/Berlin");
    expect(sheet.columns.map((c) => c.header)).toEqual([
      "Time (Europe/Berlin)",
      "Timestamp (unix seconds)",
      "Source AS (ingress)",
      "Name",
      "Bits per second",
      "Complete bucket",
    ]);
    expect(sheet.rows).toEqual([["20.11.2026 01:00", NOV_20, 2906, "Netflix", 100, "yes"]]);
    const cut = detailedSheet("Flow Explorer", "AS_SRC_INGRESS", detailedRows({ ...TIMESERIES, complete: [false] }).slice(0, 1), "UTC");
    expect(cut.rows[0][5]).toBe("no");
  });

  it("spreadsheet cells: integers as numbers only while exact", () => {
    expect(spreadsheetValue("123", "integer")).toBe(123);
    expect(spreadsheetValue("18446744073709551615", "integer")).toBe("18446744073709551615");
    expect(spreadsheetValue("2906", "text")).toBe("2906");
    expect(spreadsheetValue(1.5, "number")).toBe(1.5);
  });
});

describe("formula injection", () => {
  const hostile = ["=1+2", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\tx", "\rx", '=HYPERLINK("http://evil.example","x")'];
  const sheet: Sheet = {
    title: "Flow Explorer",
    columns: [
      { header: "value", kind: "text" },
      { header: "name", kind: "text" },
      { header: "bits_per_second", kind: "number" },
    ],
    rows: [...hostile.map((name, i) => [String(i), name, -1.5]), ["-101", "-101", -101], ["+5", "1e3", 0]],
  };

  it("csv: text that starts like a formula gets a leading apostrophe; numbers, negative ones too, stay numbers", () => {
    const lines = sheetToCsv(sheet, ",").split("\r\n");
    expect(lines.slice(1, 8)).toEqual([
      "0,'=1+2,-1.5",
      "1,'+cmd|' /C calc'!A0,-1.5",
      "2,'-2+3,-1.5",
      "3,'@SUM(A1:A9),-1.5",
      "4,'\tx,-1.5",
      '5,"\'\rx",-1.5',
      '6,"\'=HYPERLINK(""http://evil.example"",""x"")",-1.5',
    ]);
    expect(lines[8]).toBe("-101,-101,-101");
    expect(lines[9]).toBe("+5,1e3,0");
    for (const text of hostile) expect(neutraliseFormula(text)).toBe(`'${text}`);
    for (const number of ["-101", "-1.5", "+5", "1e-3", "-.5"]) expect(neutraliseFormula(number)).toBe(number);
  });

  it("xlsx and xls: such text is stored as text, never as a formula", async () => {
    const xlsx = new ExcelJS.Workbook();
    await xlsx.xlsx.load((await writeXlsx(sheet)).buffer);
    const ws = xlsx.worksheets[0];
    for (let i = 0; i < hostile.length; i++) {
      const cell = ws.getRow(i + 2).getCell(2);
      expect(cell.type, hostile[i]).toBe(ExcelJS.ValueType.String);
      expect(cell.formula).toBeUndefined();
      // XML reads a lone CR back as LF; the rest comes back as written.
      expect(cell.value).toBe(hostile[i].replace("\r", "\n"));
    }
    expect(ws.getRow(2).getCell(3).value).toBe(-1.5);
    const xls = XLSX.read(writeXls(sheet), { cellFormula: true });
    const first = xls.Sheets[xls.SheetNames[0]];
    for (let i = 0; i < hostile.length; i++) {
      const cell = first[`B${i + 2}`];
      expect(cell.t, hostile[i]).toBe("s");
      expect(cell.f).toBeUndefined();
    }
  });
});
