// The contracts' CSV import plan (app/features/revenues/contract-csv.ts): columns to fields, the edit form's
// rules per line with the column named, interfaces resolved by router and name, each bad line named and then
// nothing planned; the header's refusals from the shared reader.
import { describe, expect, it } from "vitest";
import { CONTRACT_IMPORT_MAX_ROWS, planContractImport } from "~/features/revenues/contract-csv";

const INVENTORY: Record<string, number> = { "fra1 et-0/0/1": 11, "fra1 et-0/0/2": 12, "ams1 xe-1/0/0": 21 };
const lookup = (router: string, name: string) => INVENTORY[`${router} ${name}`];
const HEADER = "name,direction,partner_asn,method,commit_mbps,commit_price_eur,burst_price_eur,port_fee_eur,valid_from,valid_to,interfaces";

describe("planContractImport", () => {
  it("reads a transit over two ports and a flat-rate customer with every field as the form gives it", () => {
    const plan = planContractImport(
      [
        HEADER,
        "Transit Lumen,cost,AS3356,max 95th,2000,0.35,0.45,300,2026-01-01,,fra1 et-0/0/1 | fra1 et-0/0/2",
        '"Customer ""Alpha""",Revenue,64510,Flatrate,,,,,2026-03-16,2026-12-31,ams1 xe-1/0/0',
      ].join("\r\n"),
      lookup,
    );
    expect(plan.problems).toEqual([]);
    expect(plan.lines.map((l) => l.line)).toEqual([2, 3]);
    expect(plan.lines[0].contract).toMatchObject({
      name: "Transit Lumen",
      direction: "cost",
      partnerAsn: 3356,
      method: "Max 95th",
      commitMbps: 2000,
      commitPriceEur: 0.35,
      burstPriceEur: 0.45,
      portFeeEur: 300,
      validFrom: "2026-01-01",
      validTo: null,
      billedDirection: "max",
      groupMode: "aggregate",
      timezone: "UTC",
      interfaceIds: [11, 12],
    });
    expect(plan.lines[1].contract).toMatchObject({
      name: 'Customer "Alpha"',
      direction: "revenue",
      method: "Flatrate",
      validTo: "2026-12-31",
      interfaceIds: [21],
    });
  });

  it("takes semicolons as the delimiter when the header has them", () => {
    const plan = planContractImport("name;direction;method;valid_from;interfaces\nIX;cost;free;2026-01-01;ams1 xe-1/0/0\n", lookup);
    expect(plan.problems).toEqual([]);
    expect(plan.lines[0].contract).toMatchObject({ name: "IX", method: "free", interfaceIds: [21] });
  });

  it("names every bad line with its column and plans nothing", () => {
    const plan = planContractImport(
      [
        HEADER,
        "Good,cost,3356,Max 95th,1000,0.3,0.4,0,2026-01-01,,fra1 et-0/0/1",
        "Bad date,cost,3356,Max 95th,1000,0.3,0.4,0,2026-02-30,,fra1 et-0/0/2",
        'Comma,cost,3356,Max 95th,1000,"0,35",0.4,0,2026-01-01,,fra1 et-0/0/2',
        "Unknown port,cost,3356,Max 95th,1000,0.3,0.4,0,2026-01-01,,fra1 et-9/9/9",
        ",cost,3356,Weekly,1000,0.3,0.4,0,2026-01-01,,",
        "Good,cost,3356,Max 95th,1000,0.3,0.4,0,2026-01-01,,fra1 et-0/0/2",
        "Neg,cost,AS-1,Max 95th,-5,0.3,0.4,0,2026-01-01,2025-01-01,fra1 et-0/0/2",
      ].join("\n"),
      lookup,
    );
    expect(plan.lines).toEqual([]);
    const byLine = Object.fromEntries(plan.problems.map((p) => [p.line, p.message]));
    expect(Object.keys(byLine).map(Number)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(byLine[3]).toBe("valid_from: The first day of validity is a date YYYY-MM-DD.");
    expect(byLine[4]).toBe('commit_price_eur "0,35": write decimals with a dot (0.35).');
    expect(byLine[5]).toBe("interfaces: the inventory has no interface et-9/9/9 on fra1.");
    expect(byLine[6]).toContain("name is empty.");
    expect(byLine[6]).toContain("interfaces is empty.");
    expect(byLine[6]).toContain("method: Method is Flatrate, free or Max 95th.");
    expect(byLine[7]).toBe("The contract Good is already on line 2.");
    expect(byLine[8]).toContain("partner_asn: The partner AS is a number.");
    expect(byLine[8]).toContain("commit_mbps: The commit must be a number.");
  });

  it("refuses a header without the required columns or with unknown ones, an empty file and too many lines", () => {
    expect(planContractImport("name,direction,price\n", lookup).problems).toEqual([
      {
        line: 1,
        message: expect.stringMatching(
          /^Header: the method column is missing; the valid_from column is missing; the interfaces column is missing; unknown column "price"\. Columns: name, direction, /,
        ),
      },
    ]);
    expect(planContractImport("", lookup).problems[0].message).toMatch(
      /^The file is empty: the first line names the columns, e\.g\. name,/,
    );
    expect(planContractImport("name,direction,method,valid_from,interfaces\n", lookup).problems[0].message).toBe(
      "No lines below the header: nothing to import.",
    );
    const many = ["name,direction,method,valid_from,interfaces"];
    for (let i = 0; i <= CONTRACT_IMPORT_MAX_ROWS; i++) many.push(`C${i},cost,free,2026-01-01,fra1 et-0/0/1`);
    expect(planContractImport(many.join("\n"), lookup).problems[0].message).toBe(
      `At most ${CONTRACT_IMPORT_MAX_ROWS} lines per import; this file has ${CONTRACT_IMPORT_MAX_ROWS + 1}.`,
    );
  });
});

describe("a cell the export protected from spreadsheets", () => {
  it("reads back without the apostrophe put before a formula-like text, and keeps it elsewhere", () => {
    const plan = planContractImport(
      "name,direction,method,valid_from,notes,interfaces\n'=Transit,cost,free,2026-01-01,'-10% from May,fra1 et-0/0/1\nO'Brien,cost,free,2026-01-01,'ok,fra1 et-0/0/2\n",
      lookup,
    );
    expect(plan.problems).toEqual([]);
    expect(plan.lines.map((l) => [l.contract.name, l.contract.notes])).toEqual([
      ["=Transit", "-10% from May"],
      ["O'Brien", "'ok"],
    ]);
  });
});
