/**
 * The key of a second-client result (api/v2/): the query after resolution, hashed. Two requests
 * share one computation and one stored result exactly when their keys are equal, so the key holds
 * everything the answer depends on besides the data itself:
 *   - the call and its API version, and the parsed body and query parameters (as the twin's
 *     schemas made them);
 *   - the body's filters resolved as the twin resolves them: the delegation policy applied, tag
 *     references expanded to the tags' current values (features/filter/filter-resolver.server.ts);
 *   - the caller's delegation policy (their restrictions and which one is current) and their
 *     restriction scope: every delegated account is a scope of its own, so a delegated user and a
 *     full user never share, whatever the body;
 *   - the caller's permissions (which dimensions they may use changes the answer or refuses it);
 *   - the ClickHouse databases the caller reads (their database override);
 *   - the range's resolved end: the requested end clamped to the end of the newest 5-minute bucket
 *     with data, so a new bucket makes a new result for a range that reaches it.
 * The caller (the api/v2/ route) hands in what the flows tool knows: the body's filters as
 * {dimension, values} and the end of the data.
 */
import { createHash } from "node:crypto";
import { resolveFilters } from "~/features/filter/filter-resolver.server";
import type { RequestFilter } from "~/features/filter/request-filter";
import { loadDelegationPolicy } from "~/features/filter/delegation-policy.server";
import type { UserContext } from "~/server/auth/user-context.server";
import { requestDatabases } from "~/server/clickhouse/query.server";
import { restrictionScope } from "~/server/result-cache.server";
import type { Services } from "~/server/services.server";

/** Names a body or query uses for the range's end (the heavy calls' schemas). */
const END_FIELDS = ["endTimestamp", "endTime", "endDate", "end", "end_timestamp"] as const;

/** JSON of a value with object keys sorted, Sets as sorted arrays and Maps as objects: equal values, equal text. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Set) return [...v].map((x) => stableJson(x)).sort();
    if (v instanceof Map) v = Object.fromEntries([...v.entries()].map(([k, x]) => [String(k), x]));
    if (v && typeof v === "object" && !Array.isArray(v))
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return v;
  });
}

/** A time as unix seconds: a number (seconds, or milliseconds when that large), a numeric string or a date; else null. */
export function secondsOf(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return value > 1e11 ? Math.floor(value / 1000) : value;
  if (typeof value !== "string" || value.trim() === "") return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return secondsOf(Number(value));
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.floor(at / 1000);
}

/** The requested end of a body or query, unix seconds (null: the call names none). */
export function requestedEnd(...sources: unknown[]): number | null {
  for (const source of sources) {
    if (!source || typeof source !== "object") continue;
    for (const field of END_FIELDS) {
      const seconds = secondsOf((source as Record<string, unknown>)[field]);
      if (seconds !== null) return seconds;
    }
  }
  return null;
}

/** What a step of the resolution gave, or the refusal it threw (the handler then fails the same way). */
async function outcome<T>(step: () => Promise<T>): Promise<T | { refused: string }> {
  try {
    return await step();
  } catch (error) {
    return { refused: error instanceof Error ? error.message : error instanceof Response ? `status ${error.status}` : String(error) };
  }
}

export type KeyInput = {
  call: string;
  method: string;
  version: number;
  query: unknown;
  body: unknown;
  /** The body's filters as {dimension, values} (null: the call takes none). */
  filters: RequestFilter[] | null;
  /** The end of the newest 5-minute bucket with data, unix seconds (null: no data). */
  dataEnd: number | null;
};

/** The resolved query of a call (before hashing): for tests and the key. */
export async function resolvedQuery(services: Services, user: UserContext, input: KeyInput): Promise<Record<string, unknown>> {
  const body = input.body && typeof input.body === "object" ? (input.body as Record<string, unknown>) : {};
  const requested = input.filters;
  const [policy, filters, databases] = await Promise.all([
    outcome(() => loadDelegationPolicy(services, user)),
    requested ? outcome(() => resolveFilters(services, user, input.version, requested)) : Promise.resolve(null),
    requestDatabases(services.ch),
  ]);
  const dataEnd = input.dataEnd;
  const end = requestedEnd(body, input.query);
  return {
    call: input.call,
    method: input.method,
    version: input.version,
    query: input.query,
    body: filters === null ? body : { ...body, filters },
    scope: restrictionScope({ userId: user.id, isDelegated: user.isDelegated }),
    policy,
    permissions: [...user.permissions].sort(),
    databases,
    end: dataEnd === null ? end : end === null ? dataEnd : Math.min(end, dataEnd),
  };
}

/** The key of a call: SHA-256 of its resolved query. */
export async function resultKeyOf(services: Services, user: UserContext, input: KeyInput): Promise<string> {
  const resolved = await resolvedQuery(services, user, input);
  return createHash("sha256").update(stableJson(resolved)).digest("base64url");
}
