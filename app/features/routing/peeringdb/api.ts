/** The `asn` parameter of api/peering_db/ and api/routingstreams/: the project's AS-number rule (shell §5), a positive AS number, no negation. */
import { z } from "zod";
import { parseAsValue } from "~/features/filter/filters";

/** 1 to 4294967295 from "64500", "AS64500" or "as64500"; null for anything else. */
export function parseAsnParam(raw: string): number | null {
  const parsed = parseAsValue(raw);
  if (!parsed || parsed.isNegation) return null;
  const asn = Number(parsed.value);
  return asn >= 1 && asn <= 4_294_967_295 ? asn : null;
}

export const ASN_PARAM_MESSAGE = "An AS number from 1 to 4294967295 (64500 or AS64500).";

export const asnQuerySchema = z.object({
  asn: z
    .string()
    .refine((v) => parseAsnParam(v) !== null, ASN_PARAM_MESSAGE)
    .transform((v) => parseAsnParam(v)!),
});
