CREATE TABLE "alert_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"rule_id" integer NOT NULL,
	"from_status" text NOT NULL,
	"to_status" text NOT NULL,
	"bucket_start" bigint NOT NULL,
	"at" bigint NOT NULL,
	"value" double precision,
	"limit" double precision,
	"notified" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"name" text NOT NULL,
	"view" jsonb NOT NULL,
	"metric" text NOT NULL,
	"condition_kind" text NOT NULL,
	"threshold" double precision,
	"band_factor" double precision,
	"min_duration_seconds" integer DEFAULT 0 NOT NULL,
	"hysteresis" double precision DEFAULT 0 NOT NULL,
	"severity" text DEFAULT 'warning' NOT NULL,
	"recipients" jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_state" (
	"rule_id" integer PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'OK' NOT NULL,
	"since" bigint,
	"last_bucket" bigint,
	"breach_since" bigint,
	"crossing_value" double precision,
	"triggered_at" bigint,
	"resolved_at" bigint,
	"acknowledged_at" bigint,
	"acknowledged_by" text,
	"silenced_until" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_state" ADD CONSTRAINT "alert_state_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_events_once_uq" ON "alert_events" USING btree ("rule_id","bucket_start","to_status");--> statement-breakpoint
CREATE INDEX "alert_events_rule_at_idx" ON "alert_events" USING btree ("rule_id","at");--> statement-breakpoint
CREATE INDEX "alert_rules_owner_idx" ON "alert_rules" USING btree ("owner_id");