CREATE TABLE "bmp_router_status" (
	"router_id" integer PRIMARY KEY NOT NULL,
	"vantage_point" text NOT NULL,
	"address" text NOT NULL,
	"station" text DEFAULT '' NOT NULL,
	"state" text NOT NULL,
	"sys_name" text DEFAULT '' NOT NULL,
	"sys_descr" text DEFAULT '' NOT NULL,
	"sessions" integer DEFAULT 0 NOT NULL,
	"session_started_at" timestamp with time zone NOT NULL,
	"session_closed_at" timestamp with time zone,
	"close_reason" text,
	"routes_withdrawn" boolean DEFAULT false NOT NULL,
	"peers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"messages" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"decode_errors" bigint DEFAULT 0 NOT NULL,
	"skipped" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"routes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"peer_routes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"routes_counted_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bmp_unknown_sources" (
	"address" text PRIMARY KEY NOT NULL,
	"first_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bmp_router_status" ADD CONSTRAINT "bmp_router_status_router_id_routers_id_fk" FOREIGN KEY ("router_id") REFERENCES "public"."routers"("id") ON DELETE cascade ON UPDATE no action;