import { Alert, Stack, Text, Title } from "@mantine/core";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { AppLayout } from "~/components/AppLayout";
import { NotFoundPage, StartupErrorPage } from "~/components/ErrorPages";
import { findToolRoute } from "~/lib/routes";
import { loadAppFrame } from "~/server/app-frame.server";
import { getServices } from "~/server/services.server";

export class TestPageError extends Error {
  constructor() {
    super("Test error raised on purpose by the error test page.");
    this.name = "TestPageError";
  }
}

/**
 * One path segment: the test error page /error-{secret} (session initialised only), a screen of
 * the spec not implemented yet (an honest placeholder behind its permission), or not found.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const segment = params.tool ?? "";
  const testError = /^error-(.+)$/.exec(segment);
  if (testError) {
    const secret = (await getServices()).config.ERROR_PAGE_SECRET;
    if (secret && testError[1] === secret) throw new TestPageError();
  }
  const route = findToolRoute(`/${segment}`);
  const { frame } = await loadAppFrame(request, route);
  if (!route) return data({ frame, tool: null }, { status: 404 });
  return { frame, tool: { label: route.menuLabel, path: route.path } };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.tool ? `${data.tool.label} · flowlens` : "Not found · flowlens" }];

export default function ToolPlaceholder() {
  const { frame, tool } = useLoaderData<typeof loader>();
  return (
    <AppLayout frame={frame}>
      {tool ? (
        <Stack>
          <Title order={2}>{tool.label}</Title>
          <Alert color="blue" title="Not available yet">
            <Text size="sm">The {tool.label} screen is not part of this version of flowlens yet. Your access to it is set up; it will appear here when it ships.</Text>
          </Alert>
        </Stack>
      ) : (
        <NotFoundPage />
      )}
    </AppLayout>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return <StartupErrorPage kind="application" debug={error instanceof Error ? `${error.name}: ${error.message}` : String(error)} />;
}
