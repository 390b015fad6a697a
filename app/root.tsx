import "~/lib/zod-without-eval";
import "@mantine/core/styles.css";
import "@mantine/dates/styles.css";
import "@mantine/notifications/styles.css";
import "mantine-react-table/styles.css";

import { Alert, ColorSchemeScript, MantineProvider, createTheme, mantineHtmlProps } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteError, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { BusyNotice } from "~/components/BusyNotice";
import { StartupErrorPage } from "~/components/ErrorPages";
import { busyAnswerOf } from "~/lib/busy";
import { useNonce } from "~/lib/nonce";
import { shadesOf } from "~/lib/colors";
import { browserSupport, INCOMPATIBLE_BROWSER_MESSAGE } from "~/lib/browser-support";
import { classifyStartupError } from "~/lib/startup-error";
import { csrfCookieHeader, newCsrfToken, readCsrfCookie } from "~/server/auth/csrf.server";
import { getRequestContext } from "~/server/auth/guard.server";
import { isSharedPublicPage } from "~/server/public-page-cache.server";
import { resolveStyle } from "~/server/site-style.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, session } = await getRequestContext(request);
  const style = await resolveStyle(services.pg.db, session.user?.id ?? null);
  // Every visitor gets a CSRF token cookie; forms echo it in a hidden field, JSON calls in a header.
  // A page shared by anonymous visitors (public-page-cache.server.ts) carries no token of one of them.
  const existingToken = isSharedPublicPage(request) ? "" : readCsrfCookie(request);
  const csrfToken = existingToken ?? newCsrfToken();
  const headers = existingToken !== null ? undefined : { "Set-Cookie": csrfCookieHeader(csrfToken) };
  return data({
    csrfToken,
    style,
    variant: services.config.APP_VARIANT,
    browserSupported: browserSupport(request.headers.get("User-Agent")).supported,
    sessionStatus: session.status,
    user: session.user ? { email: session.user.email, firstName: session.user.firstName, lastName: session.user.lastName } : null,
  }, { headers });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const cookie = loaderHeaders.get("Set-Cookie");
  const headers = new Headers();
  if (cookie) headers.set("Set-Cookie", cookie);
  return headers;
};

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.style.companyName ?? "flowlens" }];

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  const theme = createTheme({
    primaryColor: "brand",
    colors: { brand: shadesOf(data?.style.colorPrimary ?? "#137cbd") },
    // Only the branded font replaces Mantine's system font stack (an undefined value would erase it).
    ...(data?.style.font === "TeleGroteskNext" ? { fontFamily: "TeleGroteskNext, system-ui, sans-serif" } : {}),
  });
  return (
    <html lang="en" {...mantineHtmlProps}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
        <ColorSchemeScript defaultColorScheme="light" nonce={nonce} />
      </head>
      <body>
        <MantineProvider theme={theme} defaultColorScheme="light">
          <Notifications position="top-right" />
          {data && !data.browserSupported ? (
            <Alert color="yellow" radius={0} role="status">
              {INCOMPATIBLE_BROWSER_MESSAGE}
            </Alert>
          ) : null}
          {children}
        </MantineProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** A failure of the root loader (settings or stores unavailable) or of loading the app itself. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (busyAnswerOf(error)) return <BusyNotice error={error} />;
  const kind = classifyStartupError(error);
  const debug = isRouteErrorResponse(error)
    ? `HTTP ${error.status} ${error.statusText}\n${typeof error.data === "string" ? error.data : JSON.stringify(error.data)}`
    : error instanceof Error
      ? `${error.name}: ${error.message}`
      : String(error);
  return <StartupErrorPage kind={kind} debug={`${debug}\nat ${new Date().toISOString()}`} />;
}
