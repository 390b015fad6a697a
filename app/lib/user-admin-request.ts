import { z } from "zod";

/**
 * The request shapes of auth/users/ (shell §7), shared by the routes and their OpenAPI description.
 * Codes and group names are checked by the service (400 naming the field); these schemas bound sizes.
 */

export const USER_SORTS = ["email", "-email", "name", "-name", "last_login", "-last_login", "created", "-created"] as const;
export type UserSort = (typeof USER_SORTS)[number];
export const isUserSort = (value: string): value is UserSort => (USER_SORTS as readonly string[]).includes(value);

const pageNumber = z
  .string()
  .regex(/^[0-9]{1,6}$/, "A whole number from 1.")
  .transform(Number)
  .refine((n) => n >= 1, "A whole number from 1.");

export const userListQuery = z.object({
  search: z.string().max(200).optional(),
  sort: z.enum(USER_SORTS).optional(),
  page: pageNumber.optional(),
  page_size: pageNumber.refine((n) => n <= 200, "At most 200.").optional(),
});

const text = z.string().max(1000);
const codes = z.array(z.string().max(200)).max(200);

export const userFields = {
  email: text,
  first_name: text.optional(),
  last_name: text.optional(),
  groups: codes.optional(),
  permissions: codes.optional(),
  feature_flags: codes.optional(),
  is_staff: z.boolean().optional(),
  is_superuser: z.boolean().optional(),
  can_change_own_group: z.boolean().optional(),
};

/** POST auth/users/: a new account (an invitation mail follows). */
export const createUserBody = z.object(userFields);

/** PUT auth/users/{id}/: the fields to change (the others stay), also is_active. */
export const updateUserBody = z.object({ ...userFields, email: text.optional(), is_active: z.boolean().optional() });
