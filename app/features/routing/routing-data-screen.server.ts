/**
 * The /site-settings/routing-data screen: staff and superusers upload MRT files into the routing
 * history of a vantage point (the same importer as `npm run rib:import`), manage the VRPs of route
 * origin validation (RPKI section: a VRP file's import, the RTR cache's state), and keep the
 * community labels the private Looking Glass shows (community-labels-screen.server.ts), and import
 * PeeringDB's JSON (peeringdb/upload.server.ts; the daily sync's state beside it). The POST's
 * `intent` field says which form was sent; without one it is the MRT upload.
 */
import { data } from "@remix-run/node";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { BodyProblem, readFormBody } from "~/server/request-body.server";
import { loadCommunityLabelsSection, saveCommunityLabels } from "./community-labels-screen.server";
import { formIntent } from "./form-intent.server";
import { handleMrtUpload, uploadVantagePoints } from "./mrt-upload.server";
import { handleRoaClear, handleRoaUpload, isRpkiIntent } from "./rpki/roa-upload.server";
import { loadRpkiSection } from "./rpki/rpki-screen.server";
import { loadPeeringDbSection } from "./peeringdb/section.server";
import { handlePeeringDbUpload, isPeeringDbIntent } from "./peeringdb/upload.server";

export async function loadRoutingDataScreen(
  { services, user }: { services: Pick<Services, "pg" | "config">; user: UserContext },
  request: Request,
) {
  const [vantagePoints, communityLabels, rpki, peeringdb] = await Promise.all([
    uploadVantagePoints(services),
    loadCommunityLabelsSection(services, new URL(request.url)),
    loadRpkiSection(services, user),
    loadPeeringDbSection(services, user),
  ]);
  return { vantagePoints, communityLabels, rpki, peeringdb };
}

export type RoutingDataScreen = Awaited<ReturnType<typeof loadRoutingDataScreen>>;

/** The form's result, or the reason it was refused with its status (400, or 413 for a file too large). */
export async function routingDataAction(
  context: { services: Pick<Services, "pg" | "ch" | "config">; user: UserContext },
  request: Request,
) {
  let sent: Awaited<ReturnType<typeof formIntent>>;
  try {
    sent = await formIntent(request, context.services.config.MAX_FORM_BODY);
  } catch (error) {
    if (error instanceof BodyProblem) return data({ summary: null, error: error.message }, { status: error.status });
    throw error;
  }
  const { intent, request: body, form } = sent;
  if (isRpkiIntent(intent)) {
    const result =
      intent === "rpki-import"
        ? await handleRoaUpload(body, context.services, context.user)
        : await handleRoaClear(
            form ?? (await readFormBody(body, context.services.config.MAX_FORM_BODY)),
            body,
            context.services,
            context.user,
          );
    return data({ rpki: result.rpki }, { status: result.status });
  }
  if (isPeeringDbIntent(intent)) {
    const result = await handlePeeringDbUpload(body, context.services, context.user);
    return data({ peeringdb: result.peeringdb }, { status: result.status });
  }
  // The community labels' forms are plain URL-encoded ones; the uploads are multipart.
  if (form) return saveCommunityLabels(context.services, context.user, body);
  const result = await handleMrtUpload(body, context.services);
  return data(result, { status: result.error ? (result.status ?? 400) : 200 });
}
