import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { AppLayout } from "~/components/AppLayout";
import { requireUser } from "~/server/auth/guard.server";
import { resolveStyle } from "~/server/site-style.server";

/** Pathless layout of the logged-in screens: the guard runs here for the session, in each child for its permission. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user, menu } = await requireUser(request);
  return {
    style: await resolveStyle(services.pg.db, user.id),
    menu: menu.map((item) => ({ path: item.path, label: item.menuLabel })),
    user: { email: user.email, firstName: user.firstName, lastName: user.lastName },
  };
}

export default function AppFrame() {
  const { style, menu, user } = useLoaderData<typeof loader>();
  return (
    <AppLayout style={style} menu={menu} user={user}>
      <Outlet />
    </AppLayout>
  );
}
