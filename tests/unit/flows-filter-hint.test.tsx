// The filter bar's value input names what the chosen dimension accepts (not the AS hint for every dimension).
import { MantineProvider } from "@mantine/core";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DIMENSIONS, FILTER_KINDS, FILTER_VALUE_HINTS, filterValueHint, type DimensionId } from "~/features/filter/dimensions";
import { FilterBar } from "~/features/flows/ui/FilterBar";

/** The placeholder of the bar's "New filter value" input with `dimension` chosen. */
function newFilterHint(dimension: DimensionId): string | undefined {
  const html = renderToString(
    <MantineProvider>
      <FilterBar
        filterParamValues={[]}
        applied={[]}
        dimensions={DIMENSIONS.map((d) => ({ value: d.id, label: d.label }))}
        defaultDimension={dimension}
        onChange={() => {}}
      />
    </MantineProvider>,
  );
  const input = /<input[^>]*aria-label="New filter value"[^>]*>/.exec(html)?.[0] ?? "";
  return /placeholder="([^"]*)"/.exec(input)?.[1];
}

describe("filter value hint per dimension", () => {
  it("each filter kind has its own hint, and the bar shows the chosen dimension's", () => {
    const hints = FILTER_KINDS.map((kind) => filterValueHint(DIMENSIONS.find((d) => d.filterKind === kind)!.id));
    expect(new Set(hints).size).toBe(FILTER_KINDS.length);
    expect(newFilterHint("AS_SRC_INGRESS")).toBe("AS number, name or !value");
    expect(newFilterHint("ROUTER_IN")).toBe("Router name or !value");
    expect(newFilterHint("IANA_PROTOCOL")).toBe("Protocol number, name or !value");
    expect(newFilterHint("VRF_NAME")).toBe("VRF name or !value");
    for (const d of DIMENSIONS) expect(newFilterHint(d.id), d.id).toBe(FILTER_VALUE_HINTS[d.filterKind]);
  });
});
