import { Form, useLocation } from "@remix-run/react";
import { useId } from "react";
import { CsrfField } from "./CsrfField";

/** The current flows restriction of a delegated account with two or more (features/flows/delegation-badge.server.ts). */
export type RestrictionBadge = {
  /** 1-based position and count: "Restriction 2 of 3". */
  position: number;
  count: number;
  /** "<Dimension label> = <value labels>". */
  label: string;
};

/**
 * The header's restriction cycler (shell §4: delegated users cycle through their flows restrictions
 * in turn): "Restriction 2 of 3: Destination AS (ingress) = Customer — Next". A plain POST form
 * (CSRF field, no JavaScript needed); the action makes the next restriction current and redirects
 * back to the path it came from.
 */
export function RestrictionSwitcher({ badge, className }: { badge: RestrictionBadge | null | undefined; className?: string }) {
  const location = useLocation();
  // Drawn twice (header and phone menu): each copy needs its own id.
  const id = useId();
  if (!badge) return null;
  return (
    // A document request, also with JavaScript: every screen's state starts afresh under the new restriction.
    <Form method="post" action="/settings/restriction" reloadDocument aria-label="Flow restriction" data-testid="restriction-switcher">
      <CsrfField />
      <input type="hidden" name="back" value={location.pathname} />
      <span id={id} title={badge.label} style={{ fontSize: "0.875rem", overflowWrap: "anywhere" }}>
        Restriction {badge.position} of {badge.count}: {badge.label} —{" "}
      </span>
      <button type="submit" className={className} aria-describedby={id}>
        Next
      </button>
    </Form>
  );
}
