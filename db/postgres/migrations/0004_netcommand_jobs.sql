CREATE TABLE "netcommand_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"query_type" text NOT NULL,
	"vantage_point" text NOT NULL,
	"target_address" text NOT NULL,
	"state" text DEFAULT 'PENDING' NOT NULL,
	"result" text DEFAULT '' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"owner_user_id" integer,
	"owner_visitor" text,
	"client_address" text NOT NULL,
	"worker_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"not_before" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "netcommand_jobs" ADD CONSTRAINT "netcommand_jobs_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "netcommand_jobs_state_idx" ON "netcommand_jobs" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "netcommand_jobs_owner_idx" ON "netcommand_jobs" USING btree ("owner_user_id","created_at");--> statement-breakpoint
CREATE INDEX "netcommand_jobs_address_idx" ON "netcommand_jobs" USING btree ("client_address","created_at");