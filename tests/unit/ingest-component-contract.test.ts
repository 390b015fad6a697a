import { describe, expect, it } from "vitest";
import { componentEnv, envPrefix, parseListenAddress } from "~/server/components/contract.server";
import { componentHost } from "~/server/components/placement.server";
import { registerComponent, registeredComponents } from "~/server/components/registry.server";
import { ConfigError } from "~/server/env.server";
import { testComponent } from "../helpers/test-component";

describe("component variables", () => {
  it("are named after the component: flows-netflow reads FLOWS_NETFLOW_…", () => {
    expect(envPrefix("flows-netflow")).toBe("FLOWS_NETFLOW_");
    const env = componentEnv("flows-netflow", { FLOWS_NETFLOW_LISTEN: ":2055", FLOWS_NETFLOW_WORKERS: "", OTHER_LISTEN: ":1" });
    expect(env.listen()).toEqual({ host: "0.0.0.0", port: 2055 });
    expect(env.get("WORKERS")).toBeUndefined(); // empty is unset, as in .env.example
    expect(env.get("OTHER_LISTEN")).toBeUndefined();
    expect(componentEnv("snmp", {}).listen()).toBeNull();
  });

  it("listen addresses are host:port, [IPv6]:port or :port; anything else names the variable", () => {
    expect(parseListenAddress("X_LISTEN", "127.0.0.1:6343")).toEqual({ host: "127.0.0.1", port: 6343 });
    expect(parseListenAddress("X_LISTEN", "[::1]:179")).toEqual({ host: "::1", port: 179 });
    expect(parseListenAddress("X_LISTEN", "collector.example:0")).toEqual({ host: "collector.example", port: 0 });
    for (const bad of ["2055", "::1:179", "host:70000", "host:", "a b:1"]) {
      expect(() => parseListenAddress("X_LISTEN", bad), bad).toThrow(ConfigError);
    }
    expect(() => componentEnv("bmp", { BMP_LISTEN: "nope" }).listen()).toThrow(/BMP_LISTEN: expected host:port/);
  });
});

describe("where the components run", () => {
  it("in the app on embedded stores (either one), in the worker when both stores are servers", () => {
    expect(componentHost({ embeddedPostgres: true, embeddedClickhouse: true })).toBe("app");
    expect(componentHost({ embeddedPostgres: false, embeddedClickhouse: true })).toBe("app");
    expect(componentHost({ embeddedPostgres: true, embeddedClickhouse: false })).toBe("app");
    expect(componentHost({ embeddedPostgres: false, embeddedClickhouse: false })).toBe("worker");
  });
});

describe("the registry", () => {
  it("holds each component once by name and refuses names that make no variable prefix", () => {
    const first = testComponent("registry-probe");
    const removeFirst = registerComponent(first.component);
    const second = testComponent("registry-probe");
    const removeSecond = registerComponent(second.component);
    expect(registeredComponents().filter((c) => c.name === "registry-probe")).toEqual([second.component]);
    removeFirst(); // replaced already: removes nothing
    expect(registeredComponents()).toContain(second.component);
    removeSecond();
    expect(registeredComponents()).not.toContain(second.component);
    expect(() => registerComponent(testComponent("Flows_Netflow").component)).toThrow(/lower-case words/);
  });
});
