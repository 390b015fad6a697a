import { eq } from "drizzle-orm";
import * as schema from "~db/postgres/schema";
import type { Db } from "~/server/postgres.server";
import { DEMO_ASES, OPERATOR_ASN, OPERATOR_NAME } from "./catalog";
import { ROUTERS } from "./topology";

type DemoTag = { name: string; color: string; dimension: schema.TagDimensionKind; values: string[]; ownerEmail?: string };
type DemoTagGroup = { name: string; color: string; dimension: schema.TagDimensionKind; tags: string[] };

const VIDEO_APPLICATIONS = ["YouTube", "Netflix", "TikTok", "Twitch"];

const asnsWhere = (keep: (a: (typeof DEMO_ASES)[number]) => boolean) => DEMO_ASES.filter(keep).map((a) => String(a.asn));
const routersIn = (cities: string[]) => ROUTERS.filter((r) => cities.includes(r.city)).map((r) => r.name);

/** The demo's tags, built from the catalogue and the topology so they name real demo objects. */
export function demoTags(): DemoTag[] {
  return [
    { name: "Tier-1 transits", color: "#d9822b", dimension: "AS_NUMBER", values: asnsWhere((a) => a.connection === "transit") },
    {
      name: "Video streaming",
      color: "#db3737",
      dimension: "AS_NUMBER",
      values: asnsWhere((a) => !!a.application && VIDEO_APPLICATIONS.includes(a.application)),
    },
    {
      name: "German eyeballs",
      color: "#0f9960",
      dimension: "AS_NUMBER",
      values: asnsWhere((a) => a.category === "eyeball" && a.country === "DE"),
    },
    { name: "Frankfurt routers", color: "#137cbd", dimension: "ROUTER", values: routersIn(["Frankfurt"]) },
    { name: "Northern Germany routers", color: "#8f398f", dimension: "ROUTER", values: routersIn(["Berlin", "Hamburg"]) },
    { name: "Video applications", color: "#f5498b", dimension: "APPLICATION", values: VIDEO_APPLICATIONS },
    // A personal tag: only its owner sees it (in the tag lists, autocomplete and as a filter).
    { name: "My watch list", color: "#634dbf", dimension: "AS_NUMBER", values: ["2906", "3320"], ownerEmail: "operator@flowlens.example" },
  ];
}

export function demoTagGroups(): DemoTagGroup[] {
  return [
    { name: "Content and eyeballs", color: "#00b3a4", dimension: "AS_NUMBER", tags: ["Video streaming", "German eyeballs"] },
    { name: "German routers", color: "#a67908", dimension: "ROUTER", tags: ["Frankfurt routers", "Northern Germany routers"] },
  ];
}

/**
 * Mapping rows beyond the base names written with the inventory: base colours (layer 0) for the
 * operator and its transits, and site overrides (layer 20) an operator would make.
 */
export function demoMappings(): (typeof schema.mappings.$inferInsert)[] {
  const transitColors = ["#d9822b", "#a67908", "#8f398f", "#634dbf"];
  return [
    { model: "AS", objectId: String(OPERATOR_ASN), layer: 0, name: OPERATOR_NAME, color: "#137cbd" },
    ...asnsWhere((a) => a.connection === "transit").map((asn, i) => ({
      model: "AS" as const,
      objectId: asn,
      layer: 0,
      color: transitColors[i % transitColors.length],
    })),
    { model: "AS", objectId: String(OPERATOR_ASN), layer: 20, name: "Our network", color: null },
    { model: "AS", objectId: "3320", layer: 20, name: "Deutsche Telekom (DTAG)", color: "#e20074" },
    { model: "Application", objectId: "Netflix", layer: 20, color: "#e50914" },
  ];
}

/** Writes the demo tags, tag groups and extra mappings (after the users, who may own tags). */
export async function seedDemoTags(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const tagIds = new Map<string, number>();
    for (const tag of demoTags()) {
      let ownerUserId: number | null = null;
      if (tag.ownerEmail) {
        const [owner] = await tx.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, tag.ownerEmail));
        if (!owner) continue; // the owner is not part of this load: no orphan personal tag
        ownerUserId = owner.id;
      }
      const [row] = await tx
        .insert(schema.tags)
        .values({ name: tag.name, color: tag.color, dimension: tag.dimension, ownerUserId })
        .returning({ id: schema.tags.id });
      tagIds.set(tag.name, row.id);
      if (tag.values.length) await tx.insert(schema.tagValues).values(tag.values.map((value) => ({ tagId: row.id, value })));
    }
    for (const group of demoTagGroups()) {
      const [row] = await tx
        .insert(schema.tagGroups)
        .values({ name: group.name, color: group.color, dimension: group.dimension })
        .returning({ id: schema.tagGroups.id });
      const members = group.tags.map((name) => tagIds.get(name)).filter((id): id is number => id !== undefined);
      if (members.length) await tx.insert(schema.tagGroupMembers).values(members.map((tagId) => ({ groupId: row.id, tagId })));
    }
    await tx.insert(schema.mappings).values(demoMappings()).onConflictDoNothing();
  });
}
