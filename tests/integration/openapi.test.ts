/**
 * GET api/openapi.json: public, valid JSON in the OpenAPI 3.1 shape, describing every resource
 * route module of app/routes (a new endpoint without a description fails here), with the flows
 * endpoints' request schemas equal to their zod schemas.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  asIndirectBodySchema,
  linkLevelQuerySchema,
  netflowStatisticsBodySchema,
  untrackedBodySchema,
} from "~/features/flows/analysis.server";
import { flowsBodySchema, sankeyBodySchema } from "~/features/flows/request-schema";
import * as openapiRoute from "~/routes/api.openapi[.]json";
import { useServicesForTests } from "~/server/services.server";
import { callRoute } from "../helpers/http";
import { openTestStores, type TestStores } from "../helpers/stores";

const ROUTES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../app/routes");

let stores: TestStores;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let doc: any;
let raw: string;

beforeAll(async () => {
  stores = await openTestStores();
  useServicesForTests(stores);
  const res = await callRoute(openapiRoute, "/api/openapi.json");
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toMatch(/application\/json/);
  raw = await res.text();
  doc = JSON.parse(raw);
}, 120_000);

afterAll(async () => {
  await stores?.dispose();
}, 60_000);

/** Resource route modules: the JSON endpoints (api.*, auth.*, usertracking.*, siteconfig, healthz). */
function resourceRouteFiles(): string[] {
  return readdirSync(ROUTES_DIR).filter(
    (f) => /^(api|auth|usertracking)\..+\.tsx?$/.test(f) || f === "siteconfig.ts" || f === "healthz.ts",
  );
}

type Op = {
  summary: string;
  description: string;
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, unknown>;
  "x-route-file": string;
  "x-access": unknown;
  "x-api-versions": number[];
  security: unknown[];
};
const operations = (): [string, string, Op][] =>
  Object.entries(doc.paths as Record<string, Record<string, Op>>).flatMap(([p, ms]) =>
    Object.entries(ms).map(([m, op]) => [p, m, op] as [string, string, Op]),
  );
const find = (p: string, method: string): Op => {
  const op = doc.paths[p]?.[method];
  expect(op, `${method.toUpperCase()} ${p}`).toBeDefined();
  return op;
};
const inputSchema = (s: z.ZodType) => {
  const out = z.toJSONSchema(s, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete out.$schema;
  return out;
};

describe("GET api/openapi.json", () => {
  it("is public, OpenAPI 3.1, and every operation is complete", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBeTruthy();
    expect(typeof doc.info.version).toBe("string");
    const ops = operations();
    expect(ops.length).toBeGreaterThan(40);
    const ids = new Set<string>();
    for (const [p, method, op] of ops) {
      expect(p.startsWith("/"), p).toBe(true);
      expect(["get", "post", "put", "patch", "delete"]).toContain(method);
      expect(op.summary.length, `${method} ${p}`).toBeGreaterThan(5);
      expect(op.description).toMatch(/Public|session|Logged-in/);
      expect(op.responses["200"]).toBeDefined();
      const id = (op as unknown as { operationId: string }).operationId;
      expect(ids.has(id), id).toBe(false);
      ids.add(id);
      // Every path parameter is declared.
      for (const m of p.matchAll(/\{(\w+)\}/g))
        expect(op.parameters.some((x) => x.in === "path" && x.name === m[1] && x.required)).toBe(true);
      if (method === "get") expect(op.requestBody).toBeUndefined();
    }
    // Every $ref points into the document.
    for (const m of raw.matchAll(/"\$ref":"#\/([^"]+)"/g)) {
      const target = m[1]
        .split("/")
        .reduce((o: Record<string, unknown> | undefined, k) => (o ? (o[k] as Record<string, unknown>) : undefined), doc);
      expect(target, m[1]).toBeDefined();
    }
  });

  it("describes every resource route file of app/routes, and only those", () => {
    const described = new Set(operations().map(([, , op]) => op["x-route-file"].replace(/^app\/routes\//, "")));
    const files = resourceRouteFiles();
    expect(files.length).toBeGreaterThan(40);
    expect(
      files.filter((f) => !described.has(f)),
      "route files without a description",
    ).toEqual([]);
    expect(
      [...described].filter((f) => !files.includes(f)),
      "descriptions of missing route files",
    ).toEqual([]);
  });

  it("states the access rule of each endpoint", () => {
    expect(find("/api/openapi.json", "get").security).toEqual([]);
    expect(find("/api/flows/", "post")["x-access"]).toEqual({ permission: "API_FLOWS_4D" });
    // Calls that need a second permission name both, in x-access and in the description.
    for (const [p, method, also] of [
      ["/api/sankey/", "post", "SANKEY_TOPOLOGY"],
      ["/api/linkleveltopology/", "get", "SANKEY_TOPOLOGY"],
      ["/api/linklevelstatistics/", "get", "SANKEY_TOPOLOGY"],
      ["/api/asflows/indirect/", "post", "API_FLOWS_INDIRECT_KPI"],
    ]) {
      expect(find(p, method)["x-access"], p).toEqual({ permission: "API_FLOWS_4D", also: [also] });
      expect(find(p, method).description, p).toContain(`Logged-in users holding API_FLOWS_4D and ${also}.`);
    }
    expect(find("/auth/user/", "get")["x-access"]).toBe("session");
    expect(find("/auth/token/", "post")["x-access"]).toEqual({ permission: "DEVELOPER_API_TOKEN" });
    expect(find("/auth/login/", "post")["x-access"]).toBe("public");
  });

  it("lists the API versions of each call: 13–17 everywhere, version 3 also on api/sankey/ and api/version/", () => {
    const range = [13, 14, 15, 16, 17];
    const withThree = operations()
      .filter(([, , op]) => (op["x-api-versions"] as number[]).includes(3))
      .map(([p, m]) => `${m.toUpperCase()} ${p}`);
    // api/v2/sankey/ is api/sankey/'s endpoint (the second client), so it takes version 3 as well.
    expect(withThree.sort()).toEqual(["GET /api/version/", "POST /api/sankey/", "POST /api/v2/sankey/"]);
    for (const [p, m, op] of operations()) expect(op["x-api-versions"], `${m} ${p}`).toEqual(expect.arrayContaining(range));
    expect(find("/api/sankey/", "post").description).toMatch(/API version 3/);
    expect(find("/api/version/", "get").description).toMatch(/API version 3/);
    expect(find("/api/flows/", "post").description).not.toMatch(/API version 3/);
  });

  it("the flows endpoints' request schemas are their zod schemas", () => {
    const bodies: [string, z.ZodType][] = [
      ["/api/flows/", flowsBodySchema],
      ["/api/sankey/", sankeyBodySchema],
      ["/api/asflows/indirect/", asIndirectBodySchema],
      ["/api/netflowstatistics/", netflowStatisticsBodySchema],
      ["/api/untracked_data/", untrackedBodySchema],
    ];
    for (const [p, schema] of bodies) {
      const body = find(p, "post").requestBody!.content["application/json"].schema as {
        properties: Record<string, unknown>;
        required: string[];
      };
      expect(body, p).toEqual(inputSchema(schema));
      expect(Object.keys(body.properties).length).toBeGreaterThan(3);
    }
    expect(find("/api/flows/", "post").requestBody!.content["application/json"].schema).toMatchObject({
      required: expect.arrayContaining(["dimension", "startTimestamp", "endTimestamp"]),
    });
    expect(find("/api/asflows/indirect/", "post").requestBody!.content["application/json"].schema).toMatchObject({
      required: expect.arrayContaining(["ASNumberList", "startTime", "endTime"]),
    });
    const linkSchema = inputSchema(linkLevelQuerySchema) as { properties: Record<string, unknown>; required: string[] };
    for (const p of ["/api/linkleveltopology/", "/api/linklevelstatistics/"]) {
      const params = find(p, "get").parameters.filter((x) => x.in === "query");
      expect(params.map((x) => x.name).sort()).toEqual(Object.keys(linkSchema.properties).sort());
      expect(
        params
          .filter((x) => x.required)
          .map((x) => x.name)
          .sort(),
      ).toEqual(["begin_timestamp", "destination", "end_timestamp", "origin"]);
    }
  });
});
