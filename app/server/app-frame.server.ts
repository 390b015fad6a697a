import type { ToolRoute } from "~/lib/routes";
import { requireUser } from "./auth/guard.server";
import { unreadCount } from "./notifications/notifications.server";
import { safeTimezone } from "~/lib/date-format";
import { groupSwitcherData } from "./settings/groups.server";
import { siteSettingsRole } from "./settings/site-settings.server";
import { requestStyle } from "./site-style.server";
import { getUserSettings } from "./settings/user-settings.server";

/** What the logged-in frame (header, menu, footer) needs, after the session and route guard. */
export async function loadAppFrame(request: Request, route?: ToolRoute) {
  const { services, user, menu } = await requireUser(request, route);
  const [style, unread, overrides, groupSwitcher, settings] = await Promise.all([
    requestStyle(request, services.pg.db, user.id),
    unreadCount(services.pg.db, user.id),
    databaseOverrides(services, user.id),
    groupSwitcherData(services.pg.db, user),
    getUserSettings(services.pg.db, user.id),
  ]);
  return {
    services,
    user,
    frame: {
      style,
      unreadNotifications: unread,
      overrides,
      groupSwitcher,
      canEditSiteSettings: siteSettingsRole(user) !== null,
      menu: menu.map((item) => ({ path: item.path, label: item.menuLabel })),
      /** The user's timezone: pop-ups give their time in it. */
      timezone: safeTimezone(settings.timezone),
      user: {
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        isStaff: user.isStaff,
        isSuperuser: user.isSuperuser,
        groups: user.groups,
        /** GDPR consent given: the browser tracks screen views only then (usage tracking). */
        hasConsented: user.hasConsented,
      },
    },
  };
}

export type AppFrame = Awaited<ReturnType<typeof loadAppFrame>>["frame"];

/** Administrative overrides of the analytics databases: shown as a warning on every page while set. */
async function databaseOverrides(services: Awaited<ReturnType<typeof requireUser>>["services"], userId: number) {
  const { users } = await import("~db/postgres/schema");
  const { eq } = await import("drizzle-orm");
  const [row] = await services.pg.db
    .select({ flows: users.overrideClickhouseDb, raw: users.overrideClickhouseRawFlowDb })
    .from(users)
    .where(eq(users.id, userId));
  return { clickhouseDb: row?.flows ?? null, rawFlowDb: row?.raw ?? null };
}
