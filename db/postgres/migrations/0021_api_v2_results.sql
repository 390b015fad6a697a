CREATE TABLE "api_v2_results" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"call" text NOT NULL,
	"user_id" integer,
	"state" text DEFAULT 'Started' NOT NULL,
	"result" jsonb,
	"resolvable" boolean,
	"detail" text,
	"size_bytes" integer DEFAULT 0 NOT NULL,
	"owner" text NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"asked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "api_v2_results_key_unique" UNIQUE("key")
);
--> statement-breakpoint
ALTER TABLE "api_v2_results" ADD CONSTRAINT "api_v2_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_v2_results_user_state_idx" ON "api_v2_results" USING btree ("user_id","state");--> statement-breakpoint
CREATE INDEX "api_v2_results_expires_idx" ON "api_v2_results" USING btree ("expires_at");