/** The Core Planner's screen data: the internal links, all or one interface pair (screen.server.ts). */
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { loadPlannerScreen } from "./screen.server";

export const loadCorePlanner = (services: Services, user: UserContext, url: URL, now?: number) =>
  loadPlannerScreen(services, user, "core", url, now);
