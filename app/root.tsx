import "~/lib/zod-without-eval";
import "@mantine/core/styles.css";
import "@mantine/dates/styles.css";
import "@mantine/notifications/styles.css";
import "mantine-react-table/styles.css";

import { ColorSchemeScript, MantineProvider, mantineHtmlProps } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { BusyNotice } from "~/components/BusyNotice";
import { ClientErrorHandling } from "~/components/ClientErrorHandling";
import { JS_MARK_SCRIPT, markHydrated } from "~/components/HydrationFallback";
import { RequestErrorPage, StartupErrorPage } from "~/components/ErrorPages";
import { browserSupport } from "~/lib/browser-support";
import { busyAnswerOf } from "~/lib/busy";
import { useNonce } from "~/lib/nonce";
import { loadsAppScripts } from "~/lib/page-scripts";
import { NOTIFICATION_POSITION, NOTIFICATION_Z_INDEX } from "~/lib/notification-popups";
import { classifyStartupError, isInterruptedConnection, requestRefusal } from "~/lib/startup-error";
import { cssVariablesResolverOf, themeOf } from "~/lib/theme";
import { csrfCookieHeader, newCsrfToken, readCsrfCookie } from "~/server/auth/csrf.server";
import { getRequestContext } from "~/server/auth/guard.server";
import { isSharedPublicPage } from "~/server/public-page-cache.server";
import { requestStyle } from "~/server/site-style.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, session } = await getRequestContext(request);
  const style = await requestStyle(request, services.pg.db, session.user?.id ?? null);
  // Every visitor gets a CSRF token cookie; forms echo it in a hidden field, JSON calls in a header.
  // A page shared by anonymous visitors (public-page-cache.server.ts) carries no token of one of them.
  const existingToken = isSharedPublicPage(request) ? "" : readCsrfCookie(request);
  const csrfToken = existingToken ?? newCsrfToken();
  const headers = existingToken !== null ? undefined : { "Set-Cookie": csrfCookieHeader(csrfToken, request) };
  return data(
    {
      csrfToken,
      style,
      variant: services.config.APP_VARIANT,
      // Shown only by screens that need a modern browser (BrowserSupportNotice).
      browserSupported: browserSupport(request.headers.get("User-Agent")).supported,
      sessionStatus: session.status,
      user: session.user ? { email: session.user.email, firstName: session.user.firstName, lastName: session.user.lastName } : null,
    },
    { headers },
  );
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
  const theme = themeOf(data?.style);
  // A page that does without the app's scripts (its route's handle, app/lib/page-scripts.ts) gets its CSS only.
  const appScripts = loadsAppScripts(useMatches().map((m) => m.handle));
  useEffect(markHydrated, []);
  return (
    <html lang="en" {...mantineHtmlProps}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
        <ColorSchemeScript defaultColorScheme="light" nonce={nonce} />
        {/* Before the first paint: fallbacks of JavaScript controls stay hidden until those replace them (nothing replaces them on a page that does not hydrate). */}
        {appScripts ? <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: JS_MARK_SCRIPT }} /> : null}
      </head>
      <body>
        <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolverOf(data?.style)} defaultColorScheme="light">
          <Notifications position={NOTIFICATION_POSITION} zIndex={NOTIFICATION_Z_INDEX} />
          <ClientErrorHandling />
          {children}
        </MantineProvider>
        {appScripts ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
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
  // A refused request (too large, malformed, a bad field, a failed CSRF check) is not a start-up failure: say what was wrong.
  const refusal = requestRefusal(error);
  if (refusal) return <RequestErrorPage status={refusal.status} detail={refusal.detail} />;
  const kind = classifyStartupError(error);
  // A call of the running app that lost its connection (a client-side navigation's data) reads
  // 'interrupted', not the start-up text.
  if (kind === "network" && isInterruptedConnection(error)) return <StartupErrorPage kind={kind} interrupted debug={String(error)} />;
  const debug = isRouteErrorResponse(error)
    ? `HTTP ${error.status} ${error.statusText}\n${typeof error.data === "string" ? error.data : JSON.stringify(error.data)}`
    : error instanceof Error
      ? `${error.name}: ${error.message}`
      : String(error);
  return <StartupErrorPage kind={kind} debug={`${debug}\nat ${new Date().toISOString()}`} />;
}
