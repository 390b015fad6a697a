import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { AppLayout } from "~/components/AppLayout";
import { NotFoundPage, StartupErrorPage } from "~/components/ErrorPages";
import { loadAppFrame } from "~/server/app-frame.server";
import { getServices } from "~/server/services.server";

export class TestPageError extends Error {
  constructor() {
    super("Test error raised on purpose by the error test page.");
    this.name = "TestPageError";
  }
}

/**
 * One path segment: the test error page /error-{secret} (session initialised only), otherwise
 * not found after login. The built tools have routes of their own; a tool of the spec this version
 * does not have yet (/rna, /core-planner …) is not found either: a page that only says "not
 * available yet" sent operators around in circles.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const segment = params.tool ?? "";
  const testError = /^error-(.+)$/.exec(segment);
  if (testError) {
    const secret = (await getServices()).config.ERROR_PAGE_SECRET;
    if (secret && testError[1] === secret) throw new TestPageError();
  }
  const { frame } = await loadAppFrame(request);
  return data({ frame }, { status: 404 });
}

export const meta: MetaFunction = () => [{ title: "Not found · flowlens" }];

export default function NotFoundInFrame() {
  const { frame } = useLoaderData<typeof loader>();
  return (
    <AppLayout frame={frame}>
      <NotFoundPage />
    </AppLayout>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return <StartupErrorPage kind="application" debug={error instanceof Error ? `${error.name}: ${error.message}` : String(error)} />;
}
