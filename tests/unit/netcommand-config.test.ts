import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { executeJob } from "~/features/netcommand/runner.server";
import type { SpawnFn } from "~/features/netcommand/process.server";
import { ConfigError, parseConfig } from "~/server/env.server";

const dir = mkdtempSync(path.join(tmpdir(), "flowlens-netcommand-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = (value?: string) => parseConfig({ DATA_DIR: dir, NETCOMMAND_SSH: value });

describe("NETCOMMAND_SSH", () => {
  it("is empty by default and when blank", () => {
    expect(config().NETCOMMAND_SSH).toEqual({});
    expect(config("  ").NETCOMMAND_SSH).toEqual({});
  });

  it("reads routers keyed by vantage point, with port 22 by default", () => {
    const parsed = config(
      '{"fra1":{"host":"192.0.2.1","user":"lg","identityFile":"/etc/flowlens/lg_key","vendor":"juniper"},"ams1":{"host":"ams-er1.example.net","user":"lg","port":2222,"vendor":"cisco"}}',
    );
    expect(parsed.NETCOMMAND_SSH).toEqual({
      fra1: { host: "192.0.2.1", user: "lg", port: 22, identityFile: "/etc/flowlens/lg_key", vendor: "juniper" },
      ams1: { host: "ams-er1.example.net", user: "lg", port: 2222, vendor: "cisco" },
    });
  });

  it.each([
    ["{not json", /NETCOMMAND_SSH: must be a JSON object/],
    ['{"fra1":{"host":"192.0.2.1","user":"lg","vendor":"nokia"}}', /NETCOMMAND_SSH\.fra1\.vendor/],
    [
      '{"fra1":{"host":"-oProxyCommand=x","user":"lg","vendor":"juniper"}}',
      /NETCOMMAND_SSH\.fra1\.host: must be a host name or IP address/,
    ],
    ['{"fra1":{"host":"192.0.2.1","user":"lg; id","vendor":"juniper"}}', /NETCOMMAND_SSH\.fra1\.user: must be a plain user name/],
    ['{"fra1":{"host":"192.0.2.1","user":"lg","vendor":"juniper","port":70000}}', /NETCOMMAND_SSH\.fra1\.port/],
  ])("refuses %s naming the variable", (value, message) => {
    expect(() => config(value)).toThrow(ConfigError);
    expect(() => config(value)).toThrow(message);
  });

  it("sends a configured vantage point's job over SSH and any other to the local tools", async () => {
    const files: string[] = [];
    const spawn: SpawnFn = (file) => {
      files.push(file);
      throw Object.assign(new Error(`spawn ${file} ENOENT`), { code: "ENOENT" });
    };
    const cfg = config('{"fra1":{"host":"192.0.2.1","user":"lg","vendor":"juniper"}}');
    await executeJob(cfg, { vantagePoint: "fra1", queryType: "PingQuery", targetAddress: "192.0.2.9" }, spawn);
    await executeJob(cfg, { vantagePoint: "ber1", queryType: "TracerouteQuery", targetAddress: "192.0.2.9" }, spawn);
    expect(files).toEqual(["ssh", "traceroute"]);
  });
});
