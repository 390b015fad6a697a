import { z } from "zod";

/**
 * Body of POST api/netcommand/ (looking glass §3 "Network command job"). protocol and
 * sourceAddress exist in the contract but are always null: the vantage point chooses the
 * protocol from the address and its own source address. The target is checked by the service
 * (its message is the spec's 'Invalid IP address'), so it is taken as it comes here.
 */
export const netcommandBodySchema = z.object({
  networkElement: z.string({ error: "Name the vantage point (its key)." }).min(1, "Name the vantage point (its key).").max(200),
  protocol: z.null({ error: "protocol must be null: the vantage point chooses it from the address." }).optional(),
  queryType: z.string({ error: "Choose PingQuery or TracerouteQuery." }).max(50),
  sourceAddress: z.null({ error: "sourceAddress must be null: the vantage point uses its own address." }).optional(),
  /** An IPv4 or IPv6 address (a string); anything else is answered with 'Invalid IP address'. */
  targetAddress: z.unknown().optional(),
});
export type NetcommandBody = z.infer<typeof netcommandBodySchema>;
