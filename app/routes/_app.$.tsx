import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { NotFoundPage } from "~/components/ErrorPages";
import { requireUser } from "~/server/auth/guard.server";

/** Any other path: login required, then the not-found page with status 404. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  throw data({ notFound: true }, { status: 404 });
}

export const meta: MetaFunction = () => [{ title: "Not found · flowlens" }];

export default function NotFound() {
  return <NotFoundPage />;
}

export function ErrorBoundary() {
  return <NotFoundPage />;
}
