import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { availableTourIds } from "~/features/help/tour-status.server";
import { TOURS } from "~/features/help/tours";
import { FaqView } from "~/features/help/ui/FaqView";
import { requireUser } from "~/server/auth/guard.server";

export const meta: MetaFunction = () => [{ title: "FAQ · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request);
  const ids = await availableTourIds(services, user);
  return { tours: TOURS.filter((t) => ids.includes(t.id)).map((t) => ({ id: t.id, title: t.title })) };
}

export default function Faq() {
  return <FaqView tours={useLoaderData<typeof loader>().tours} />;
}
