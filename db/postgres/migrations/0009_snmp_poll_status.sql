CREATE TABLE "snmp_poll_status" (
	"router_id" integer PRIMARY KEY NOT NULL,
	"last_poll_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_error_at" timestamp with time zone,
	"last_error_kind" text,
	"last_error" text,
	"failures" integer DEFAULT 0 NOT NULL,
	"failure_told" boolean DEFAULT false NOT NULL,
	"interfaces_polled" integer DEFAULT 0 NOT NULL,
	"interfaces_missing" text[] DEFAULT '{}' NOT NULL,
	"capacity_changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"accounts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "snmp_poll_status" ADD CONSTRAINT "snmp_poll_status_router_id_routers_id_fk" FOREIGN KEY ("router_id") REFERENCES "public"."routers"("id") ON DELETE cascade ON UPDATE no action;