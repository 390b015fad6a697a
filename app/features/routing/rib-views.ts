/**
 * Which routing tables (rib_view of rib_entries / rib_current) a routing query reads. A BMP station
 * stores a router's Adj-RIB-In of each peer before and after its import policy and its Loc-RIB;
 * an MRT import is post-policy. By default the Looking Glass and the Control Plane read what the
 * router accepted — post-policy and Loc-RIB — and never mix in the pre-policy routes it may have
 * rejected; the private Looking Glass and the Control Plane may choose one table instead
 * (`ribView`). Pure and isomorphic.
 */
import { RIB_VIEWS, type RibView } from "./bmp/types";

export { RIB_VIEWS, type RibView };

/** The URL and API parameter. */
export const RIB_VIEW_PARAM = "ribView";

/** "default" (post-policy and Loc-RIB), or one table. */
export type RibViewChoice = "default" | RibView;
export const DEFAULT_RIB_VIEW: RibViewChoice = "default";
export const RIB_VIEW_CHOICES: readonly RibViewChoice[] = ["default", "pre-policy", "post-policy", "loc-rib"];

/** The tables of the default choice. */
export const DEFAULT_RIB_VIEWS: readonly RibView[] = ["post-policy", "loc-rib"];

/** The choice as the "RIB view" select offers it. */
export const RIB_VIEW_CHOICE_LABELS: Record<RibViewChoice, string> = {
  default: "Post-policy and Loc-RIB",
  "pre-policy": "Adj-RIB-In pre-policy",
  "post-policy": "Adj-RIB-In post-policy",
  "loc-rib": "Loc-RIB",
};

/** A row's table as people read it. */
export const RIB_VIEW_LABELS: Record<RibView, string> = {
  "pre-policy": "Adj-RIB-In pre-policy",
  "post-policy": "Adj-RIB-In post-policy",
  "loc-rib": "Loc-RIB",
};

export function isRibViewChoice(value: string): value is RibViewChoice {
  return (RIB_VIEW_CHOICES as readonly string[]).includes(value);
}

/** The tables a choice reads. */
export function ribViewsOf(choice: RibViewChoice): RibView[] {
  return choice === "default" ? [...DEFAULT_RIB_VIEWS] : [choice];
}

/** A parameter's value → the choice (absent or empty: the default); null for a value that names none. */
export function parseRibViewChoice(value: string | null | undefined): RibViewChoice | null {
  const text = (value ?? "").trim();
  if (text === "") return DEFAULT_RIB_VIEW;
  return isRibViewChoice(text) ? text : null;
}

/** The message for a value that names no choice. */
export function unknownRibView(value: string): string {
  return `Unknown RIB view "${value}": use ${RIB_VIEW_CHOICES.join(", ")}.`;
}
