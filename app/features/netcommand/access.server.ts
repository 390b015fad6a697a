/**
 * Who may run ping and traceroute (looking glass §6: the flag canInvokeNetcommandApi) and who a
 * job belongs to.
 *
 * - Logged-in users (session or API token, consent given) holding the flag: every vantage point
 *   with PRIVATE_LOOKING_GLASS, else the public ones; public addresses only (targets.ts), and
 *   for staff also the ranges of NETCOMMAND_STAFF_ALLOWED_RANGES.
 * - Delegated users: besides, only the vantage points of the routers in their routerList (none
 *   when it is empty); naming another is refused with a 403.
 * - Anonymous callers: only while the public Looking Glass is on (APP_VARIANT=public-lg or the
 *   site setting) and the flag is enabled for everybody; public vantage points and public
 *   addresses only.
 *
 * A job belongs to its creator: the user, or for anonymous callers their browser (a hash of its
 * random csrftoken cookie) — never a network address, which others may share or forge.
 */
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { featureFlags } from "~db/postgres/schema";
import { publicLookingGlassEnabled } from "~/features/routing/lookingglass.server";
import { accessProblem } from "~/server/api/contract.server";
import { csrfCookieHeader, newCsrfToken, readCsrfCookie } from "~/server/auth/csrf.server";
import type { RequestContext } from "~/server/auth/guard.server";
import { lookingGlassRouters } from "~/server/auth/delegation.server";
import { clientAddress } from "~/server/auth/session.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import type { JobOwner } from "./jobs.server";
import { PUBLIC_SCOPE, type NetcommandScope } from "./targets";

export const NETCOMMAND_FLAG = "canInvokeNetcommandApi";

export type NetcommandAccess = { scope: NetcommandScope } | { denied: "not_authenticated" | "permission_denied" | "consent_required" };

async function flagEnabledForAll(services: Pick<Services, "pg">): Promise<boolean> {
  const [row] = await services.pg.db
    .select({ on: featureFlags.enabledForAll })
    .from(featureFlags)
    .where(eq(featureFlags.name, NETCOMMAND_FLAG));
  return row?.on ?? false;
}

export async function netcommandAccess(services: Pick<Services, "pg" | "config">, user: UserContext | null): Promise<NetcommandAccess> {
  if (user) {
    if (!user.hasConsented) return { denied: "consent_required" };
    if (!user.featureFlags.includes(NETCOMMAND_FLAG)) return { denied: "permission_denied" };
    return {
      scope: {
        vantagePoints: user.permissions.includes("PRIVATE_LOOKING_GLASS") ? "all" : "public",
        allowedInternalRanges: user.isStaff ? services.config.NETCOMMAND_STAFF_ALLOWED_RANGES : [],
        // A delegated user: the vantage points of their routerList only (none when it is empty).
        routers: await lookingGlassRouters(services.pg.db, user),
      },
    };
  }
  if ((await publicLookingGlassEnabled(services)) && (await flagEnabledForAll(services))) return { scope: PUBLIC_SCOPE };
  return { denied: "not_authenticated" };
}

/** For the JSON endpoints: the caller's scope, or the contract's 403 for the reason it is refused. */
export async function requireNetcommandScope(context: RequestContext, user: UserContext | null): Promise<NetcommandScope> {
  const access = await netcommandAccess(context.services, user);
  if ("scope" in access) return access.scope;
  throw accessProblem(access.denied, context);
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * The owner of the jobs a request creates or reads. Anonymous visitors are recognised by their
 * csrftoken cookie (a random per-browser value); a visitor without one gets one with the answer
 * (`setCookie`), so a plain HTTP client keeping cookies can read its job back.
 */
export function requestOwner(request: Request, user: UserContext | null): { owner: JobOwner; setCookie: string | null } {
  // The address only counts anonymous jobs for the limits (limits.server.ts); it never grants access.
  const address = clientAddress(request);
  const existing = readCsrfCookie(request);
  // A user keeps reading the anonymous jobs their browser started before logging in.
  if (user) return { owner: { userId: user.id, visitor: existing ? sha256(existing) : null, clientAddress: address }, setCookie: null };
  const token = existing ?? newCsrfToken();
  return {
    owner: { userId: null, visitor: sha256(token), clientAddress: address },
    setCookie: existing ? null : csrfCookieHeader(token, request),
  };
}
