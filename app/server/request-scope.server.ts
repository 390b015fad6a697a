/**
 * Who a piece of server work is done for. server.mjs runs the Remix handler of every request
 * inside `runInRequestScope`, so code far below a loader (the ClickHouse query door) can tell a
 * request's query, to be counted against its user, from background work (start-up, the demo
 * loader, imports, timers detached with `outsideRequest`), which has no scope.
 *
 * The identity of a scope is resolved once, on the first query that needs it: the logged-in user
 * of the session cookie, else the API token, else the client address.
 *
 * The scope also holds what the loaders of one request share instead of each reading it again
 * (oncePerRequest): Remix runs the root, layout and screen loaders of a request in parallel, and
 * each needs the session, most the style, two the menu.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { TtlCache } from "./bounded-maps.server";
import type { Db } from "./postgres.server";
import { clientAddress, readSession, type SessionState } from "./auth/session.server";

export type RequestScope = {
  /** The request's headers as the HTTP server received them (the peer address header included). */
  headers: Record<string, string | string[] | undefined>;
  identity?: Promise<string>;
  /** Reads shared by the request's loaders; absent when the request may run an action (see oncePerRequest). */
  shared?: Map<string, Promise<unknown>>;
  /** What a loader rendered for the server's HTML alone (keepForRender), never sent as loader data. */
  renderOnly?: Map<string, unknown>;
  /** Set while a second-client computation (api/v2/) runs for the request's user: its reads carry these. */
  job?: ScopeJob;
};

/** What the query door gives each read of an api/v2/ computation (app/features/api-v2/jobs.server.ts). */
export type ScopeJob = {
  /** ClickHouse query ids start with it (a server: KILL QUERY finds them). */
  queryIdPrefix: string;
  /** Reads made so far (numbers the query ids). */
  reads: number;
  /** max_execution_time of the computation's reads. */
  maxExecutionSeconds: number;
  /** Aborted when the computation is cancelled. */
  signal: AbortSignal;
};

// One instance per process, also across the development server's module reloads.
const holder = globalThis as unknown as { __flowlensRequestScope?: AsyncLocalStorage<RequestScope> };
const storage = (holder.__flowlensRequestScope ??= new AsyncLocalStorage<RequestScope>());

/** `method`: the HTTP method; only GET and HEAD requests share reads among their loaders. */
export function runInRequestScope<T>(headers: RequestScope["headers"], fn: () => T, method?: string): T {
  const readOnly = method === "GET" || method === "HEAD";
  return storage.run(readOnly ? { headers, shared: new Map() } : { headers }, fn);
}

export function currentRequestScope(): RequestScope | null {
  return storage.getStore() ?? null;
}

/**
 * Runs `fn` (and everything it schedules) as a second-client computation of the current request's
 * user: the same identity (the limiter counts the user's slots) and database override, a scope of
 * its own that outlives the request, its reads marked with `job`.
 */
export function runAsJob<T>(job: ScopeJob, fn: () => T): T {
  const scope = storage.getStore();
  return storage.run({ headers: scope?.headers ?? {}, identity: scope?.identity, job }, fn);
}

/** Runs `fn` (and everything it schedules) as background work, not as the current request's. */
export function outsideRequest<T>(fn: () => T): T {
  return storage.exit(fn);
}

/**
 * `compute` once per request and key, its promise shared: loaders running in parallel wait for the
 * same read instead of each starting their own.
 *
 * Only GET and HEAD requests share, since they run loaders alone. A POST runs its action first,
 * and an action may change what was read (log in or out, pass the second factor, give consent,
 * change the style, the permissions, the menu's data); the loaders after it must see the change,
 * and there are too many such writers to forget a memo after each. So an action's request reads
 * afresh every time, as does work outside a scope (tests that call loaders directly, start-up).
 * The key includes the request's cookie, so no read is shared with another visitor's request.
 */
export function oncePerRequest<T>(request: Pick<Request, "headers">, key: string, compute: () => Promise<T>): Promise<T> {
  const shared = storage.getStore()?.shared;
  if (!shared) return compute();
  const cookieKey = `${key}\n${request.headers.get("Cookie") ?? ""}`;
  let value = shared.get(cookieKey) as Promise<T> | undefined;
  if (!value) {
    value = compute();
    shared.set(cookieKey, value);
  }
  return value;
}

/**
 * Markup a loader made for the document the server renders (e.g. a chart's SVG), handed to the
 * render (entry.server.tsx, app/lib/render-only.ts) beside the loader data instead of inside it:
 * the page then carries it once, as HTML, not a second time as data. Outside a request scope
 * (tests calling loaders) it is dropped, and the screen renders as after a browser navigation.
 */
export function keepForRender(key: string, value: unknown): void {
  const scope = storage.getStore();
  if (!scope) return;
  (scope.renderOnly ??= new Map()).set(key, value);
}

/** What the request's loaders kept for its render (keepForRender). */
export function renderOnlyValues(): ReadonlyMap<string, unknown> {
  return storage.getStore()?.renderOnly ?? new Map();
}

/** The session of the request's cookie, read once per request (also for the query door's identity). */
export function requestSession(request: Request, stores: { db: Db; sessionSecret: string }): Promise<SessionState> {
  return oncePerRequest(request, "session", () => readSession(stores.db, stores.sessionSecret, request));
}

/** Session cookie → identity, so a user's requests do not each read their session once more. */
const IDENTITY_TTL_MS = 60_000;
const identities = new TtlCache<string>(IDENTITY_TTL_MS);

const digest = (value: string) => createHash("sha256").update(value).digest("base64url").slice(0, 22);

function headersOf(scope: RequestScope): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(scope.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return headers;
}

/** "user:<id>", "token:<digest>" or "client:<address>" — the key the query limits count by. */
export function requestIdentity(scope: RequestScope, stores: { db: Db; sessionSecret: string }): Promise<string> {
  scope.identity ??= resolveIdentity(headersOf(scope), stores);
  return scope.identity;
}

async function resolveIdentity(headers: Headers, stores: { db: Db; sessionSecret: string }): Promise<string> {
  const request = new Request("http://flowlens.invalid/", { headers });
  const cookie = headers.get("Cookie");
  if (cookie) {
    const known = identities.get(cookie);
    if (known) return known;
    const session = await requestSession(request, stores);
    if (session.user && session.status === "LOGGED_IN") {
      const identity = `user:${session.user.id}`;
      identities.set(cookie, identity);
      return identity;
    }
  }
  const authorization = headers.get("Authorization");
  if (authorization) return `token:${digest(authorization)}`;
  return `client:${clientAddress(request)}`;
}
