import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { AppLayout } from "~/components/AppLayout";
import { ScreenViewTracking } from "~/components/ScreenViewTracking";
import { restrictionBadge } from "~/features/flows/delegation-badge.server";
import { loadAppFrame } from "~/server/app-frame.server";

/** Pathless layout of the logged-in screens: the guard runs here for the session, in each child for its permission. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { frame, services, user } = await loadAppFrame(request);
  return { ...frame, restriction: await restrictionBadge(services, user) };
}

export default function AppFrameRoute() {
  const frame = useLoaderData<typeof loader>();
  return (
    <AppLayout frame={frame}>
      <ScreenViewTracking consented={frame.user.hasConsented} />
      <Outlet />
    </AppLayout>
  );
}
