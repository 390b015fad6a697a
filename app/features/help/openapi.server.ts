/** The OpenAPI description of the guided tours' status calls (usertracking/tours/), handed to the catalogue by app/wiring.server.ts. */
import { arr, int, nullable, obj, str, type Operation } from "~/server/api/openapi.server";
import { TOUR_STATUSES } from "./tours";
import { tourStatusBody } from "./tour-status.server";

const state = obj({
  tourId: str,
  status: { enum: [...TOUR_STATUSES] },
  step: { ...int, description: "the step shown last, 0-based: a Started tour resumes there" },
  failedAnchor: nullable({ ...str, description: "Failed: the data-tour anchor that was missing on the step's screen" }),
  updatedAt: { type: "string", format: "date-time" },
});

export const TOURS_OPERATIONS: Operation[] = [
  {
    file: "usertracking.tours.ts",
    method: "GET",
    path: "/usertracking/tours/",
    summary: "The guided tours the caller may take (ids of /help/<id>) and the caller's status of each tour started.",
    access: "login",
    response: obj({ available: arr(str), states: arr(state) }),
  },
  {
    file: "usertracking.tours.$tourId.ts",
    method: "POST",
    path: "/usertracking/tours/{tourId}/",
    summary: "Records the caller's status of a guided tour: Started (with the step shown), Finished, or Failed (with the missing anchor).",
    description:
      "Started is accepted from no status, from Started (the next step; step kept when absent) and from Finished or Failed (the tour taken again, from step 0 unless step is given). Finished and Failed only from Started (409 otherwise). Failed needs failedAnchor, one of the tour's anchors (400 otherwise). step beyond the tour's steps: 400. An unknown tour: 404; a tour the caller may not take (its screens' permissions, TOUR_DEMOLYTICS for the demo tour, staff for the administration how-tos, the welcome page for the welcome tour): 403.",
    access: "login",
    body: tourStatusBody,
    response: state,
  },
  {
    file: "usertracking.tours.failures.ts",
    method: "GET",
    path: "/usertracking/tours/failures/",
    summary:
      "Staff and superusers: the tours that failed, newest first (at most 200), with the account and the missing anchor; 403 for others.",
    access: "login",
    response: obj({
      failures: arr(
        obj({ tourId: str, step: int, failedAnchor: nullable(str), updatedAt: { type: "string", format: "date-time" }, email: str }),
      ),
    }),
  },
];
