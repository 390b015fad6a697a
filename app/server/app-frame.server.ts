import type { ToolRoute } from "~/lib/routes";
import { requireUser } from "./auth/guard.server";
import { resolveStyle } from "./site-style.server";

/** What the logged-in frame (header, menu, footer) needs, after the session and route guard. */
export async function loadAppFrame(request: Request, route?: ToolRoute) {
  const { services, user, menu } = await requireUser(request, route);
  return {
    services,
    user,
    frame: {
      style: await resolveStyle(services.pg.db, user.id),
      menu: menu.map((item) => ({ path: item.path, label: item.menuLabel })),
      user: { email: user.email, firstName: user.firstName, lastName: user.lastName, isStaff: user.isStaff, isSuperuser: user.isSuperuser, groups: user.groups },
    },
  };
}

export type AppFrame = Awaited<ReturnType<typeof loadAppFrame>>["frame"];
