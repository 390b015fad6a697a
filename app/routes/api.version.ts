import { eq } from "drizzle-orm";
import { siteSettings, users } from "~db/postgres/schema";
import { API_VERSIONS, endpoint, resourceRoute } from "~/server/api/contract.server";
import { clickhouseVersion } from "~/server/clickhouse/query.server";
import packageJson from "../../package.json";

/** GET api/version/: versions of the app, the API and the data layout, and the user's database overrides. */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "login",
    handler: async ({ context, user }) => {
      const { services } = context;
      const [[settings], [row], chVersion] = await Promise.all([
        services.pg.db.select({ clickhouseDbVersion: siteSettings.clickhouseDbVersion }).from(siteSettings).where(eq(siteSettings.id, 1)),
        services.pg.db
          .select({ a: users.overrideClickhouseDb, b: users.overrideClickhouseRawFlowDb })
          .from(users)
          .where(eq(users.id, user!.id)),
        clickhouseVersion(services.ch),
      ]);
      return {
        version: packageJson.version,
        api_versions: { min: API_VERSIONS.min, max: API_VERSIONS.max, default: API_VERSIONS.default },
        variant: services.config.APP_VARIANT,
        clickhouse_db_version: settings?.clickhouseDbVersion ?? "",
        clickhouse_engine: services.ch.kind,
        clickhouse_server_version: chVersion,
        postgres_engine: services.pg.kind,
        override_clickhouse_db: row?.a ?? null,
        override_clickhouse_raw_flow_db: row?.b ?? null,
      };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
