import { errorReports } from "~db/postgres/schema";
import packageJson from "../../package.json";
import type { Db } from "./postgres.server";

export type ClientErrorReport = { message: string; stacktrace: string; url: string };

/** Keeps a client-side error for the operators of the installation (api/error_report/). */
export async function keepErrorReport(db: Db, userId: number | null, report: ClientErrorReport): Promise<void> {
  await db.insert(errorReports).values({ userId, ...report, release: packageJson.version });
}
