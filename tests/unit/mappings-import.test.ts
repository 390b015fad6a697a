/** The mappings screens' pure parts: the CSV reader and import plan, the URL state, the write rules. */
import { describe, expect, it } from "vitest";
import { IMPORT_MAX_ROWS, planImport } from "~/features/mappings/csv-import";
import { parseCsv } from "~/lib/csv-read";
import { parseMappingParams } from "~/features/mappings/params";
import { mappingWriteProblem, mayAssignServices, mayNameInLayer, mayWriteLayer, type MappingActor } from "~/features/tags/mapping-model";

const user: MappingActor = { isStaff: false, isSuperuser: false, groups: [], permissions: ["API_FLOWS_4D"] };
const moderator: MappingActor = { ...user, groups: ["moderators"] };
const staff: MappingActor = { ...user, isStaff: true };

describe("write rules", () => {
  it("user layer for all, site layer for moderators and staff, base and product for staff", () => {
    expect([0, 10, 20, 30].map((l) => mayWriteLayer(user, l as 0))).toEqual([false, false, false, true]);
    expect([0, 10, 20, 30].map((l) => mayWriteLayer(moderator, l as 0))).toEqual([false, false, true, true]);
    expect([0, 10, 20, 30].map((l) => mayWriteLayer(staff, l as 0))).toEqual([true, true, true, true]);
    expect(mayAssignServices(user)).toBe(false);
    expect(mayAssignServices(moderator)).toBe(true);
  });

  it("an AS name in one's own layer needs API_CHANGE_AS_INFO; applications do not", () => {
    expect(mayNameInLayer(user, "AS", 30)).toBe(false);
    expect(mayNameInLayer(staff, "AS", 30)).toBe(false);
    expect(mayNameInLayer({ ...user, permissions: ["API_CHANGE_AS_INFO"] }, "AS", 30)).toBe(true);
    expect(mayNameInLayer({ ...user, isSuperuser: true }, "AS", 30)).toBe(true);
    expect(mayNameInLayer(user, "Application", 30)).toBe(true);
    expect(mappingWriteProblem(user, "AS", 30, false)).toBeNull();
    expect(mappingWriteProblem(user, "AS", 30, true)).toMatch(/API_CHANGE_AS_INFO/);
    expect(mappingWriteProblem(moderator, "AS", 10, false)).toMatch(/Only staff can change the product layer/);
  });
});

describe("CSV", () => {
  it("reads quotes, doubled quotes, CRLF, blank lines and a delimiter inside quotes", () => {
    expect(parseCsv('a,"b,c","say ""hi"""\r\n\r\n1,2\n', ",")).toEqual([
      { line: 1, fields: ["a", "b,c", 'say "hi"'] },
      { line: 3, fields: ["1", "2"] },
    ]);
  });

  it("plans the good lines with the layer's words or numbers, and a BOM and semicolons", () => {
    const { plan, problems, lines } = planImport(
      "\uFEFFID;Layer;Name;Color\nNetflix;user;;#E50914\nZoom;30;Zoom Video;",
      "Application",
      user,
    );
    expect(problems).toEqual([]);
    expect(lines).toBe(2);
    expect(plan.layers).toEqual([
      { objectId: "Netflix", layer: 30, name: null, color: "#E50914" },
      { objectId: "Zoom", layer: 30, name: "Zoom Video", color: null },
    ]);
  });

  it("assignments on the AS screen: empty leaves, '-' removes", () => {
    const { plan, problems } = planImport("id,application,infrastructure\nAS2906,Netflix,\n15169,-,Google Cloud", "AS", moderator);
    expect(problems).toEqual([]);
    expect(plan.layers).toEqual([]);
    expect(plan.services).toEqual([
      { asn: 2906, application: "Netflix" },
      { asn: 15169, application: null, infrastructure: "Google Cloud" },
    ]);
    expect(planImport("id,application\n2906,Netflix", "AS", user).problems).toEqual([
      { line: 2, message: "Only moderators, staff and superusers assign ASes to applications and infrastructures." },
    ]);
  });

  it("refuses an empty file, a header without id, too many fields, too many lines", () => {
    expect(planImport("", "AS", user).problems[0].message).toMatch(/empty/);
    expect(planImport("name,color\nx,#000000", "AS", user).problems[0].message).toMatch(/the id column is missing/);
    expect(planImport("id,layer,color\n2906,30,#000000,extra", "AS", user).problems).toEqual([
      { line: 2, message: "4 fields, but the header names 3." },
    ]);
    const big = `id,layer,color\n${Array.from({ length: IMPORT_MAX_ROWS + 1 }, (_, i) => `${i + 1},30,#000000`).join("\n")}`;
    expect(planImport(big, "AS", user).problems).toEqual([
      { line: 1, message: `At most ${IMPORT_MAX_ROWS} lines per import; this file has ${IMPORT_MAX_ROWS + 1}.` },
    ]);
    expect(planImport("id,layer,name\nx,30,a\tb", "Application", user).problems).toEqual([
      { line: 2, message: "name must not contain control characters." },
    ]);
  });
});

describe("URL state", () => {
  it("normalises the id and reports what it did not apply", () => {
    const p = (q: string) => parseMappingParams("AS", new URLSearchParams(q));
    expect(p("q=%20net%20&page=2&id=as2906")).toEqual({ search: "net", page: 2, id: "2906", saved: null, notices: [] });
    expect(p("page=0&id=x").notices).toEqual(['Page "0" is no page number: the first page is shown.', '"x" is no AS number.']);
    expect(p(`q=${"a".repeat(150)}`).search).toHaveLength(100);
  });
});
