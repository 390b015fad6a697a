/**
 * The header's "Restriction 2 of 3: <dimension> = <values>" of an account with two or more flows
 * restrictions (the layout's loader asks for it; components/RestrictionSwitcher.tsx draws it).
 */
import type { RestrictionBadge } from "~/components/RestrictionSwitcher";
import { readDelegation } from "~/server/auth/delegation.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import { getDimension, isDimensionId } from "~/features/filter/dimensions";
import { restrictionFilters } from "~/features/filter/filters";
import { nameKeys } from "./service.server";

export async function restrictionBadge(
  services: Pick<Services, "pg" | "ch">,
  user: Pick<UserContext, "id">,
): Promise<RestrictionBadge | null> {
  const row = await readDelegation(services.pg.db, user.id);
  if (!row || row.flows.length < 2) return null;
  const current = row.flows[row.currentIndex];
  const head = { position: row.currentIndex + 1, count: row.flows.length };
  if (!isDimensionId(current.dimension)) return { ...head, label: `${current.dimension} = ${current.constrained_values.join(", ")}` };
  const values = restrictionFilters([current]).map((f) => f.value);
  const names = await nameKeys(services, user, current.dimension, values);
  return { ...head, label: `${getDimension(current.dimension).label} = ${values.map((v) => names.get(v) ?? v).join(", ")}` };
}
