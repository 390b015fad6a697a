ALTER TABLE "collector_exporters" ADD COLUMN "sub_agent_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "collector_exporters" ADD COLUMN "udp_sources" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "collector_exporters" DROP CONSTRAINT "collector_exporters_address_protocol_pk";--> statement-breakpoint
ALTER TABLE "collector_exporters" ADD CONSTRAINT "collector_exporters_address_protocol_sub_agent_id_pk" PRIMARY KEY("address","protocol","sub_agent_id");--> statement-breakpoint
-- Until now every row's address was the UDP source its datagrams came from.
UPDATE "collector_exporters" SET "udp_sources" = ARRAY["address"];
