import { Alert, Stack, Text, Title } from "@mantine/core";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { NotFoundPage } from "~/components/ErrorPages";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";

/**
 * Screens of the spec that have no implementation yet: the route exists with its permission
 * check, and says plainly that the tool is not available in this version. Any other single
 * path segment is the not-found page.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const route = findToolRoute(`/${params.tool ?? ""}`);
  await requireUser(request, route);
  if (!route) throw data({ notFound: true }, { status: 404 });
  return { label: route.menuLabel, path: route.path };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.label} · flowlens` : "Not found · flowlens" }];

export default function ToolPlaceholder() {
  const { label } = useLoaderData<typeof loader>();
  return (
    <Stack>
      <Title order={2}>{label}</Title>
      <Alert color="blue" title="Not available yet">
        <Text size="sm">The {label} screen is not part of this version of flowlens yet. Your access to it is set up; it will appear here when it ships.</Text>
      </Alert>
    </Stack>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  throw error;
}
