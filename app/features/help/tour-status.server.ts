import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { tourStatus, users } from "~db/postgres/schema";
import { welcomePageFor } from "~/server/auth/welcome-page.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { TOURS, TOUR_STATUSES, findTour, mayTakeTour, tourIndexEntry, type Tour, type TourStatus, type TourViewer } from "./tours";

/**
 * The guided tours' status per user and tour (shell §3: Started, Finished, Failed), in PostgreSQL
 * (`tour_status`). The overlay records each step it shows (Started with the step, so a tour resumes
 * there), the end of the last step (Finished), or a step whose anchor is missing on its screen (Failed,
 * with the anchor: what staff read in GET usertracking/tours/failures/ to mend the tour).
 *
 * Transitions: Started from nothing, from Started (the next step) and from Finished or Failed (taken
 * again, from step 0 unless another is named); Finished and Failed only from Started. Anything else is a
 * 409 naming the tour's status.
 */

export type TourState = { tourId: string; status: TourStatus; step: number; failedAnchor: string | null; updatedAt: string };

export const tourStatusBody = z
  .object({
    status: z.enum(TOUR_STATUSES),
    step: z.number().int().min(0).max(100).optional(),
    failedAnchor: z
      .string()
      .regex(/^[a-z0-9-]{1,80}$/, "a data-tour anchor: lowercase letters, digits and hyphens, at most 80")
      .optional(),
  })
  .strict();
export type TourStatusBody = z.infer<typeof tourStatusBody>;

export class TourStatusProblem extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

type Viewer = Pick<UserContext, "id" | "permissions" | "isStaff" | "isSuperuser" | "isDelegated">;

/** Who the user is for the tours' audiences (the welcome page is the site's setting for delegated accounts). */
export async function tourViewer(services: Services, user: Viewer): Promise<TourViewer> {
  return {
    permissions: new Set(user.permissions),
    isStaff: user.isStaff,
    isSuperuser: user.isSuperuser,
    welcomePage: user.isDelegated ? (await welcomePageFor(services.pg.db, user)) !== null : false,
  };
}

/** The ids of the tours the user may take, in catalogue order. */
export async function availableTourIds(services: Services, user: Viewer): Promise<string[]> {
  const viewer = await tourViewer(services, user);
  return TOURS.filter((t) => mayTakeTour(t, viewer)).map((t) => t.id);
}

function toState(row: typeof tourStatus.$inferSelect): TourState {
  return {
    tourId: row.tourId,
    status: row.status as TourStatus,
    step: row.step,
    failedAnchor: row.failedAnchor,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The user's status of every tour they have started, of the tours the catalogue still has. */
export async function tourStates(services: Services, userId: number): Promise<TourState[]> {
  const rows = await services.pg.db.select().from(tourStatus).where(eq(tourStatus.userId, userId)).orderBy(tourStatus.tourId);
  return rows.filter((r) => findTour(r.tourId)).map(toState);
}

/**
 * What the header's help button needs: the tours the user may take (ids, and the index entries it lists — not the
 * steps' text, which the browser loads when a tour starts) and their status.
 */
export async function toursFrame(services: Services, user: Viewer) {
  const [available, states] = await Promise.all([availableTourIds(services, user), tourStates(services, user.id)]);
  const index = available
    .map((id) => findTour(id))
    .filter((t): t is Tour => t !== undefined)
    .map(tourIndexEntry);
  return { available, index, states: states.filter((s) => available.includes(s.tourId)) };
}

function checkStep(tour: Tour, step: number) {
  if (step >= tour.steps.length)
    throw new TourStatusProblem(
      400,
      `The tour "${tour.id}" has ${tour.steps.length} steps: step ${step} does not exist (0 to ${tour.steps.length - 1}).`,
    );
}

/** Records a status of one of the user's tours, checked against the tour's audience and the transitions above. */
export async function recordTourStatus(services: Services, user: Viewer, tourId: string, body: TourStatusBody): Promise<TourState> {
  const tour = findTour(tourId);
  if (!tour) throw new TourStatusProblem(404, `There is no tour "${tourId}".`);
  if (!mayTakeTour(tour, await tourViewer(services, user)))
    throw new TourStatusProblem(403, "You do not have permission to perform this action.");
  const db = services.pg.db;
  const [current] = await db
    .select()
    .from(tourStatus)
    .where(and(eq(tourStatus.userId, user.id), eq(tourStatus.tourId, tourId)));
  const from = (current?.status ?? null) as TourStatus | null;
  const step =
    body.step ?? (body.status === "Started" && from === "Started" ? current!.step : body.status === "Started" ? 0 : (current?.step ?? 0));
  checkStep(tour, step);
  if (body.status !== "Started" && from !== "Started")
    throw new TourStatusProblem(
      409,
      `The tour "${tourId}" is ${from === null ? "not started" : from}: only a started tour can become ${body.status}.`,
    );
  if (body.status === "Failed" && !body.failedAnchor)
    throw new TourStatusProblem(400, "failedAnchor: the anchor that was missing is required for Failed.");
  if (body.status !== "Failed" && body.failedAnchor)
    throw new TourStatusProblem(400, "failedAnchor: only a Failed tour names a missing anchor.");
  if (body.status === "Failed" && !tour.steps.some((s) => s.anchor === body.failedAnchor))
    throw new TourStatusProblem(400, `failedAnchor: "${body.failedAnchor}" is no anchor of the tour "${tourId}".`);
  const restarted = body.status === "Started" && from !== "Started";
  const values = {
    status: body.status,
    step,
    failedAnchor: body.status === "Failed" ? body.failedAnchor! : null,
    updatedAt: new Date(),
  };
  const [row] = await db
    .insert(tourStatus)
    .values({ userId: user.id, tourId, ...values })
    .onConflictDoUpdate({
      target: [tourStatus.userId, tourStatus.tourId],
      set: restarted ? { ...values, startedAt: sql`now()` } : values,
    })
    .returning();
  return toState(row);
}

/** Staff: the tours that failed, newest first, with the account and the missing anchor. */
export async function tourFailures(services: Services, limit = 200) {
  const rows = await services.pg.db
    .select({
      tourId: tourStatus.tourId,
      step: tourStatus.step,
      failedAnchor: tourStatus.failedAnchor,
      updatedAt: tourStatus.updatedAt,
      email: users.email,
    })
    .from(tourStatus)
    .innerJoin(users, eq(users.id, tourStatus.userId))
    .where(eq(tourStatus.status, "Failed"))
    .orderBy(desc(tourStatus.updatedAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, updatedAt: r.updatedAt.toISOString() }));
}
