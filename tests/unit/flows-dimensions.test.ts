import { describe, expect, it } from "vitest";
import { availableDimensions, DIMENSIONS, getDimension, isDimensionId, othersValue } from "~/features/filter/dimensions";
import { PERMISSIONS } from "~/lib/permissions";

describe("flow dimension catalogue", () => {
  it("has the spec's dimensions with unique ids and increasing order", () => {
    const ids = DIMENSIONS.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of [
      "VRF_NAME",
      "AS_APPLICATION",
      "AS_INFRASTRUCTURE",
      "AS_SRC_INGRESS",
      "AS_SRC_EGRESS",
      "AS_HND_INGRESS",
      "ROUTER_IN",
      "ROUTER_OUT",
      "INTERFACE_IN",
      "INTERFACE_OUT",
      "ROUTER_LINK_START",
      "ROUTER_LINK_END",
      "INTERNAL_LINK_START",
      "INTERNAL_LINK_END",
      "AS_NEIGHBOR_EGRESS",
      "AS_NXT_INGRESS",
      "AS_NXT_EGRESS",
      "AS_DST_INGRESS",
      "AS_DST_EGRESS",
      "IANA_PROTOCOL",
    ]) {
      expect(isDimensionId(id), id).toBe(true);
    }
    expect(DIMENSIONS.map((d) => d.order)).toEqual(DIMENSIONS.map((_, i) => i + 1));
  });

  it("maps permissions, filter kinds, SNMP groups and columns", () => {
    for (const d of DIMENSIONS) {
      if (d.id.endsWith("_EGRESS")) {
        expect(d.permission).toBe("FLOWS_EGRESS");
        expect(d.direction).toBe("EGRESS");
      } else if (d.id.startsWith("AS_") && d.filterKind === "AS_NUMBER") {
        expect(d.permission).toBe("API_FLOWS_4D");
        expect(d.direction).toBe("INGRESS");
      }
      if (d.filterKind === "AS_NUMBER") expect(d.valueType).toBe("Int64");
      if (d.permission) expect(PERMISSIONS).toContain(d.permission);
    }
    expect(getDimension("AS_APPLICATION")).toMatchObject({
      permission: "API_FLOWS_DNS",
      filterKind: "APPLICATION",
      columns: ["application"],
    });
    expect(getDimension("AS_INFRASTRUCTURE")).toMatchObject({ permission: "API_FLOWS_DNS", filterKind: "INFRASTRUCTURE" });
    expect(getDimension("INTERFACE_IN")).toMatchObject({
      columns: ["ingress_router", "in_if"],
      filterKind: "INTERFACE",
      permission: "API_FLOWS_INTERFACES",
      snmpGroup: "LEFT",
    });
    expect(getDimension("INTERFACE_OUT")).toMatchObject({ columns: ["egress_router", "out_if"], snmpGroup: "RIGHT" });
    expect(getDimension("INTERNAL_LINK_END")).toMatchObject({
      columns: ["link_end_router", "link_end_if"],
      filterKind: "INTERNAL_LINK",
      permission: "FLOWS_BY_LINK_FILTER",
      snmpGroup: "CORE",
    });
    expect(getDimension("ROUTER_LINK_START")).toMatchObject({
      filterKind: "ROUTER",
      permission: "FLOWS_BY_LINK_FILTER",
      snmpGroup: "CORE",
    });
    expect(getDimension("VRF_NAME")).toMatchObject({ permission: "VRF_DIMENSION", minApiVersion: 16, filterKind: "VRF_NAME" });
    expect(getDimension("AS_HND_INGRESS").snmpGroup).toBe("LEFT");
    expect(getDimension("AS_NXT_INGRESS").snmpGroup).toBe("RIGHT");
    expect(getDimension("AS_NEIGHBOR_EGRESS")).toMatchObject({ columns: ["as_nxt"], snmpGroup: "RIGHT" });
    expect(getDimension("IANA_PROTOCOL")).toMatchObject({ filterKind: "IANA_PROTOCOL", permission: null });
  });

  it("availableDimensions filters by permission and API version", () => {
    expect(availableDimensions([], 17).map((d) => d.id)).toEqual(["IANA_PROTOCOL"]);
    const fourD = availableDimensions(["API_FLOWS_4D"], 17).map((d) => d.id);
    expect(fourD).toEqual(["AS_SRC_INGRESS", "AS_HND_INGRESS", "AS_NXT_INGRESS", "AS_DST_INGRESS", "IANA_PROTOCOL"]);
    expect(availableDimensions(["VRF_DIMENSION"], 15).map((d) => d.id)).not.toContain("VRF_NAME");
    expect(availableDimensions(["VRF_DIMENSION"], 16).map((d) => d.id)).toContain("VRF_NAME");
    expect(availableDimensions([...PERMISSIONS], 17)).toHaveLength(DIMENSIONS.length);
    expect(availableDimensions([...PERMISSIONS], 13)).toHaveLength(DIMENSIONS.length - 1);
  });

  it("folds to -101 for numeric and 'Others' for string dimensions", () => {
    expect(othersValue("AS_SRC_INGRESS")).toBe(-101);
    expect(othersValue("ROUTER_IN")).toBe("Others");
  });
});
