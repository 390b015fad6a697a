/**
 * Property-based fuzzing of every screen of the route table (the page modules of app/routes,
 * tests/helpers/route-table.ts): hostile values (NUL and other control characters, huge strings,
 * non-numeric and huge numbers, dates that do not exist, unicode junk, repeated parameters as
 * arrays) in the GET parameters the screen reads and in the fields of its forms, for each `intent`
 * its forms send, as a logged-in superuser (every screen is open to one). No answer may be a
 * server error (status ≥ 500): bad input is the caller's mistake.
 *
 * The names come from the screen's source (what its code reads and its forms render) and from
 * the calls themselves: URLSearchParams and FormData reads are recorded while the loader and the
 * action run, so a parameter named through a constant is fuzzed too once it has been read.
 *
 * Bounded: a fixed seed and FUZZ_RUNS runs per screen (FUZZ_RUNS and FUZZ_SEED override them).
 */
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asInfo, users } from "~db/postgres/schema";
import { useServicesForTests } from "~/server/services.server";
import { hostileString, hostileText } from "../helpers/hostile-input";
import { CSRF_TOKEN, ORIGIN, runRoute, sessionCookie } from "../helpers/http";
import { screenRoutes, type ScreenRoute } from "../helpers/route-table";
import { openTestStores, type TestStores } from "../helpers/stores";
import { insertSuperuser } from "../helpers/users";

const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const SEED = Number(process.env.FUZZ_SEED ?? 20261201);

type RouteModule = { loader?: unknown; action?: unknown };
const modules = import.meta.glob<RouteModule>("../../app/routes/*.tsx");
const SCREENS = screenRoutes();

let stores: TestStores;
let superuserId = 0;

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  superuserId = await insertSuperuser(stores, "fuzz-screens@flowlens.test");
  // The flow screens need the operator's AS (a configured site has it; its absence is no input of a request).
  await stores.pg.db.insert(asInfo).values({ asn: 64496, name: "Fuzz Carrier", category: "operator" });
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

/** Undoes what a run may have done to the superuser (consent withdrawn, account deactivated). */
async function restoreSuperuser() {
  await stores.pg.db.update(users).set({ hasConsented: true, isActive: true, isSuperuser: true }).where(eq(users.id, superuserId));
}

// ---------------------------------------------------------------------------------------------------------------
// The names a screen reads, as its code runs

const READERS = [URLSearchParams.prototype, FormData.prototype] as const;
const METHODS = ["get", "getAll", "has"] as const;

/** Runs `fn` with every URLSearchParams and FormData read by name added to `names`. */
async function recordingReads<T>(names: Set<string>, fn: () => Promise<T>): Promise<T> {
  const originals = READERS.map((proto) => METHODS.map((m) => (proto as unknown as Record<string, (name: string) => unknown>)[m]));
  READERS.forEach((proto, i) =>
    METHODS.forEach((m, j) => {
      const original = originals[i][j];
      (proto as unknown as Record<string, unknown>)[m] = function (this: unknown, name: string, ...rest: unknown[]) {
        if (typeof name === "string" && name.length <= 40 && !/[\u0000-\u001f]/.test(name)) names.add(name);
        return (original as (...args: unknown[]) => unknown).call(this, name, ...rest);
      };
    }),
  );
  try {
    return await fn();
  } finally {
    READERS.forEach((proto, i) => METHODS.forEach((m, j) => ((proto as unknown as Record<string, unknown>)[m] = originals[i][j])));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Calls

/** A name from the screen's vocabulary (which grows while the runs record reads), or a hostile one. */
const nameFrom = (vocabulary: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.nat().map((i) => vocabulary[i % vocabulary.length] ?? "q") },
    { weight: 1, arbitrary: hostileString.map((s) => s.slice(0, 100)) },
  );
/** Pairs of name and value; a name may come back, which a screen reads as an array (getAll) or ignores. */
const pairs = (vocabulary: string[], maxLength: number) => fc.array(fc.tuple(nameFrom(vocabulary), hostileText), { maxLength });

type Call = {
  params: Record<string, string>;
  query: [string, string][];
  intent: string | null;
  form: [string, string][];
  multipart: boolean;
};

function callFor(screen: ScreenRoute, vocabulary: string[]): fc.Arbitrary<Call> {
  const intent = screen.intents.length ? fc.oneof(fc.constantFrom(...screen.intents), hostileString, fc.constant(null)) : fc.constant(null);
  return fc.record({
    params: fc.record(Object.fromEntries(screen.params.map((name) => [name, hostileText.map((s) => s.slice(0, 1000))]))) as fc.Arbitrary<
      Record<string, string>
    >,
    query: pairs(vocabulary, 5),
    intent,
    form: pairs(vocabulary, 8),
    multipart: fc.boolean(),
  });
}

/** A path segment as a browser sends it: a lone surrogate (which no URL can carry) becomes U+FFFD. */
const wellFormedComponent = (text: string) => encodeURIComponent(text.replace(/[\ud800-\udfff]/gu, "\ufffd"));

function urlOf(screen: ScreenRoute, call: Call): URL {
  const path = screen.path.replace(/:(\w+)|\*/g, (_m, name: string | undefined) => wellFormedComponent(call.params[name ?? "*"] ?? "x"));
  const url = new URL(`${ORIGIN}${path}`);
  for (const [name, value] of call.query) url.searchParams.append(name, value);
  return url;
}

function formRequestOf(url: URL, call: Call, cookie: string): Request {
  const fields: [string, string][] = [["csrfmiddlewaretoken", CSRF_TOKEN]];
  // The routing data screen reads `intent` from a multipart body's first part: it goes first, as its forms send it.
  if (call.intent !== null) fields.unshift(["intent", call.intent]);
  fields.push(...call.form);
  if (call.multipart) {
    const form = new FormData();
    for (const [name, value] of fields) form.append(name, value);
    return new Request(url, { method: "POST", headers: { Cookie: cookie }, body: form });
  }
  return new Request(url, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

/**
 * Before the random runs, a call per kind of hostile value with that value in every name the
 * screen reads, and a form per intent: each name meets each kind, whatever the random runs draw.
 */
const SWEEP = ["a\u0000b", "x".repeat(100_000), "99999999999999999999", "2026-02-30T25:61", "\ud800\u202e😀\u0301", "-1"];

function sweepCalls(screen: ScreenRoute, vocabulary: string[]): Call[] {
  const params = (value: string) => Object.fromEntries(screen.params.map((name) => [name, value.slice(0, 1000)]));
  const everywhere = (value: string): [string, string][] => vocabulary.filter((name) => name !== "intent").map((name) => [name, value]);
  const byValue = SWEEP.map((value) => ({
    params: params(value),
    query: everywhere(value),
    intent: screen.intents[0] ?? null,
    form: everywhere(value),
    multipart: false,
  }));
  const byIntent = screen.intents.flatMap((intent) =>
    [SWEEP[0], SWEEP[2]].map((value) => ({ params: params(value), query: [], intent, form: everywhere(value), multipart: false })),
  );
  const asArrays = {
    params: params("x"),
    query: [...everywhere("1"), ...everywhere("2")],
    intent: null,
    form: [...everywhere("1"), ...everywhere("2")],
    multipart: true,
  };
  return [...byValue, ...byIntent, asArrays];
}

const describeCall = (call: Call) =>
  JSON.stringify({
    ...call,
    query: call.query.map(([n, v]) => [n.slice(0, 60), v.slice(0, 60)]),
    form: call.form.map(([n, v]) => [n.slice(0, 60), v.slice(0, 60)]),
  });

describe("every screen of the route table with hostile GET parameters and form fields, as a superuser", () => {
  it("finds the screens and what they read", () => {
    expect(SCREENS.length).toBeGreaterThan(20);
    const inventory = SCREENS.find((s) => s.path === "/site-settings/inventory")!;
    expect(inventory.fields).toEqual(expect.arrayContaining(["router", "vantage_point", "intent"]));
    expect(inventory.intents).toEqual(expect.arrayContaining(["delete-router", "delete-vantage-point"]));
  });

  it.each(SCREENS.map((screen) => [screen.path, screen] as const))(
    "%s answers below 500",
    async (_path, screen) => {
      const module = await modules[`../../app/routes/${screen.file}`]!();
      const names = new Set(screen.fields);
      const cookie = await sessionCookie(stores, superuserId);
      // The reads of a plain visit and of each intent's form join the names the source gave.
      const plainUrl = urlOf(screen, { params: {}, query: [], intent: null, form: [], multipart: false });
      if (module.loader) await recordingReads(names, () => runRoute(module.loader, new Request(plainUrl, { headers: { Cookie: cookie } })));
      if (module.action)
        for (const intent of screen.intents) {
          const call = { params: {}, query: [], intent, form: [], multipart: false };
          await recordingReads(names, () => runRoute(module.action, formRequestOf(plainUrl, call, cookie)).catch(() => null));
          await restoreSuperuser();
        }
      const vocabulary = [...names];
      await fc.assert(
        fc.asyncProperty(callFor(screen, vocabulary), async (call) => {
          const cookie = await sessionCookie(stores, superuserId);
          const url = urlOf(screen, call);
          const answers: [string, number, string][] = [];
          const seen = new Set(names);
          if (module.loader) {
            const outcome = await recordingReads(seen, () =>
              runRoute(module.loader, new Request(url, { headers: { Cookie: cookie } }), call.params),
            );
            answers.push(["GET", outcome.status, JSON.stringify(outcome.data).slice(0, 500)]);
          }
          if (module.action) {
            const outcome = await recordingReads(seen, () => runRoute(module.action, formRequestOf(url, call, cookie), call.params));
            answers.push(["POST", outcome.status, JSON.stringify(outcome.data).slice(0, 500)]);
            await restoreSuperuser();
          }
          for (const name of seen) {
            if (names.has(name)) continue;
            names.add(name);
            vocabulary.push(name);
          }
          for (const [method, status, data] of answers)
            expect(status, `${method} ${screen.path} ${describeCall(call)} → ${status} ${data}`).toBeLessThan(500);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: false, examples: sweepCalls(screen, vocabulary).map((call) => [call]) },
      );
    },
    180_000,
  );
});
