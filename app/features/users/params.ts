/**
 * The Users screen's URL (/manage-users) → a typed state. Pure and tolerant: a bad value falls back
 * to its default and is named in `notApplied`, which the screen shows; never an error page.
 *
 * - `view`: accounts (default), requests (applicant requests) or audit (the audit log, staff only);
 * - `q`, `sort`, `page`: search, order and page of the accounts;
 * - `user=<id>`: the account whose panel is open; `confirm=delete` asks before deleting it;
 * - `new=1`: the form that adds an account;
 * - `apage`: the page of the audit log;
 * - `saved=<what>`: the notice after a change (post, redirect, get).
 */
import { isUserSort, type UserSort } from "~/lib/user-admin-request";

export const USERS_PATH = "/manage-users";

export const USER_VIEWS = ["accounts", "requests", "audit"] as const;
export type UserView = (typeof USER_VIEWS)[number];

export type UsersParams = {
  view: UserView;
  q: string;
  sort: UserSort;
  page: number;
  user: number | null;
  confirmDelete: boolean;
  newUser: boolean;
  auditPage: number;
  saved: string | null;
  notApplied: string[];
};

const short = (raw: string) => raw.slice(0, 40);

function positive(raw: string | null, what: string, notApplied: string[]): number | null {
  if (raw === null || raw === "") return null;
  if (/^\d{1,9}$/.test(raw) && Number(raw) > 0) return Number(raw);
  notApplied.push(`"${short(raw)}" is not a ${what}.`);
  return null;
}

export function parseUsersParams(search: URLSearchParams): UsersParams {
  const notApplied: string[] = [];
  const rawView = search.get("view");
  let view: UserView = "accounts";
  if (rawView) {
    if ((USER_VIEWS as readonly string[]).includes(rawView)) view = rawView as UserView;
    else notApplied.push(`"${short(rawView)}" is not a part of this screen: the accounts are shown.`);
  }
  const rawSort = search.get("sort");
  let sort: UserSort = "email";
  if (rawSort) {
    if (isUserSort(rawSort)) sort = rawSort;
    else notApplied.push(`"${short(rawSort)}" is not an order of the list: it is sorted by e-mail address.`);
  }
  return {
    view,
    q: (search.get("q") ?? "").trim().slice(0, 200),
    sort,
    page: positive(search.get("page"), "page number", notApplied) ?? 1,
    user: positive(search.get("user"), "user id", notApplied),
    confirmDelete: search.get("confirm") === "delete",
    newUser: search.get("new") === "1",
    auditPage: positive(search.get("apage"), "page number of the audit log", notApplied) ?? 1,
    saved: search.get("saved"),
    notApplied,
  };
}

/** The screen's URL for a state (defaults left out). */
export function usersUrl(state: Partial<Omit<UsersParams, "notApplied">> = {}): string {
  const search = new URLSearchParams();
  if (state.view && state.view !== "accounts") search.set("view", state.view);
  if (state.q) search.set("q", state.q);
  if (state.sort && state.sort !== "email") search.set("sort", state.sort);
  if (state.page && state.page > 1) search.set("page", String(state.page));
  if (state.user) search.set("user", String(state.user));
  if (state.confirmDelete) search.set("confirm", "delete");
  if (state.newUser) search.set("new", "1");
  if (state.auditPage && state.auditPage > 1) search.set("apage", String(state.auditPage));
  if (state.saved) search.set("saved", state.saved);
  const text = search.toString();
  return text ? `${USERS_PATH}?${text}` : USERS_PATH;
}
