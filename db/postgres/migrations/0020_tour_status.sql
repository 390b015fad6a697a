CREATE TABLE "tour_status" (
	"user_id" integer NOT NULL,
	"tour_id" text NOT NULL,
	"status" text NOT NULL,
	"step" integer DEFAULT 0 NOT NULL,
	"failed_anchor" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tour_status_user_id_tour_id_pk" PRIMARY KEY("user_id","tour_id"),
	CONSTRAINT "tour_status_status_check" CHECK ("tour_status"."status" IN ('Started', 'Finished', 'Failed')),
	CONSTRAINT "tour_status_step_check" CHECK ("tour_status"."step" >= 0)
);
--> statement-breakpoint
ALTER TABLE "tour_status" ADD CONSTRAINT "tour_status_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;