import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { FaqView } from "~/features/help/ui/FaqView";
import { requireUser } from "~/server/auth/guard.server";

export const meta: MetaFunction = () => [{ title: "FAQ · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export default function Faq() {
  return <FaqView />;
}
