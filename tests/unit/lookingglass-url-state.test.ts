import { describe, expect, it } from "vitest";
import {
  isSubmitted,
  parseLookingGlassUrl,
  rawVantagePointNames,
  serializeLookingGlassUrl,
  type VantagePointRef,
} from "~/features/lookingglass/url-state";
import { availableQueryTypes } from "~/lib/routing-query-types";

const VPS: VantagePointRef[] = [
  {
    key: "fra1",
    display_name: "Frankfurt, Germany 1",
    description: "Frankfurt, Germany",
    legacy_description: "FRA-ER1 Frankfurt",
    router: "fra-er1",
  },
  {
    key: "fra2",
    display_name: "Frankfurt, Germany 2",
    description: "Frankfurt, Germany",
    legacy_description: "FRA-ER2 Frankfurt",
    router: "fra-er2",
  },
  { key: "ber1", display_name: "Berlin, Germany", description: "Berlin, Germany", legacy_description: "BER-ER1 Berlin", router: "fra-er2" }, // a router with two vantage points,
];
const ALL_TYPES = availableQueryTypes(true);

describe("Looking Glass URL state", () => {
  it("round-trips a selection, a type and a term", () => {
    const state = {
      selectedVantagePoints: ["Frankfurt, Germany 2", "Berlin, Germany"],
      queryType: "AsPathQuery" as const,
      queryTerm: "3356 * 15169",
      ribView: "default" as const,
      community: "",
    };
    const search = serializeLookingGlassUrl(state, VPS);
    expect(search.get("selectedVantagePoints")).toBe('["Frankfurt, Germany 2","Berlin, Germany"]');
    expect(parseLookingGlassUrl(new URLSearchParams(search.toString()), VPS, ALL_TYPES)).toEqual(state);
  });

  it("round-trips the private screen's RIB view and community; the defaults stay out of the URL; an unknown view reads as the default", () => {
    const state = {
      selectedVantagePoints: ["Berlin, Germany"],
      queryType: "IpPrefixQuery" as const,
      queryTerm: "10.0.0.0/8",
      ribView: "pre-policy" as const,
      community: "64496:*",
    };
    const search = serializeLookingGlassUrl(state, VPS);
    expect(search.get("ribView")).toBe("pre-policy");
    expect(search.get("community")).toBe("64496:*");
    expect(parseLookingGlassUrl(new URLSearchParams(search.toString()), VPS, ALL_TYPES)).toEqual(state);
    const plain = serializeLookingGlassUrl({ ...state, ribView: "default", community: " " }, VPS);
    expect([plain.has("ribView"), plain.has("community")]).toEqual([false, false]);
    expect(parseLookingGlassUrl(new URLSearchParams("ribView=adj-rib-out"), VPS, ALL_TYPES).ribView).toBe("default");
  });

  it("writes every vantage point as the single entry 'all' and reads it back as every available one", () => {
    const search = serializeLookingGlassUrl(
      {
        selectedVantagePoints: VPS.map((v) => v.display_name),
        queryType: "IpPrefixQuery",
        queryTerm: "",
        ribView: "default",
        community: "",
      },
      VPS,
    );
    expect(search.get("selectedVantagePoints")).toBe('["all"]');
    expect(parseLookingGlassUrl(search, VPS, ALL_TYPES).selectedVantagePoints).toHaveLength(3);
    expect(parseLookingGlassUrl(new URLSearchParams("selectedVantagePoints=all"), VPS, ALL_TYPES).selectedVantagePoints).toHaveLength(3);
  });

  it.each([
    ["AS_PATH_QUERY", "AsPathQuery"],
    ["IP_PREFIX_QUERY", "IpPrefixQuery"],
    ["PING_QUERY", "PingQuery"],
    ["TRACEROUTE_QUERY", "TracerouteQuery"],
  ])("maps the legacy code %s to %s", (legacy, current) => {
    expect(parseLookingGlassUrl(new URLSearchParams({ queryType: legacy }), VPS, ALL_TYPES).queryType).toBe(current);
  });

  it("falls back to the first available type for an unknown one or one the visitor may not use", () => {
    expect(parseLookingGlassUrl(new URLSearchParams({ queryType: "DNS_QUERY" }), VPS, ALL_TYPES).queryType).toBe("AsPathQuery");
    expect(parseLookingGlassUrl(new URLSearchParams({ queryType: "PING_QUERY" }), VPS, availableQueryTypes(false)).queryType).toBe(
      "AsPathQuery",
    );
    expect(availableQueryTypes(false)).toEqual(["AsPathQuery", "IpPrefixQuery"]);
  });

  it("selects only vantage points that exist, in the available order, by display name, key, legacy or unique description", () => {
    const search = new URLSearchParams({
      selectedVantagePoints: JSON.stringify(["Berlin, Germany", "ham1", "FRA-ER1 Frankfurt", "Nowhere"]),
    });
    expect(parseLookingGlassUrl(search, VPS, ALL_TYPES).selectedVantagePoints).toEqual(["Frankfurt, Germany 1", "Berlin, Germany"]);
    // "Frankfurt, Germany" names two vantage points: it selects neither.
    const ambiguous = new URLSearchParams({ selectedVantagePoints: '["Frankfurt, Germany"]' });
    expect(parseLookingGlassUrl(ambiguous, VPS, ALL_TYPES).selectedVantagePoints).toEqual([]);
    // A router's name picks its vantage point when it has one (api/netcommand/ follows the same rule), not when it has two.
    const byRouter = new URLSearchParams({ selectedVantagePoints: '["fra-er1", "fra-er2"]' });
    expect(parseLookingGlassUrl(byRouter, VPS, ALL_TYPES).selectedVantagePoints).toEqual(["Frankfurt, Germany 1"]);
  });

  it("reads the GET form's repeated parameter and ignores malformed JSON gracefully", () => {
    expect(rawVantagePointNames(["Berlin, Germany", "fra2"])).toEqual(["Berlin, Germany", "fra2"]);
    expect(rawVantagePointNames(['["a", 3, "b"]'])).toEqual(["a", "b"]);
    expect(rawVantagePointNames(["[not json"])).toEqual(["[not json"]);
  });

  it("tells a submitted form from a bare visit", () => {
    expect(isSubmitted(new URLSearchParams(""))).toBe(false);
    expect(isSubmitted(new URLSearchParams("queryType=AsPathQuery&queryTerm="))).toBe(true);
  });
});
