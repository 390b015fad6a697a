CREATE TABLE "collector_exporters" (
	"address" text NOT NULL,
	"protocol" text NOT NULL,
	"listener" text DEFAULT '' NOT NULL,
	"first_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"datagrams" bigint DEFAULT 0 NOT NULL,
	"flows" bigint DEFAULT 0 NOT NULL,
	"flows_stored" bigint DEFAULT 0 NOT NULL,
	"template_misses" bigint DEFAULT 0 NOT NULL,
	"decode_errors" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"drops" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sampling_rates" integer[] DEFAULT '{}' NOT NULL,
	"unknown_if_indexes" integer[] DEFAULT '{}' NOT NULL,
	"clock_skew_ms" integer,
	"clock_skewed" boolean DEFAULT false NOT NULL,
	CONSTRAINT "collector_exporters_address_protocol_pk" PRIMARY KEY("address","protocol")
);
--> statement-breakpoint
CREATE TABLE "collector_listeners" (
	"component" text NOT NULL,
	"address" text NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collector_listeners_component_host_pid_pk" PRIMARY KEY("component","host","pid")
);
