import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadHelpIndex } from "~/features/help/help-pages.server";
import { HelpIndexView } from "~/features/help/ui/TourHelpView";
import { requireUser } from "~/server/auth/guard.server";

/** /help: the guided tours the user may take, each a link to its help page. */
export const meta: MetaFunction = () => [{ title: "Help · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request);
  return loadHelpIndex(services, user);
}

export default function HelpIndex() {
  return <HelpIndexView index={useLoaderData<typeof loader>()} />;
}
