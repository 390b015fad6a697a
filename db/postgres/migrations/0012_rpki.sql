CREATE TABLE "rpki_sources" (
	"source" text PRIMARY KEY NOT NULL,
	"generation" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"vrp_count" integer DEFAULT 0 NOT NULL,
	"file_name" text,
	"imported_by" text,
	"cache" text,
	"session_id" integer,
	"serial" bigint,
	"protocol_version" smallint,
	"refresh_seconds" integer,
	"retry_seconds" integer,
	"expire_seconds" integer,
	"last_success_at" timestamp with time zone,
	"connected" boolean DEFAULT false NOT NULL,
	"last_error_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "rpki_sources_source_check" CHECK ("rpki_sources"."source" IN ('file', 'rtr'))
);
--> statement-breakpoint
CREATE TABLE "rpki_vrps" (
	"source" text NOT NULL,
	"prefix" "cidr" NOT NULL,
	"max_length" smallint NOT NULL,
	"asn" bigint NOT NULL,
	"trust_anchor" text DEFAULT '' NOT NULL,
	CONSTRAINT "rpki_vrps_source_prefix_max_length_asn_trust_anchor_pk" PRIMARY KEY("source","prefix","max_length","asn","trust_anchor"),
	CONSTRAINT "rpki_vrps_source_check" CHECK ("rpki_vrps"."source" IN ('file', 'rtr')),
	CONSTRAINT "rpki_vrps_max_length_check" CHECK ("rpki_vrps"."max_length" >= masklen("rpki_vrps"."prefix") AND "rpki_vrps"."max_length" <= CASE WHEN family("rpki_vrps"."prefix") = 4 THEN 32 ELSE 128 END),
	CONSTRAINT "rpki_vrps_asn_check" CHECK ("rpki_vrps"."asn" BETWEEN 0 AND 4294967295)
);
