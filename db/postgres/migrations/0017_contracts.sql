CREATE TABLE "contract_interfaces" (
	"contract_id" integer NOT NULL,
	"interface_id" integer NOT NULL,
	CONSTRAINT "contract_interfaces_contract_id_interface_id_pk" PRIMARY KEY("contract_id","interface_id"),
	CONSTRAINT "contract_interfaces_interface_id_unique" UNIQUE("interface_id")
);
--> statement-breakpoint
CREATE TABLE "contracts" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"direction" text NOT NULL,
	"partner_asn" bigint,
	"method" text NOT NULL,
	"billed_direction" text DEFAULT 'max' NOT NULL,
	"group_mode" text DEFAULT 'aggregate' NOT NULL,
	"commit_mbps" numeric(14, 3) DEFAULT 0 NOT NULL,
	"commit_price_eur" numeric(14, 4) DEFAULT 0 NOT NULL,
	"burst_price_eur" numeric(14, 4) DEFAULT 0 NOT NULL,
	"flat_price_eur" numeric(14, 2) DEFAULT 0 NOT NULL,
	"port_fee_eur" numeric(14, 2) DEFAULT 0 NOT NULL,
	"cross_connect_fee_eur" numeric(14, 2) DEFAULT 0 NOT NULL,
	"minimum_fee_eur" numeric(14, 2) DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contracts_name_unique" UNIQUE("name"),
	CONSTRAINT "contracts_valid_dates_ck" CHECK ("contracts"."valid_to" IS NULL OR "contracts"."valid_to" >= "contracts"."valid_from")
);
--> statement-breakpoint
ALTER TABLE "contract_interfaces" ADD CONSTRAINT "contract_interfaces_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_interfaces" ADD CONSTRAINT "contract_interfaces_interface_id_interfaces_id_fk" FOREIGN KEY ("interface_id") REFERENCES "public"."interfaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contracts_partner_idx" ON "contracts" USING btree ("partner_asn");