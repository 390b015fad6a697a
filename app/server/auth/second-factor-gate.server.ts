import type { Db } from "../postgres.server";

/**
 * After a correct password: LOGGED_IN, or PENDING_2FA when the user must give a second factor
 * (2FA enabled by the user or mandatory by site setting).
 */
export async function sessionStateAfterPassword(db: Db, userId: number): Promise<"LOGGED_IN" | "PENDING_2FA"> {
  const { is2faRequired } = await import("./two-factor.server");
  return (await is2faRequired(db, userId)) ? "PENDING_2FA" : "LOGGED_IN";
}
