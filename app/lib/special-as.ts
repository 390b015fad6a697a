/** The special AS values of the spec (shell §3) with the explanations shown to users. */
export const SPECIAL_AS_VALUES = [
  {
    asn: -101,
    name: "Others",
    explanation:
      "Traffic of autonomous systems outside the 200 tracked ones. flowlens keeps the numbers of the top 200 ASes by traffic in its aggregates and adds up all others here.",
  },
  {
    asn: -999,
    name: "Untracked",
    explanation:
      "Traffic whose AS could not be determined, for example flows from an interface that is not in the inventory or without routing information for it.",
  },
  {
    asn: -1,
    name: "Not routable",
    explanation: "Traffic from or to addresses that no route in the routing table covers: unannounced or reserved address space (bogons).",
  },
] as const;

export const UNCERTAIN_EXPLANATION = "Uncertain: the traffic is a mix that cannot be attributed to a single value of this dimension.";

/** Ids at or below -1000 are special (shell §3). */
export function isSpecialAs(asn: number): boolean {
  return asn < 0;
}
