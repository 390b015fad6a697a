/**
 * Property-based fuzzing of every JSON operation of the OpenAPI description (api/openapi.json):
 * hostile path parameters, query parameters and JSON bodies (NUL and other control characters,
 * CR/LF, huge strings, unicode and lone surrogates, path traversal, SQL fragments, huge, negative
 * and fractional numbers, wrong types, arrays, nested objects), sent anonymously and as a
 * logged-in superuser with the CSRF header and cookie, to the route modules in this process. No
 * answer may be a server error (status ≥ 500): bad input is the caller's mistake, a 4xx.
 *
 * Bounded: a fixed seed and FUZZ_RUNS runs per operation and caller (FUZZ_RUNS and FUZZ_SEED in the
 * environment override them, e.g. for a longer run before a release).
 */
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "~db/postgres/schema";
import { OPERATIONS, toJsonSchema, type JsonSchema, type Operation } from "~/server/api/openapi.server";
import { useServicesForTests } from "~/server/services.server";
import { z } from "zod";
import { CSRF_TOKEN, ORIGIN, sessionCookie } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";
import { hostileNumber, hostileString } from "../helpers/hostile-input";
import { insertSuperuser } from "../helpers/users";

const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);

type RouteModule = { loader?: (args: unknown) => Promise<Response>; action?: (args: unknown) => Promise<Response> };
const modules = import.meta.glob<RouteModule>("../../app/routes/*.ts");
const moduleOf = (op: Operation) => modules[`../../app/routes/${op.file}`]!();

let stores: TestStores;
let superuserId = 0;

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  superuserId = await insertSuperuser(stores, "fuzz@flowlens.test");
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

// ---------------------------------------------------------------------------------------------------------------
// Hostile values

const scalar = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));
const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    scalar,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(hostileString, tie("value"), { maxKeys: 3 }),
  ),
})).value;
/** A body sent as it is (deeply nested JSON), printed short when a run fails. */
class RawBody {
  constructor(
    readonly text: string,
    readonly label: string,
  ) {}
  [fc.toStringMethod]() {
    return this.label;
  }
}
/** Deeply nested arrays and objects. */
const deep = fc
  .constantFrom(10, 100, 1_000, 10_000)
  .map((depth) => new RawBody(`${'{"a":['.repeat(depth)}1${"]}".repeat(depth)}`, `<${depth} levels of nesting>`));

/** A value for a field of the schema: mostly hostile, sometimes of the right shape with hostile content. */
function valueFor(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const type = schema?.type;
  const shaped =
    type === "integer" || type === "number"
      ? hostileNumber
      : type === "array"
        ? fc.array(valueFor(schema?.items as JsonSchema | undefined), { maxLength: 4 })
        : type === "object" && schema?.properties
          ? bodyFor(schema)
          : hostileString;
  return fc.oneof(shaped, shaped, hostileValue);
}

function bodyFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const record = fc.record(Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, valueFor(s)])), { requiredKeys: [] });
  if (schema.type === "array") return fc.array(valueFor(schema.items as JsonSchema | undefined), { maxLength: 4 });
  return fc.oneof(record, record, record, hostileValue, deep);
}

const schemaOf = (source: Operation["query"]): JsonSchema | undefined =>
  source === undefined ? undefined : source instanceof z.ZodType ? toJsonSchema(source) : source;

type Call = { path: Record<string, string>; query: [string, string][]; body: unknown };

function callFor(op: Operation): fc.Arbitrary<Call> {
  const pathNames = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const querySchema = schemaOf(op.query);
  const queryNames = [...Object.keys((querySchema?.properties ?? {}) as object), "next", "hash", "id"];
  const queryValue = fc.oneof(hostileString, hostileNumber.map(String));
  const bodySchema = schemaOf(op.body) ?? { type: "object", properties: {} };
  return fc.record({
    path: fc.record(
      Object.fromEntries(pathNames.map((name) => [name, fc.oneof(hostileString, hostileNumber.map(String))])),
    ) as fc.Arbitrary<Record<string, string>>,
    query: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...queryNames), hostileString), queryValue), { maxLength: 5 }),
    body: bodyFor(bodySchema),
  });
}

async function send(op: Operation, call: Call, cookie: string | null): Promise<Response> {
  const pathText = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(call.path[name] ?? "x"));
  const url = new URL(`${ORIGIN}${pathText}`);
  for (const [k, v] of call.query) url.searchParams.append(k, v);
  const headers: Record<string, string> = { Accept: "application/json" };
  if (cookie) headers.Cookie = cookie;
  const hasBody = op.method !== "GET" && op.method !== "DELETE";
  if (op.method !== "GET") headers["X-CSRFToken"] = CSRF_TOKEN;
  if (hasBody) headers["Content-Type"] = "application/json";
  const request = new Request(url, {
    method: op.method,
    headers,
    body: hasBody ? (call.body instanceof RawBody ? call.body.text : (JSON.stringify(call.body) ?? "null")) : undefined,
  });
  const module = await moduleOf(op);
  const handler = op.method === "GET" ? module.loader : module.action;
  try {
    return await handler!({ request, params: call.path, context: {} });
  } catch (error) {
    // A thrown Response is an answer (Remix sends it); anything else would be a 500.
    if (error instanceof Response) return error;
    throw error;
  }
}

/** Undoes what a run may have done to the superuser (consent revoked, account deleted or deactivated). */
async function restoreSuperuser() {
  await stores.pg.db.update(users).set({ hasConsented: true, isActive: true, isSuperuser: true }).where(eq(users.id, superuserId));
}

const CALLERS = ["anonymous", "superuser"] as const;

describe.each(CALLERS)("every JSON operation called by %s with hostile input", (caller) => {
  it.each(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op] as const))(
    "%s answers below 500",
    async (_name, op) => {
      await fc.assert(
        fc.asyncProperty(callFor(op), async (call) => {
          const cookie = caller === "superuser" ? await sessionCookie(stores, superuserId) : `csrftoken=${CSRF_TOKEN}`;
          const res = await send(op, call, cookie);
          if (caller === "superuser") await restoreSuperuser();
          const text = res.status >= 500 ? await res.text() : "";
          expect(res.status, `${op.method} ${op.path} → ${res.status} ${text}`).toBeLessThan(500);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: false },
      );
    },
    120_000,
  );
});
