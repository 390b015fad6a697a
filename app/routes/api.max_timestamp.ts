import { endpoint, resourceRoute } from "~/server/api/contract.server";

/** GET api/max_timestamp/: the newest 5-minute bucket with flow data (unix seconds), null when empty. */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "login",
    handler: async ({ context }) => {
      const rs = await context.services.ch.client.query({
        query: "SELECT if(count() = 0, NULL, toUInt32(max(time))) AS maxTimestamp FROM flows_5m",
        format: "JSONEachRow",
      });
      const [row] = await rs.json<{ maxTimestamp: number | null }>();
      return { maxTimestamp: row?.maxTimestamp === null || row?.maxTimestamp === undefined ? null : Number(row.maxTimestamp) };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
