/**
 * auth/delegated_users/ and auth/delegated_users/{id}/: the JSON side of the Delegated Users
 * service (delegated-users.server.ts). Bodies use the spec's field names (shell §3); the same
 * checks as the screen's apply, their messages keyed by the body's fields.
 */
import { z } from "zod";
import { ApiProblem, parseBody } from "~/server/api/contract.server";
import type { UserContext } from "~/server/auth/user-context.server";
import type { Services } from "~/server/services.server";
import {
  createDelegatedUser,
  deleteDelegatedUser,
  DelegatedUserError,
  getDelegatedUser,
  listDelegatedUsers,
  mayManageDelegatedUsers,
  TEXTS,
  updateDelegatedUser,
} from "./delegated-users.server";
import type { DelegatedUserForm } from "./params";

const restrictionSchema = z.object({
  dimension: z.string().max(64),
  constrained_values: z.array(z.union([z.string().max(200), z.number()])).max(5000),
  output: z.string().max(64),
});
const externalSchema = z.object({
  ASNumberList: z
    .array(z.union([z.string().max(20), z.number()]))
    .max(5000)
    .optional(),
  routerList: z.array(z.string().max(200)).max(5000).optional(),
  interfaceList: z.array(z.string().max(400)).max(5000).optional(),
});
const fields = {
  first_name: z.string().max(1000),
  last_name: z.string().max(1000),
  permissions: z.array(z.string().max(64)).max(100),
  flows_views_restrictions: z.array(restrictionSchema).max(100),
  external_links_views_restrictions: externalSchema,
  welcome_text: z.string().max(20_000),
};

export const createBodySchema = z.object({
  email: z.string().max(1000),
  ...fields,
  permissions: fields.permissions.default([]),
  external_links_views_restrictions: externalSchema.default({}),
  welcome_text: fields.welcome_text.default(""),
});
export const patchBodySchema = z.object({ ...fields, is_active: z.boolean() }).partial();
/** Tolerant: a bad q or page falls back to none / the first page, so the access check is all that can refuse. */
export const listQuerySchema = z.object({
  q: z.string().max(200).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).optional().catch(undefined),
});

const lines = (list: readonly (string | number)[] | undefined) => (list ?? []).map(String).join("\n");

/** The body's field of a form field's message. */
function bodyField(field: string): string {
  const row = /^r\.(\d+)\.(dimension|values|output)$/.exec(field);
  if (row) return `flows_views_restrictions.${row[1]}.${row[2] === "values" ? "constrained_values" : row[2]}`;
  const names: Record<string, string> = {
    firstName: "first_name",
    lastName: "last_name",
    welcomeText: "welcome_text",
    restrictions: "flows_views_restrictions",
    asNumbers: "external_links_views_restrictions.ASNumberList",
    routers: "external_links_views_restrictions.routerList",
    interfaces: "external_links_views_restrictions.interfaceList",
  };
  return names[field] ?? field;
}

function problem(error: DelegatedUserError): ApiProblem {
  const errors = Object.entries(error.errors)
    .filter(([field]) => field !== "")
    .map(([field, message]) => ({ field: bodyField(field), message }));
  return new ApiProblem(error.status, {
    detail: error.errors[""] ?? (error.status === 400 ? "Invalid request body." : error.message),
    ...(error.status === 403 ? { exception_code: "permission_denied" } : {}),
    ...(errors.length ? { errors } : {}),
  });
}

function requireManager(user: UserContext) {
  if (!mayManageDelegatedUsers(user)) throw new ApiProblem(403, { detail: TEXTS.notAllowed, exception_code: "permission_denied" });
}

async function run<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DelegatedUserError) throw problem(error);
    throw error;
  }
}

type Ctx = { services: Services; user: UserContext; clientAddress: string };

export function listForApi(ctx: Ctx, query: z.infer<typeof listQuerySchema>) {
  requireManager(ctx.user);
  return run(() => listDelegatedUsers(ctx.services.pg.db, ctx.user, query));
}

export function getForApi(ctx: Ctx, id: number) {
  requireManager(ctx.user);
  return run(() => getDelegatedUser(ctx.services.pg.db, ctx.user, id));
}

/** The body is read after the access check, so a caller without the permission learns nothing from validation. */
export function createForApi(ctx: Ctx, raw: unknown) {
  requireManager(ctx.user);
  const body = parseBody(createBodySchema, raw);
  const ext = body.external_links_views_restrictions;
  const form: DelegatedUserForm = {
    email: body.email,
    firstName: body.first_name,
    lastName: body.last_name,
    permissions: body.permissions,
    restrictions: body.flows_views_restrictions.map((r) => ({
      dimension: r.dimension,
      values: lines(r.constrained_values),
      output: r.output,
    })),
    asNumbers: lines(ext.ASNumberList),
    routers: lines(ext.routerList),
    interfaces: lines(ext.interfaceList),
    welcomeText: body.welcome_text,
  };
  return run(() => createDelegatedUser(ctx.services.pg.db, ctx.user, form, { clientAddress: ctx.clientAddress }));
}

export function patchForApi(ctx: Ctx, id: number, raw: unknown) {
  requireManager(ctx.user);
  const body = parseBody(patchBodySchema, raw);
  const ext = body.external_links_views_restrictions;
  return run(() =>
    updateDelegatedUser(
      ctx.services.pg.db,
      ctx.user,
      id,
      {
        firstName: body.first_name,
        lastName: body.last_name,
        permissions: body.permissions,
        restrictions: body.flows_views_restrictions?.map((r) => ({
          dimension: r.dimension,
          values: lines(r.constrained_values),
          output: r.output,
        })),
        asNumbers: ext?.ASNumberList ? lines(ext.ASNumberList) : undefined,
        routers: ext?.routerList ? lines(ext.routerList) : undefined,
        interfaces: ext?.interfaceList ? lines(ext.interfaceList) : undefined,
        welcomeText: body.welcome_text,
        isActive: body.is_active,
      },
      { clientAddress: ctx.clientAddress },
    ),
  );
}

export function deleteForApi(ctx: Ctx, id: number) {
  requireManager(ctx.user);
  return run(() => deleteDelegatedUser(ctx.services.pg.db, ctx.user, id, { clientAddress: ctx.clientAddress }));
}
