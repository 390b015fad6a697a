CREATE TABLE "bill_months" (
	"year" integer NOT NULL,
	"month" integer NOT NULL,
	"closed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"recomputed_at" timestamp with time zone,
	"recomputed_by" text,
	CONSTRAINT "bill_months_year_month_pk" PRIMARY KEY("year","month"),
	CONSTRAINT "bill_months_month_ck" CHECK ("bill_months"."month" BETWEEN 1 AND 12)
);
--> statement-breakpoint
CREATE TABLE "bill_snapshots" (
	"year" integer NOT NULL,
	"month" integer NOT NULL,
	"contract_id" integer NOT NULL,
	"contract_name" text NOT NULL,
	"direction" text NOT NULL,
	"total_eur" numeric(16, 2) NOT NULL,
	"terms" jsonb NOT NULL,
	"bill" jsonb NOT NULL,
	CONSTRAINT "bill_snapshots_year_month_contract_id_pk" PRIMARY KEY("year","month","contract_id")
);
