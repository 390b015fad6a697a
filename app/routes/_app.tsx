import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { AppLayout } from "~/components/AppLayout";
import { ScreenViewTracking } from "~/components/ScreenViewTracking";
import { restrictionBadge } from "~/features/flows/delegation-badge.server";
import { toursFrame } from "~/features/help/tour-status.server";
import { HelpMenu } from "~/features/help/ui/HelpMenu";
import { TourProvider } from "~/features/help/ui/TourProvider";
import { loadAppFrame } from "~/server/app-frame.server";

/** Pathless layout of the logged-in screens: the guard runs here for the session, in each child for its permission. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { frame, services, user } = await loadAppFrame(request);
  const [restriction, tours] = await Promise.all([restrictionBadge(services, user), toursFrame(services, user)]);
  return { ...frame, restriction, tours };
}

export default function AppFrameRoute() {
  const frame = useLoaderData<typeof loader>();
  return (
    <TourProvider available={frame.tours.available} states={frame.tours.states}>
      <AppLayout frame={frame} help={(actionClassName) => <HelpMenu index={frame.tours.index} actionClassName={actionClassName} />}>
        <ScreenViewTracking consented={frame.user.hasConsented} />
        <Outlet />
      </AppLayout>
    </TourProvider>
  );
}
