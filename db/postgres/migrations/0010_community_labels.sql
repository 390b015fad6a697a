CREATE TABLE "community_labels" (
	"id" serial PRIMARY KEY NOT NULL,
	"pattern" text NOT NULL,
	"label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "community_labels_pattern_unique" UNIQUE("pattern")
);
