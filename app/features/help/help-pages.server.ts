import { data } from "@remix-run/node";
import { MESSAGES } from "~/lib/messages";
import { findToolRoute } from "~/lib/routes";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { availableTourIds } from "./tour-status.server";
import { TOURS, findTour, stepScreen, type Tour } from "./tours";

/** The screens of the tours that are not in the tools' catalogue, by their path. */
const OTHER_SCREENS: Record<string, string> = {
  "/settings/security": "Settings › Security",
  "/site-settings/data-sources": "Site settings › Data sources",
  "/welcome": "Welcome",
};

export function screenLabel(path: string): string {
  return findToolRoute(path)?.menuLabel ?? OTHER_SCREENS[path] ?? path;
}

/** A tour as its help page shows it: every step with its screen's name and link. */
function tourPage(tour: Tour) {
  return {
    id: tour.id,
    title: tour.title,
    summary: tour.summary,
    kind: tour.kind,
    steps: tour.steps.map((s) => ({
      anchor: s.anchor,
      title: s.title,
      body: s.body,
      screen: screenLabel(stepScreen(tour, s)),
      href: s.path ?? tour.path,
    })),
  };
}

export type TourHelpPage = ReturnType<typeof tourPage>;

/** /help/<id>: the tour's help page for a user who may take it; 404 for an unknown id, 403 for a tour of screens the user may not open. */
export async function loadTourHelpPage(services: Services, user: UserContext, id: string) {
  const tour = findTour(id);
  if (!tour) throw data({ notFound: true }, { status: 404 });
  if (!(await availableTourIds(services, user)).includes(id)) throw data({ detail: MESSAGES.permissionDenied }, { status: 403 });
  return tourPage(tour);
}

/** /help: the tours the user may take, screen tours first, then how-to tours. */
export async function loadHelpIndex(services: Services, user: UserContext) {
  const ids = await availableTourIds(services, user);
  const tours = TOURS.filter((t) => ids.includes(t.id)).map((t) => ({ id: t.id, title: t.title, summary: t.summary, kind: t.kind }));
  return { screens: tours.filter((t) => t.kind === "screen"), howTos: tours.filter((t) => t.kind === "how-to") };
}
