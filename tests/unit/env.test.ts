import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "~/server/env.server";

const dirs: string[] = [];
function dataDir() {
  const dir = mkdtempSync(path.join(tmpdir(), "flowlens-env-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("configuration", () => {
  it("defaults to the embedded stores, port 3000 and the analytics variant", () => {
    const config = parseConfig({ DATA_DIR: dataDir() });
    expect(config.embeddedPostgres).toBe(true);
    expect(config.embeddedClickhouse).toBe(true);
    expect(config.PORT).toBe(3000);
    expect(config.APP_VARIANT).toBe("analytics");
    expect(config.CLICKHOUSE_DATABASE).toBe("flowlens");
  });

  it("generates a session secret once in embedded mode and keeps it under DATA_DIR", () => {
    const dir = dataDir();
    const first = parseConfig({ DATA_DIR: dir }).sessionSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, "session-secret"), "utf8").trim()).toBe(first);
    expect(parseConfig({ DATA_DIR: dir }).sessionSecret).toBe(first);
  });

  it("requires SESSION_SECRET when DATABASE_URL is set", () => {
    expect(() => parseConfig({ DATA_DIR: dataDir(), DATABASE_URL: "postgres://u@127.0.0.1:5432/db" })).toThrow(
      /SESSION_SECRET: required when DATABASE_URL is set/,
    );
  });

  it.each([
    ["DATABASE_URL", "mysql://localhost/db", /DATABASE_URL: must be a URL starting with postgres:\/\/ or postgresql:\/\//],
    ["DATABASE_URL", "not a url", /DATABASE_URL/],
    ["CLICKHOUSE_URL", "tcp://localhost:9000", /CLICKHOUSE_URL: must be a URL starting with http:\/\/ or https:\/\//],
    ["PORT", "eighty", /PORT/],
    ["PORT", "70000", /PORT/],
    ["APP_VARIANT", "public", /APP_VARIANT/],
    ["CLICKHOUSE_DATABASE", "flows; DROP TABLE x", /CLICKHOUSE_DATABASE: must be a plain identifier/],
    ["SESSION_SECRET", "short", /SESSION_SECRET: must be at least 32 characters/],
  ])("rejects %s=%s naming the variable", (name, value, message) => {
    const attempt = () => parseConfig({ DATA_DIR: dataDir(), [name]: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(message);
  });

  it("treats empty values as unset (an .env.example line without a value)", () => {
    const config = parseConfig({ DATA_DIR: dataDir(), DATABASE_URL: "", CLICKHOUSE_URL: " ", PORT: "" });
    expect(config.embeddedPostgres).toBe(true);
    expect(config.embeddedClickhouse).toBe(true);
    expect(config.PORT).toBe(3000);
  });

  it("accepts the public Looking Glass and manager variants", () => {
    expect(parseConfig({ DATA_DIR: dataDir(), APP_VARIANT: "public-lg" }).APP_VARIANT).toBe("public-lg");
    expect(parseConfig({ DATA_DIR: dataDir(), APP_VARIANT: "manager" }).APP_VARIANT).toBe("manager");
  });

  it("runs with the values of .env.example as they are", () => {
    const example = readFileSync(path.resolve(".env.example"), "utf8");
    const values = Object.fromEntries(
      example
        .split("\n")
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    const config = parseConfig({ ...values, DATA_DIR: dataDir() });
    expect(config.embeddedPostgres).toBe(true);
  });
});

describe("configuration rules across variables", () => {
  it("refuses a ClickHouse cluster on the embedded chDB", () => {
    expect(() => parseConfig({ DATA_DIR: dataDir(), CLICKHOUSE_CLUSTER: "flows" })).toThrow(/CLICKHOUSE_CLUSTER: needs CLICKHOUSE_URL/);
  });

  it("trusts X-Forwarded-For only when told to: no proxy, every hop, or listed proxies", () => {
    expect(parseConfig({ DATA_DIR: dataDir() }).TRUST_PROXY).toEqual({ mode: "none" });
    expect(parseConfig({ DATA_DIR: dataDir(), TRUST_PROXY: "1" }).TRUST_PROXY).toEqual({ mode: "every-hop" });
    expect(parseConfig({ DATA_DIR: dataDir(), TRUST_PROXY: "true" }).TRUST_PROXY).toEqual({ mode: "every-hop" });
    const listed = parseConfig({ DATA_DIR: dataDir(), TRUST_PROXY: "127.0.0.1, 10.0.0.0/8 fd00::/8" }).TRUST_PROXY;
    expect(listed).toMatchObject({ mode: "list", entries: ["127.0.0.1", "10.0.0.0/8", "fd00::/8"] });
    expect(() => parseConfig({ DATA_DIR: dataDir(), TRUST_PROXY: "maybe" })).toThrow(/TRUST_PROXY: "maybe" is not an IP address/);
  });

  it("reads body size limits in bytes or with k, m, g", () => {
    const config = parseConfig({ DATA_DIR: dataDir(), MAX_JSON_BODY: "64k", MAX_FORM_BODY: "2097152" });
    expect(config.MAX_JSON_BODY).toBe(65_536);
    expect(config.MAX_FORM_BODY).toBe(2_097_152);
    expect(parseConfig({ DATA_DIR: dataDir() })).toMatchObject({
      MAX_JSON_BODY: 1_048_576,
      MAX_FORM_BODY: 1_048_576,
      MAX_UPLOAD_BODY: 4 * 1024 ** 3,
    });
    expect(() => parseConfig({ DATA_DIR: dataDir(), MAX_JSON_BODY: "lots" })).toThrow(/MAX_JSON_BODY: must be a size/);
    expect(() => parseConfig({ DATA_DIR: dataDir(), MAX_FORM_BODY: "10" })).toThrow(/MAX_FORM_BODY/);
  });

  it("reads the internal ranges staff may ping and trace, none by default", () => {
    expect(parseConfig({ DATA_DIR: dataDir() }).NETCOMMAND_STAFF_ALLOWED_RANGES).toEqual([]);
    const ranges = parseConfig({
      DATA_DIR: dataDir(),
      NETCOMMAND_STAFF_ALLOWED_RANGES: "10.0.0.0/8, fd00::/8",
    }).NETCOMMAND_STAFF_ALLOWED_RANGES;
    expect(ranges.map((r) => `${r.version}/${r.length}`)).toEqual(["4/8", "6/8"]);
    expect(() => parseConfig({ DATA_DIR: dataDir(), NETCOMMAND_STAFF_ALLOWED_RANGES: "10.0.0.0/8,intranet" })).toThrow(
      /NETCOMMAND_STAFF_ALLOWED_RANGES: "intranet" is not an IP address or CIDR prefix/,
    );
  });

  it("reads the metrics token: unset by default, 16+ printable characters without spaces", () => {
    expect(parseConfig({ DATA_DIR: dataDir() }).METRICS_TOKEN).toBeUndefined();
    expect(parseConfig({ DATA_DIR: dataDir(), METRICS_TOKEN: "0123456789abcdef" }).METRICS_TOKEN).toBe("0123456789abcdef");
    for (const bad of ["short", "0123456789 abcdef"]) {
      expect(() => parseConfig({ DATA_DIR: dataDir(), METRICS_TOKEN: bad })).toThrow(
        /METRICS_TOKEN: must be at least 16 printable characters/,
      );
    }
  });
});
