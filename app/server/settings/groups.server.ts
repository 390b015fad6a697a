import { asc, eq } from "drizzle-orm";
import { groups, userGroups } from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import { MODERATORS_GROUP } from "~/lib/permissions";
import type { UserContext } from "../auth/user-context.server";
import type { Db } from "../postgres.server";
import { SettingsError } from "./user-settings.server";

/**
 * Groups (shell §3 allGroups/myGroups, §6 "users who can change their own group see a group
 * switcher", §7 GET, POST auth/groups/). Rules of a self-service change:
 * - only users with can_change_own_group, and superusers, may change their own membership;
 * - the moderators group is never self-assigned by non-superusers, and a non-superuser who is
 *   a moderator stays one (the change concerns their other groups);
 * - every requested group must exist (by id or by name), and at least one must be given.
 */

export type GroupRef = { id: number; name: string };
export type GroupsJson = { allGroups: GroupRef[]; myGroups: GroupRef[] };

export function mayChangeOwnGroup(user: Pick<UserContext, "canChangeOwnGroup" | "isSuperuser">): boolean {
  return user.canChangeOwnGroup || user.isSuperuser;
}

export async function listGroups(db: Db, userId: number): Promise<GroupsJson> {
  const [all, mine] = await Promise.all([
    db.select({ id: groups.id, name: groups.name }).from(groups).orderBy(asc(groups.name)),
    db
      .select({ id: groups.id, name: groups.name })
      .from(groups)
      .innerJoin(userGroups, eq(userGroups.groupId, groups.id))
      .where(eq(userGroups.userId, userId))
      .orderBy(asc(groups.name)),
  ]);
  return { allGroups: all, myGroups: mine };
}

function groupError(status: 400 | 403 | 404, reason: string): SettingsError {
  return new SettingsError(status, MESSAGES.groupSwitchFailed, [{ field: "groups", message: reason }]);
}

/** Reads the POST body's `groups`: a list of ids or names (a single value is taken as a list of one). */
export function parseGroupList(raw: unknown): (number | string)[] {
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null || raw === "" ? [] : [raw];
  const out: (number | string)[] = [];
  for (const item of list) {
    if (typeof item === "number" && Number.isInteger(item)) out.push(item);
    else if (typeof item === "string" && item.trim() !== "") out.push(/^\d+$/.test(item.trim()) ? Number(item.trim()) : item.trim());
    else if (typeof item === "object" && item !== null && ("id" in item || "name" in item)) {
      const ref = item as { id?: unknown; name?: unknown };
      if (typeof ref.id === "number" && Number.isInteger(ref.id)) out.push(ref.id);
      else if (typeof ref.name === "string" && ref.name.trim()) out.push(ref.name.trim());
      else throw groupError(400, "Each group is an id or a name.");
    } else throw groupError(400, "Each group is an id or a name.");
  }
  return out;
}

/** Replaces the actor's own group membership (see the rules above) and returns the new state. */
export async function setOwnGroups(db: Db, actor: UserContext, requested: (number | string)[]): Promise<GroupsJson> {
  if (!mayChangeOwnGroup(actor)) throw groupError(403, "You may not change your own group.");
  if (requested.length === 0) throw groupError(400, "Choose at least one group.");
  const all = await db.select({ id: groups.id, name: groups.name }).from(groups);
  const wanted = new Map<number, GroupRef>();
  for (const ref of requested) {
    const group = all.find((g) => (typeof ref === "number" ? g.id === ref : g.name === ref));
    if (!group) throw groupError(400, `There is no group ${JSON.stringify(ref)}.`);
    wanted.set(group.id, group);
  }
  const moderators = all.find((g) => g.name === MODERATORS_GROUP);
  const current = await listGroups(db, actor.id);
  const isModerator = Boolean(moderators && current.myGroups.some((g) => g.id === moderators.id));
  if (!actor.isSuperuser && moderators) {
    if (wanted.has(moderators.id) && !isModerator) throw groupError(403, "Only a superuser may make someone a moderator.");
    if (isModerator) wanted.set(moderators.id, moderators);
  }
  const ids = [...wanted.keys()];
  await db.transaction(async (tx) => {
    // Superusers replace their whole membership; others all but the moderators group (kept above).
    await tx.delete(userGroups).where(eq(userGroups.userId, actor.id));
    await tx.insert(userGroups).values(ids.map((groupId) => ({ userId: actor.id, groupId })));
  });
  return listGroups(db, actor.id);
}

/** What the header's group switcher needs, or null when the user may not switch. */
export type GroupSwitcherData = { groups: GroupRef[]; current: number | null };

export async function groupSwitcherData(db: Db, user: UserContext): Promise<GroupSwitcherData | null> {
  if (!mayChangeOwnGroup(user)) return null;
  const { allGroups, myGroups } = await listGroups(db, user.id);
  // Non-superusers cannot pick the moderators group; a moderator keeps it whatever they switch to.
  const selectable = user.isSuperuser ? allGroups : allGroups.filter((g) => g.name !== MODERATORS_GROUP);
  const current = myGroups.find((g) => selectable.some((s) => s.id === g.id))?.id ?? null;
  return { groups: selectable, current };
}
