/** The Border Planner's screen data: the external links the viewer may see (screen.server.ts). */
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { loadPlannerScreen } from "./screen.server";

export const loadBorderPlanner = (services: Services, user: UserContext, url: URL, now?: number) =>
  loadPlannerScreen(services, user, "border", url, now);
