/**
 * The OpenAPI 3.1 description of every JSON endpoint (auth/*, api/*, siteconfig/, healthz),
 * served at GET /api/openapi.json.
 *
 * The kernel's own endpoints are described here; each feature describes its endpoints in its
 * openapi.server.ts, handed over by app/wiring.server.ts (describeOperations). Request schemas come
 * from the endpoints' own zod schemas where a module exports them (z.toJSONSchema, input side:
 * what a client sends); endpoints whose schema lives inside their route module are described by
 * hand. Each operation names its route file, so the test can check that every resource route of
 * app/routes is described: a new endpoint without a description fails it.
 */
import { z } from "zod";
import { REAUTH_HEADERS } from "~/lib/reauthentication";
import { createUserBody, updateUserBody, userListQuery } from "~/lib/user-admin-request";
import { API_VERSIONS, requiredPermissions, type Access, type Method } from "./contract.server";

export type JsonSchema = Record<string, unknown>;
type SchemaSource = z.ZodType | JsonSchema;

export type Operation = {
  /** The route module in app/routes that serves it. */
  file: string;
  method: Method;
  /** With the trailing slash of the spec; `{name}` for path parameters. */
  path: string;
  summary: string;
  access: Access;
  query?: SchemaSource;
  body?: SchemaSource;
  response: JsonSchema;
  /** A non-JSON success body (e.g. CSV). */
  responseType?: string;
  /** Needs the current password or a code in headers (always, or only in the case the text names). */
  reauthentication?: "always" | string;
  description?: string;
  /** API versions accepted besides 13–17 (the endpoint's alsoVersions): shown as x-api-versions and in the description. */
  alsoVersions?: readonly number[];
};

// ---------------------------------------------------------------------------------------------------------------
// Schema shorthands for the hand-written parts (the features' descriptions use them too)

export const str: JsonSchema = { type: "string" };
export const int: JsonSchema = { type: "integer" };
export const num: JsonSchema = { type: "number" };
export const bool: JsonSchema = { type: "boolean" };
export const nullable = (s: JsonSchema): JsonSchema => ({ anyOf: [s, { type: "null" }] });
export const arr = (items: JsonSchema): JsonSchema => ({ type: "array", items });
export const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: "object",
  properties,
  required,
});
export const anyObject: JsonSchema = { type: "object", additionalProperties: true };
export const unix: JsonSchema = { type: "integer", minimum: 0, description: "unix seconds" };
const ok: JsonSchema = obj({ status: str }, []);
/** An account as auth/users/ answers it (user-admin.server.ts UserRecord). */
const userRecord: JsonSchema = obj({
  id: int,
  email: str,
  first_name: str,
  last_name: str,
  is_active: bool,
  is_staff: bool,
  is_superuser: bool,
  is_delegated: bool,
  can_change_own_group: bool,
  groups: arr(str),
  permissions: arr(str),
  feature_flags: arr(str),
  date_joined: str,
  last_login: nullable(str),
  password_set: bool,
});

/** JSON Schema of a zod schema as a client writes it (the input side of transforms and defaults). */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  const out = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  delete out.$schema;
  return out;
}

const asJson = (s: SchemaSource): JsonSchema => (s instanceof z.ZodType ? toJsonSchema(s) : s);

// ---------------------------------------------------------------------------------------------------------------
// The catalogue: the kernel's endpoints, then the features' in the order they were handed over

export const OPERATIONS: Operation[] = [
  // Site and health
  {
    file: "siteconfig.ts",
    method: "GET",
    path: "/siteconfig/",
    summary: "Site settings (spec §3) with the default style; sets the CSRF cookie.",
    access: "public",
    response: anyObject,
  },
  {
    file: "healthz.ts",
    method: "GET",
    path: "/healthz",
    summary: "200 when PostgreSQL and ClickHouse answer, else 503 naming the failing store.",
    access: "public",
    response: anyObject,
  },
  {
    file: "api.openapi[.]json.ts",
    method: "GET",
    path: "/api/openapi.json",
    summary: "This description.",
    access: "public",
    response: anyObject,
  },

  // auth/
  {
    file: "auth.login.ts",
    method: "POST",
    path: "/auth/login/",
    summary: "Log in with e-mail (or username) and password.",
    access: "public",
    body: obj({ email: str, username: str, password: str, next: str, hash: str }, ["password"]),
    response: obj({ status: { enum: ["LOGGED_IN", "PENDING_2FA"] }, next: str }),
    description:
      "Sets the session cookie. 401 on wrong credentials; 403 account_deactivated (detail: the account-deactivated message, contact: {href, label} where to turn) for the right password of a deactivated account — a wrong password stays 401; 429 (Retry-After) after 5 failures for this account from this client or 30 from this client within 15 minutes; 503 (Retry-After) while too many password checks wait. `next`/`hash`: where to continue; a path of another origin is answered as `/`, control characters give 400. No CSRF header needed.",
  },
  {
    file: "auth.2fa.ts",
    method: "POST",
    path: "/auth/2fa/",
    summary: "Second login step: a TOTP or recovery code.",
    access: "session",
    body: obj({ code: str }),
    response: obj({ status: str }),
  },
  {
    file: "auth.user.ts",
    method: "GET",
    path: "/auth/user/",
    summary: "The current user with permissions, feature flags, restrictions and session_status.",
    access: "session",
    response: anyObject,
    description:
      "auth_token: null when the user holds no API token, else their own newest one as {id, name, created_at, last_used_at}. Only a token's hash is stored, so the token itself is shown once, by POST auth/token/, and never here (nor its hash, nor another user's).",
  },
  { file: "auth.logout.ts", method: "POST", path: "/auth/logout/", summary: "Ends the session.", access: "session", response: ok },
  {
    file: "auth.featureflags.ts",
    method: "GET",
    path: "/auth/featureflags/",
    summary: "Feature flags in force for the user.",
    access: "login",
    response: anyObject,
  },
  {
    file: "auth.settings.$name.ts",
    method: "POST",
    path: "/auth/settings/{name}/",
    summary: "Changes a user (or, with level, site) setting: timezone, csv_delimiter, thresholds, build-out, enable_2fa.",
    access: "login",
    body: obj({ value: {}, level: str }, ["value"]),
    response: anyObject,
    reauthentication: "when enable_2fa is set to false",
  },
  {
    file: "auth.groups.ts",
    method: "GET",
    path: "/auth/groups/",
    summary: "All groups and the user's groups.",
    access: "login",
    response: obj({ allGroups: arr(anyObject), myGroups: arr(anyObject) }),
  },
  {
    file: "auth.groups.ts",
    method: "POST",
    path: "/auth/groups/",
    summary: "Changes the user's group (users who may).",
    access: "login",
    body: obj({ groups: arr({}) }),
    response: anyObject,
  },
  {
    file: "auth.2fa.devices.ts",
    method: "GET",
    path: "/auth/2fa/devices/",
    summary: "The user's TOTP devices.",
    access: "login",
    response: arr(anyObject),
  },
  {
    file: "auth.2fa.devices.ts",
    method: "POST",
    path: "/auth/2fa/devices/",
    summary: "Confirms a new TOTP device with a code.",
    access: "login",
    body: obj({ id: int, code: str }),
    response: anyObject,
  },
  {
    file: "auth.2fa.devices.$id.ts",
    method: "DELETE",
    path: "/auth/2fa/devices/{id}/",
    summary: "Removes a TOTP device of the user.",
    access: "login",
    response: ok,
  },
  {
    file: "auth.2fa.devices.generate_key.ts",
    method: "GET",
    path: "/auth/2fa/devices/generate_key/",
    summary: "A new TOTP key with its QR code (an unconfirmed device).",
    access: "login",
    response: anyObject,
  },
  {
    file: "auth.2fa.devices.generate_recovery_codes.ts",
    method: "GET",
    path: "/auth/2fa/devices/generate_recovery_codes/",
    summary: "New recovery codes, shown once.",
    access: "login",
    response: anyObject,
    reauthentication: "always",
  },
  {
    file: "auth.notifications.ts",
    method: "GET",
    path: "/auth/notifications/",
    summary: "The user's notifications.",
    access: "login",
    response: arr(obj({ id: int, is_read: bool, is_archived: bool, do_pop_up: bool }, ["id"])),
  },
  {
    file: "auth.notifications.ts",
    method: "POST",
    path: "/auth/notifications/",
    summary: "Marks notifications read/unread or archived, or as popped up (do_pop_up false).",
    access: "login",
    body: arr(obj({ id: int, is_read: bool, is_archived: bool, do_pop_up: bool }, ["id"])),
    response: anyObject,
  },
  {
    file: "auth.notifications.$id.ts",
    method: "DELETE",
    path: "/auth/notifications/{id}/",
    summary: "Deletes a notification of the user.",
    access: "login",
    response: ok,
  },
  {
    file: "auth.consent.accept.ts",
    method: "POST",
    path: "/auth/consent/accept/",
    summary: "Gives GDPR consent.",
    access: "login",
    response: ok,
  },
  {
    file: "auth.consent.revoke.ts",
    method: "POST",
    path: "/auth/consent/revoke/",
    summary: "Revokes consent (ends the session).",
    access: "login",
    response: ok,
  },
  {
    file: "auth.signup.ts",
    method: "POST",
    path: "/auth/signup/",
    summary: "Requests an account when self-signup is on.",
    access: "public",
    body: obj({ email: str, first_name: str, last_name: str }),
    response: anyObject,
  },
  {
    file: "auth.password.reset.ts",
    method: "POST",
    path: "/auth/password/reset/",
    summary: "Sends a password-reset mail.",
    access: "public",
    body: obj({ email: str }),
    response: anyObject,
  },
  {
    file: "auth.password.reset.confirm.ts",
    method: "POST",
    path: "/auth/password/reset/confirm/",
    summary: "Sets a new password with a reset token.",
    access: "public",
    body: obj({ token: str, password: str, new_password: { type: "string", description: "Also accepted instead of password." } }, [
      "token",
    ]),
    description:
      "The new password in password (or new_password; when both are given they must be equal). 400 token_invalid for an expired, used or replaced link; 400 naming the password field for a password the rules refuse.",
    response: anyObject,
  },
  {
    file: "auth.usernamecheck.ts",
    method: "POST",
    path: "/auth/usernamecheck/",
    summary: "Whether a username is valid and free.",
    access: "public",
    body: obj({ username: str }),
    response: obj({ available: bool, valid: bool }),
    description:
      "Account managers (VIEW_USERS or MANAGE_DELEGATED_USERS) always; anyone else only while self-signup is on (else 403), limited per client (429 with Retry-After).",
  },
  {
    file: "auth.delete.ts",
    method: "POST",
    path: "/auth/delete/",
    summary: "Deletes the own account (password required).",
    access: "login",
    body: obj({ password: str }),
    response: anyObject,
  },
  {
    file: "auth.support_message.ts",
    method: "POST",
    path: "/auth/support_message/",
    summary: "A message to the operators' support.",
    access: "login",
    body: obj({ type: { enum: ["BUG", "HELP", "FEEDBACK", "NEW_USER", "FEATURE_REQUEST"] }, message: str }),
    response: anyObject,
  },
  {
    file: "usertracking.interaction.ts",
    method: "POST",
    path: "/usertracking/interaction/",
    summary: "Records that the caller used a screen (route path) or named action (consent required).",
    description:
      "target: a route path (e.g. /flow-explorer) or a named action (e.g. flow-explorer.export), at most 120 characters, never with a query string (400). Stored with the user and the time, kept USAGE_RETENTION_DAYS days (90 by default); at most 60 a minute per user (429 beyond).",
    access: "login",
    body: obj({ target: str }),
    response: anyObject,
  },
  {
    file: "auth.usermanagement.user_requests.ts",
    method: "GET",
    path: "/auth/usermanagement/user_requests/",
    summary: "Signup requests.",
    access: { permission: "VIEW_USERS" },
    response: anyObject,
  },
  {
    file: "auth.usermanagement.user_requests.ts",
    method: "POST",
    path: "/auth/usermanagement/user_requests/",
    summary: "Creates a signup request on behalf of someone.",
    access: { permission: "VIEW_USERS" },
    body: anyObject,
    response: anyObject,
  },
  {
    file: "auth.usermanagement.user_requests.$id.$decision.ts",
    method: "PUT",
    path: "/auth/usermanagement/user_requests/{id}/{decision}/",
    summary: "Accepts or rejects a signup request (decision: accept | reject).",
    access: { permission: "VIEW_USERS" },
    description:
      "Staff and superusers only (403 otherwise). Accepting creates the account and mails a link to choose a password; rejecting mails a short notice. Both are written to the audit log.",
    response: anyObject,
  },
  {
    file: "auth.users.ts",
    method: "GET",
    path: "/auth/users/",
    summary: "The accounts: search (e-mail or name), sort, page; never a password hash.",
    access: { permission: "VIEW_USERS" },
    query: userListQuery,
    description: "Delegated accounts get 403 whatever they hold.",
    response: obj({ count: int, page: int, page_size: int, pages: int, results: arr(userRecord) }),
  },
  {
    file: "auth.users.ts",
    method: "POST",
    path: "/auth/users/",
    summary: "Creates an account without a password and mails an invitation (single-use link, 72 hours).",
    access: { permission: "VIEW_USERS" },
    body: createUserBody,
    description:
      "Staff and superusers only. Nobody grants a permission or feature flag they do not hold; only superusers set is_staff or is_superuser (403). A bad or taken address: 400 'Provided email already exists or is invalid.' with the field errors.",
    response: userRecord,
  },
  {
    file: "auth.users.$id.ts",
    method: "PUT",
    path: "/auth/users/{id}/",
    summary: "Changes the fields given (also is_active); the others stay.",
    access: { permission: "VIEW_USERS" },
    body: updateUserBody,
    description:
      "Staff and superusers only; a superuser's account only by superusers. is_active false ends the account's sessions, API tokens and unfinished jobs. Another account's new email needs everything the account holds (its own and its groups' permissions, its feature flags; a staff account: superusers only), else 403; it mails the old address and ends the account's sessions, API tokens and unused reset links. 409: your own lock-out (deactivating yourself, dropping your own staff or superuser flag), the last active superuser, or a delegated account (managed by auth/delegated_users/).",
    response: userRecord,
  },
  {
    file: "auth.users.$id.ts",
    method: "DELETE",
    path: "/auth/users/{id}/",
    summary: "Deletes an account and its personal data, after ending its access.",
    access: { permission: "VIEW_USERS" },
    description: "Staff and superusers only. 409 for yourself, the last active superuser or a delegated account.",
    response: obj({ deleted: int }),
  },
  {
    file: "auth.clickhouse_override.ts",
    method: "POST",
    path: "/auth/clickhouse_override/",
    summary: "Sets (or clears with null) the user's ClickHouse database override.",
    access: { permission: "CLICKHOUSE_DIRECT_QUERY" },
    body: obj({ database: nullable(str) }),
    response: anyObject,
  },
  {
    file: "auth.clickhouse_raw_flow_override.ts",
    method: "POST",
    path: "/auth/clickhouse_raw_flow_override/",
    summary: "Sets (or clears with null) the user's raw-flow database override.",
    access: { permission: "CLICKHOUSE_DIRECT_QUERY" },
    body: obj({ database: nullable(str) }),
    response: anyObject,
  },
  {
    file: "auth.token.ts",
    method: "GET",
    path: "/auth/token/",
    summary: "The user's API tokens (without their secrets).",
    access: { permission: "DEVELOPER_API_TOKEN" },
    response: arr(anyObject),
  },
  {
    file: "auth.token.ts",
    method: "POST",
    path: "/auth/token/",
    summary: "Creates an API token; the secret is shown once.",
    access: { permission: "DEVELOPER_API_TOKEN" },
    body: anyObject,
    response: anyObject,
  },
  {
    file: "auth.token.$id.ts",
    method: "DELETE",
    path: "/auth/token/{id}/",
    summary: "Revokes an API token.",
    access: { permission: "DEVELOPER_API_TOKEN" },
    response: ok,
  },

  // api/ — general
  {
    file: "api.version.ts",
    method: "GET",
    path: "/api/version/",
    summary: "App, API and data versions; the user's database overrides.",
    access: { permission: "API_APP_VERSION" },
    alsoVersions: [3],
    response: anyObject,
  },
  {
    file: "api.tables_without_data.ts",
    method: "GET",
    path: "/api/tables_without_data/",
    summary: "Analytics tables without rows.",
    access: "login",
    response: anyObject,
  },
  {
    file: "api.max_timestamp.ts",
    method: "GET",
    path: "/api/max_timestamp/",
    summary: "The newest 5-minute bucket with flows.",
    access: "login",
    response: obj({ maxTimestamp: nullable(unix) }),
  },
  {
    file: "api.error_report.ts",
    method: "POST",
    path: "/api/error_report/",
    summary: "A client-side error report.",
    access: "session",
    body: obj({ message: str, stacktrace: str, url: str }, ["message"]),
    response: anyObject,
  },
  {
    file: "api.error.$secret.ts",
    method: "GET",
    path: "/api/error/{secret}/",
    summary: "Fails on purpose when secret is ERROR_PAGE_SECRET (tests the error handling).",
    access: "session",
    response: anyObject,
  },
];

// ---------------------------------------------------------------------------------------------------------------
// The document

const ERROR: JsonSchema = obj(
  {
    detail: str,
    exception_code: { enum: ["not_authenticated", "permission_denied", "consent_required", "csrf_failed"] },
    errors: arr(obj({ field: str, message: str })),
  },
  ["detail"],
);

function accessText(access: Access): string {
  if (access === "public") return "Public: no login needed.";
  if (access === "session") return "Any session (also before login completes).";
  if (access === "login") return "Logged-in users.";
  return `Logged-in users holding ${requiredPermissions(access).join(" and ")}.`;
}

/** The re-authentication headers (one of the two is needed; headers, never the query string, which ends up in logs). */
const REAUTH_PARAMETERS: JsonSchema[] = [
  {
    name: REAUTH_HEADERS.password,
    in: "header",
    required: false,
    schema: str,
    description:
      "The current password, percent-encoded as encodeURIComponent does (so any character fits a header). Wrong ones count in the login throttle.",
  },
  {
    name: REAUTH_HEADERS.code,
    in: "header",
    required: false,
    schema: str,
    description:
      "Instead of the password: a current 6-digit code of a confirmed two-factor device, or an unused recovery code (used up by this call). Wrong ones count in the two-factor throttle.",
  },
];

function parameters(op: Operation): JsonSchema[] {
  const path = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: str }));
  const headers = op.reauthentication ? REAUTH_PARAMETERS : [];
  if (!op.query) return [...path, ...headers];
  const schema = asJson(op.query) as { properties?: Record<string, JsonSchema>; required?: string[] };
  const query = Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    in: "query",
    required: (schema.required ?? []).includes(name),
    schema: s,
  }));
  return [...path, ...query, ...headers];
}

function reauthenticationText(op: Operation): string | null {
  if (!op.reauthentication) return null;
  const when = op.reauthentication === "always" ? "" : ` ${op.reauthentication}`;
  return `Re-authentication${when}: the current password in ${REAUTH_HEADERS.password} or a code in ${REAUTH_HEADERS.code}; missing 400, wrong 403 (nothing changed), too many wrong ones 429 with Retry-After.`;
}

function apiVersionRange(): number[] {
  return Array.from({ length: API_VERSIONS.max - API_VERSIONS.min + 1 }, (_, i) => API_VERSIONS.min + i);
}

function operationObject(op: Operation): JsonSchema {
  const mutation = op.method !== "GET";
  const responses: Record<string, JsonSchema> = {
    "200": { description: "OK", content: { [op.responseType ?? "application/json"]: { schema: op.response } } },
    "400": { $ref: "#/components/responses/BadRequest" },
    "405": { $ref: "#/components/responses/Error" },
    "406": { $ref: "#/components/responses/Error" },
    "500": { $ref: "#/components/responses/Error" },
  };
  if (op.access !== "public") responses["403"] = { $ref: "#/components/responses/Error" };
  // Every body is capped (MAX_JSON_BODY); rate limits and the analytics query limits answer with Retry-After.
  if (op.method !== "GET" && op.method !== "DELETE") responses["413"] = { $ref: "#/components/responses/Error" };
  responses["429"] = { $ref: "#/components/responses/Error" };
  responses["503"] = { $ref: "#/components/responses/Error" };
  return {
    summary: op.summary,
    description: [
      accessText(op.access),
      op.description,
      reauthenticationText(op),
      op.alsoVersions?.length
        ? `Accepts API version ${op.alsoVersions.join(", ")} in the Accept header as well as ${API_VERSIONS.min}–${API_VERSIONS.max} (the spec's client numbers this call on its own); it is answered as version ${API_VERSIONS.default}.`
        : null,
      mutation && op.access !== "public" ? "With a session cookie, send the csrftoken cookie's value in X-CSRFToken." : null,
    ]
      .filter(Boolean)
      .join(" "),
    operationId: `${op.method.toLowerCase()}_${op.path.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_|_$/g, "")}`,
    "x-access":
      typeof op.access === "object"
        ? { permission: op.access.permission, ...(op.access.also?.length ? { also: [...op.access.also] } : {}) }
        : op.access,
    "x-route-file": `app/routes/${op.file}`,
    "x-api-versions": [...(op.alsoVersions ?? []), ...apiVersionRange()],
    security: op.access === "public" ? [] : [{ session: [] }, { token: [] }],
    parameters: parameters(op),
    ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: asJson(op.body) } } } } : {}),
    responses,
  };
}

/** Adds a feature's endpoints to the catalogue (again: replaced in place, so wiring twice changes nothing). */
export function describeOperations(operations: Operation[]): void {
  for (const op of operations) {
    const known = OPERATIONS.findIndex((o) => o.file === op.file && o.method === op.method && o.path === op.path);
    if (known >= 0) OPERATIONS[known] = op;
    else OPERATIONS.push(op);
  }
}

/** The OpenAPI 3.1 document. */
export function openApiDocument(appVersion: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of OPERATIONS) {
    paths[op.path] = { ...(paths[op.path] ?? {}), [op.method.toLowerCase()]: operationObject(op) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "flowlens JSON API",
      version: appVersion,
      description: `Resource routes under auth/, api/ and siteconfig/. API version in the Accept header: application/json; version=N (${API_VERSIONS.min}–${API_VERSIONS.max}, default ${API_VERSIONS.default}). Trailing slashes are optional. See docs/api.md.`,
    },
    servers: [{ url: "/" }],
    paths,
    components: {
      schemas: { Error: ERROR },
      responses: {
        BadRequest: {
          description: "Bad input: errors names each field and the reason.",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
        Error: {
          description: "403 (exception_code), 404, 405, 406 or 500.",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "flowlens_session", description: "The session cookie of POST auth/login/." },
        token: { type: "apiKey", in: "header", name: "Authorization", description: "Authorization: Token fl_… (POST auth/token/)." },
      },
    },
  };
}
