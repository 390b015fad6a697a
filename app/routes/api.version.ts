import { API_VERSIONS, endpoint, resourceRoute } from "~/server/api/contract.server";
import { storeVersions } from "~/server/store-versions.server";
import packageJson from "../../package.json";

/**
 * GET api/version/: versions of the app, the API and the data layout, and the user's database overrides.
 * For holders of API_APP_VERSION ("Read the application's version details", the catalogue's entry).
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: { permission: "API_APP_VERSION" },
    // The spec's client numbers this call on its own and sends version 3 (answered as 17); others send 13–17.
    alsoVersions: [3],
    handler: async ({ context, user }) => {
      const { services } = context;
      const versions = await storeVersions(services, user.id);
      return {
        version: packageJson.version,
        api_versions: { min: API_VERSIONS.min, max: API_VERSIONS.max, default: API_VERSIONS.default },
        variant: services.config.APP_VARIANT,
        clickhouse_db_version: versions.clickhouseDbVersion,
        clickhouse_engine: services.ch.kind,
        clickhouse_server_version: versions.clickhouseServerVersion,
        postgres_engine: services.pg.kind,
        override_clickhouse_db: versions.overrideClickhouseDb,
        override_clickhouse_raw_flow_db: versions.overrideClickhouseRawFlowDb,
      };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
