import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadTourHelpPage } from "~/features/help/help-pages.server";
import { TourHelpView } from "~/features/help/ui/TourHelpView";
import { requireUser } from "~/server/auth/guard.server";

/** /help/<id>: a guided tour as a page (no JavaScript needed), from the same catalogue as the overlay. */
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Help"} · flowlens` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request);
  return loadTourHelpPage(services, user, params.tourId ?? "");
}

export default function TourHelp() {
  return <TourHelpView page={useLoaderData<typeof loader>()} />;
}
