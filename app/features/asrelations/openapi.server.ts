/** The OpenAPI description of the AS Relations endpoint, handed to the catalogue by app/wiring.server.ts. */
import { arr, bool, int, nullable, num, obj, str, unix, type Operation } from "~/server/api/openapi.server";
import { TRAFFIC_RATIOS } from "~/features/routing/peeringdb/ratio";
import { asRelationsQuerySchema } from "./api";

const ratio = { enum: [...TRAFFIC_RATIOS] };

export const AS_RELATIONS_OPERATIONS: Operation[] = [
  {
    file: "api.asrelations.ts",
    method: "GET",
    path: "/api/asrelations/",
    summary:
      "Every neighbour AS of the inventory's external links: relation, links, PeeringDB facts, declared and observed traffic ratio of a month.",
    description:
      "month: YYYY-MM (UTC), the current month when absent; 400 naming month otherwise. relations: the links' peering types (Transit, Peering; Customer is this " +
      "product's extension). observed: the month's 95th per direction on the neighbour's links from flows_1h (outbound = handed over to us, inbound = handed " +
      "over to it; samples are the hours with any flow, billing rule), in bit/s, placed in the spec's traffic ratio categories (out/in within 1.5:1 Balanced, " +
      "up to 3:1 Mostly, beyond Heavy; no traffic Not Disclosed). ratio_disagrees: declared and observed both disclosed and different. name and peeringdb are " +
      "null when the PeeringDB import does not know the AS.",
    access: { permission: "AS_RELATIONS" },
    query: asRelationsQuerySchema,
    response: obj({
      month: str,
      range: obj({ start: unix, end: unix }),
      samples: int,
      peeringdb: nullable(obj({ dump_date: nullable(str), imported_at: str })),
      neighbors: arr(
        obj({
          asn: int,
          name: nullable(str),
          relations: arr(str),
          links: arr(obj({ router: str, interface: str, peering_type: nullable(str), connection: nullable(str), capacity_bps: int })),
          routers: arr(str),
          peeringdb: nullable(obj({ policy_general: str, info_traffic: str, info_type: str })),
          declared_ratio: ratio,
          observed: obj({ outbound_p95_bps: num, inbound_p95_bps: num, ratio }),
          ratio_disagrees: bool,
        }),
      ),
    }),
  },
];
