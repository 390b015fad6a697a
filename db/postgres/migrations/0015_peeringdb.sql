CREATE TABLE "peeringdb_import" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"generation" bigint DEFAULT 0 NOT NULL,
	"dump_date" timestamp with time zone,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	"imported_by" text NOT NULL,
	"counts" jsonb NOT NULL,
	CONSTRAINT "peeringdb_import_single_row" CHECK ("peeringdb_import"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "peeringdb_objects" (
	"kind" text NOT NULL,
	"id" integer NOT NULL,
	"asn" bigint,
	"net_id" integer,
	"data" jsonb NOT NULL,
	CONSTRAINT "peeringdb_objects_kind_id_pk" PRIMARY KEY("kind","id"),
	CONSTRAINT "peeringdb_objects_kind_check" CHECK ("peeringdb_objects"."kind" IN ('net', 'org', 'ix', 'ixlan', 'ixpfx', 'netixlan', 'fac', 'netfac', 'poc'))
);
--> statement-breakpoint
CREATE INDEX "peeringdb_objects_asn_idx" ON "peeringdb_objects" USING btree ("kind","asn");--> statement-breakpoint
CREATE INDEX "peeringdb_objects_net_idx" ON "peeringdb_objects" USING btree ("kind","net_id");