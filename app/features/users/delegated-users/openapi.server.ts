/** The OpenAPI description of auth/delegated_users/, handed to the catalogue by app/wiring.server.ts. */
import { arr, bool, int, nullable, obj, str, type Operation } from "~/server/api/openapi.server";
import {
  createBodySchema as delegatedCreateBodySchema,
  listQuerySchema as delegatedListQuerySchema,
  patchBodySchema as delegatedPatchBodySchema,
} from "./delegated-users-api.server";

const delegatedUser = obj({
  id: int,
  email: str,
  first_name: str,
  last_name: str,
  is_active: bool,
  has_password: bool,
  delegated_by: nullable(obj({ id: int, email: str })),
  permissions: arr(str),
  flows_views_restrictions: arr(obj({ dimension: str, constrained_values: arr(str), output: str })),
  external_links_views_restrictions: obj({ ASNumberList: arr(int), routerList: arr(str), interfaceList: arr(str) }),
  welcome_text: str,
  created_at: str,
  last_login_at: nullable(str),
});
const MANAGERS =
  "Holders of MANAGE_DELEGATED_USERS manage the delegated accounts they created; staff and superusers holding it manage all (403 without it; another manager's account is a 404).";

export const DELEGATED_USERS_OPERATIONS: Operation[] = [
  {
    file: "auth.delegated_users.ts",
    method: "GET",
    path: "/auth/delegated_users/",
    summary: "The delegated accounts the caller manages, searched (q) and paged (page, 25 a page).",
    description: MANAGERS,
    access: "login",
    query: delegatedListQuerySchema,
    response: obj({ results: arr(delegatedUser), total: int, page: int, pages: int }),
  },
  {
    file: "auth.delegated_users.ts",
    method: "POST",
    path: "/auth/delegated_users/",
    summary: "A new delegated account with its restrictions; it is mailed a single-use link (72 hours) to choose its password.",
    description: `${MANAGERS} Permissions: only the delegable ones the caller holds. 400 names each refused field (the e-mail: 'Provided email already exists or is invalid.').`,
    access: "login",
    body: delegatedCreateBodySchema,
    response: delegatedUser,
  },
  {
    file: "auth.delegated_users.$id.ts",
    method: "GET",
    path: "/auth/delegated_users/{id}/",
    summary: "One delegated account.",
    description: MANAGERS,
    access: "login",
    response: delegatedUser,
  },
  {
    file: "auth.delegated_users.$id.ts",
    method: "PATCH",
    path: "/auth/delegated_users/{id}/",
    summary: "Changes the fields the body names (is_active false deactivates: sessions, tokens and unfinished jobs end).",
    description: MANAGERS,
    access: "login",
    body: delegatedPatchBodySchema,
    response: delegatedUser,
  },
  {
    file: "auth.delegated_users.$id.ts",
    method: "DELETE",
    path: "/auth/delegated_users/{id}/",
    summary: "Deletes the delegated account (its access ends first); 204.",
    description: MANAGERS,
    access: "login",
    response: obj({}, []),
  },
];
