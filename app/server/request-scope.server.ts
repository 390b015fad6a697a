/**
 * Who a piece of server work is done for. server.mjs runs the Remix handler of every request
 * inside `runInRequestScope`, so code far below a loader (the ClickHouse query door) can tell a
 * request's query, to be counted against its user, from background work (start-up, the demo
 * loader, imports, timers detached with `outsideRequest`), which has no scope.
 *
 * The identity of a scope is resolved once, on the first query that needs it: the logged-in user
 * of the session cookie, else the API token, else the client address.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { TtlCache } from "./bounded-maps.server";
import type { Db } from "./postgres.server";
import { clientAddress, readSession } from "./auth/session.server";

export type RequestScope = {
  /** The request's headers as the HTTP server received them (the peer address header included). */
  headers: Record<string, string | string[] | undefined>;
  identity?: Promise<string>;
};

// One instance per process, also across the development server's module reloads.
const holder = globalThis as unknown as { __flowlensRequestScope?: AsyncLocalStorage<RequestScope> };
const storage = (holder.__flowlensRequestScope ??= new AsyncLocalStorage<RequestScope>());

export function runInRequestScope<T>(headers: RequestScope["headers"], fn: () => T): T {
  return storage.run({ headers }, fn);
}

export function currentRequestScope(): RequestScope | null {
  return storage.getStore() ?? null;
}

/** Runs `fn` (and everything it schedules) as background work, not as the current request's. */
export function outsideRequest<T>(fn: () => T): T {
  return storage.exit(fn);
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
    const session = await readSession(stores.db, stores.sessionSecret, request);
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
