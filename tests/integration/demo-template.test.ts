// The demo network built once per run and copied into each file's stores (tests/helpers/demo-template.ts):
// a copy holds what the builder loaded, table by table, and what a file writes into its copy reaches neither
// the template nor the next file's copy. chDB opens one data folder per process at a time, so the copies
// here are opened one after another.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { countRows } from "~db/demo/load";
import { users } from "~db/postgres/schema";
import { chCommand } from "~/server/clickhouse/query.server";
import { demoTestNow } from "../helpers/clock";
import { demoTemplate, openDemoStores } from "../helpers/demo-template";
import { chRows, copyDataFolder, type TestStores } from "../helpers/stores";

const NOW = demoTestNow();
// The period the one-day files load (autocomplete, tags, effective names): in a whole run their template serves here too.
const DAYS = 1;
let open: TestStores | undefined;

afterAll(async () => {
  await open?.dispose();
}, 60_000);

const flowCount = async (stores: TestStores) =>
  Number((await chRows<{ n: number }>(stores, "SELECT toUInt64(count()) AS n FROM flows_5m"))[0].n);

describe("demo stores copied from the run's template", () => {
  it("a copy holds the rows the loader counted in the template, in every table", async () => {
    open = await openDemoStores({ now: NOW, days: DAYS });
    const template = await demoTemplate(NOW, DAYS);
    expect(template.rows["clickhouse.flows_5m"]).toBeGreaterThan(1000);
    expect(template.rows["postgres.users"]).toBeGreaterThan(0);
    expect(await countRows(open)).toEqual(template.rows);
  }, 300_000);

  it("what a file writes into its copy stays there: the next copy starts from the template again", async () => {
    const template = await demoTemplate(NOW, DAYS);
    open ??= await openDemoStores({ now: NOW, days: DAYS });
    await open.pg.db.insert(users).values({ email: "copy-only@template.test", firstName: "T", passwordHash: "!unusable" });
    await chCommand(open.ch, { name: "test.truncate", sql: "TRUNCATE TABLE flows_5m" });
    expect(await flowCount(open)).toBe(0);
    await open.dispose();
    open = undefined;

    open = await openDemoStores({ now: NOW, days: DAYS });
    expect(await flowCount(open)).toBe(template.rows["clickhouse.flows_5m"]);
    expect(await countRows(open)).toEqual(template.rows);
  }, 300_000);
});

describe("copyDataFolder", () => {
  it("keeps the folder's relative links inside the copy and refuses a link that leads out of it", () => {
    const base = mkdtempSync(path.join(tmpdir(), "flowlens-copy-"));
    try {
      const source = path.join(base, "source");
      mkdirSync(path.join(source, "store", "abc"), { recursive: true });
      mkdirSync(path.join(source, "metadata"), { recursive: true });
      writeFileSync(path.join(source, "store", "abc", "part"), "x");
      symlinkSync("../store/abc", path.join(source, "metadata", "db"));
      copyDataFolder(source, path.join(base, "copy"));
      // The copy's link is the copy's own: writing through it leaves the source as it was.
      writeFileSync(path.join(base, "copy", "metadata", "db", "part"), "changed");
      expect(readFileSync(path.join(source, "store", "abc", "part"), "utf8")).toBe("x");

      symlinkSync(path.join(base, "elsewhere"), path.join(source, "metadata", "outside"));
      expect(() => copyDataFolder(source, path.join(base, "copy2"))).toThrow(/leads out of the copy/);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
