import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { cycleRestriction } from "~/server/auth/delegation.server";
import { readProtectedForm, requireUser, safeNext } from "~/server/auth/guard.server";

/**
 * POST /settings/restriction: the header's "Next" of a delegated account (shell §4): the next flows
 * restriction becomes current, (i + 1) mod n, then back to the path the form came from (its
 * search is left behind: it may name dimensions of the restriction that was current).
 */
export async function action({ request }: ActionFunctionArgs) {
  const { services, user } = await requireUser(request);
  const form = await readProtectedForm(request);
  const back = safeNext(String(form.get("back") ?? ""));
  await cycleRestriction(services.pg.db, user.id);
  return redirect(back ? new URL(back, "http://flowlens.invalid").pathname : "/");
}

/** Nothing to show: a visit goes to the landing route. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect("/");
}
