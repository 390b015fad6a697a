import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { runInRequestScope } from "~/server/request-scope.server";

type RouteModule = Record<string, unknown>;
export type RouteEntry = { id: string; parentId?: string; path?: string; index?: boolean; module: RouteModule };

/** What a document request answered, without the rendering: the status, redirect and each route's data. */
export type DocumentOutcome = {
  status: number;
  location: string | null;
  loaderData: Record<string, unknown>;
  actionData: Record<string, unknown> | null;
  errors: Record<string, unknown> | null;
};

/**
 * Remix's own request handler over the given route modules, called as server.mjs calls it (inside
 * a request scope with the request's method), so the root, layout and screen loaders of a document
 * request run the way they do in production: in parallel, after the action. The document is not
 * rendered; the entry answers with the routes' data instead.
 */
export function documentHandler(routes: RouteEntry[]): (request: Request) => Promise<DocumentOutcome> {
  const manifestEntry = (route: RouteEntry) => ({
    id: route.id,
    parentId: route.parentId,
    path: route.path,
    index: route.index,
    module: `/${route.id}.js`,
    hasAction: typeof route.module.action === "function",
    hasLoader: typeof route.module.loader === "function",
    hasClientAction: false,
    hasClientLoader: false,
    hasErrorBoundary: typeof route.module.ErrorBoundary === "function",
  });
  const build = {
    mode: "test",
    entry: { module: { default: dataAsDocument } },
    routes: Object.fromEntries(routes.map((route) => [route.id, { ...route, module: route.module }])),
    assets: {
      entry: { imports: [], module: "/entry.client.js" },
      routes: Object.fromEntries(routes.map((route) => [route.id, manifestEntry(route)])),
      url: "/manifest.js",
      version: "test",
    },
    publicPath: "/build/",
    assetsBuildDirectory: "build/client",
    future: {
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
      v3_singleFetch: true,
      v3_lazyRouteDiscovery: true,
    },
    isSpaMode: false,
  } as unknown as ServerBuild;
  const handle = createRequestHandler(build, "test");
  return async (request) => {
    const response = await runInRequestScope(Object.fromEntries(request.headers), () => handle(request), request.method);
    const location = response.headers.get("Location");
    if (location) return { status: response.status, location, loaderData: {}, actionData: null, errors: null };
    return { status: response.status, location: null, ...(await response.json()) };
  };
}

type HandlerContext = {
  staticHandlerContext: {
    loaderData: Record<string, unknown>;
    actionData: Record<string, unknown> | null;
    errors: Record<string, unknown> | null;
  };
};

function dataAsDocument(_request: Request, status: number, headers: Headers, context: HandlerContext): Response {
  const { loaderData, actionData, errors } = context.staticHandlerContext;
  const described = errors && Object.fromEntries(Object.entries(errors).map(([id, error]) => [id, describe(error)]));
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify({ loaderData, actionData, errors: described }), { status, headers });
}

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : error);
