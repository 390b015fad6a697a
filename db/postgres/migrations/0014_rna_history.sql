CREATE TABLE "rna_query_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"query" jsonb NOT NULL,
	"row_count" bigint NOT NULL,
	"row_count_exact" boolean DEFAULT true NOT NULL,
	"duration_ms" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rna_query_history" ADD CONSTRAINT "rna_query_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rna_query_history_user_idx" ON "rna_query_history" USING btree ("user_id","id");