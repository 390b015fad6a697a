import { eq, or } from "drizzle-orm";
import { featureFlags, groupPermissions, groups, userFeatureFlags, userGroups, userPermissions, users } from "~db/postgres/schema";
import { DELEGABLE_PERMISSION_CODES, PERMISSIONS } from "~/lib/permissions";
import type { Db } from "../postgres.server";
import { EXTERNAL_LINK_PERMISSIONS, readDelegation } from "./delegation.server";

export type UserContext = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  isStaff: boolean;
  isSuperuser: boolean;
  isDelegated: boolean;
  hasConsented: boolean;
  canChangeOwnGroup: boolean;
  permissions: string[];
  featureFlags: string[];
  groups: string[];
};

/**
 * A user with the permissions of their own and of their groups; superusers hold them all. A
 * delegated account whose external-links restrictions name no AS number loses the external-links
 * permissions here (shell §4), and every delegated account keeps only the delegable permissions,
 * so the menu, the guard and every endpoint see the same set.
 */
export async function loadUserContext(db: Db, userId: number): Promise<UserContext | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user || !user.isActive) return null;
  const [own, viaGroups, memberOf, flags, delegation] = await Promise.all([
    db.select({ p: userPermissions.permission }).from(userPermissions).where(eq(userPermissions.userId, userId)),
    db
      .select({ p: groupPermissions.permission })
      .from(groupPermissions)
      .innerJoin(userGroups, eq(userGroups.groupId, groupPermissions.groupId))
      .where(eq(userGroups.userId, userId)),
    db
      .select({ name: groups.name })
      .from(groups)
      .innerJoin(userGroups, eq(userGroups.groupId, groups.id))
      .where(eq(userGroups.userId, userId)),
    db
      .selectDistinct({ name: featureFlags.name })
      .from(featureFlags)
      .leftJoin(userFeatureFlags, eq(userFeatureFlags.flag, featureFlags.name))
      .where(or(eq(featureFlags.enabledForAll, true), eq(userFeatureFlags.userId, userId))),
    user.isDelegated ? readDelegation(db, userId) : Promise.resolve(null),
  ]);
  let permissions = user.isSuperuser ? [...PERMISSIONS] : [...new Set([...own, ...viaGroups].map((r) => r.p))].sort();
  // A delegated account never administers anything, whatever it was given (a group, a stray grant, a superuser flag).
  if (user.isDelegated) permissions = permissions.filter((p) => (DELEGABLE_PERMISSION_CODES as readonly string[]).includes(p));
  if (user.isDelegated && !(delegation?.external.ASNumberList ?? []).length) {
    const removed = new Set<string>(EXTERNAL_LINK_PERMISSIONS);
    permissions = permissions.filter((p) => !removed.has(p));
  }
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    isStaff: user.isStaff,
    isSuperuser: user.isSuperuser,
    isDelegated: user.isDelegated,
    hasConsented: user.hasConsented,
    canChangeOwnGroup: user.canChangeOwnGroup,
    permissions,
    featureFlags: flags.map((f) => f.name).sort(),
    groups: memberOf.map((g) => g.name).sort(),
  };
}
