CREATE TABLE "router_exporters" (
	"address" text PRIMARY KEY NOT NULL,
	"router_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "interfaces" ADD COLUMN "vrf" text;--> statement-breakpoint
ALTER TABLE "routers" ADD COLUMN "snmp_version" text;--> statement-breakpoint
ALTER TABLE "routers" ADD COLUMN "snmp_port" integer DEFAULT 161 NOT NULL;--> statement-breakpoint
ALTER TABLE "routers" ADD COLUMN "snmp_community_enc" text;--> statement-breakpoint
ALTER TABLE "routers" ADD COLUMN "snmp_v3_user" text;--> statement-breakpoint
ALTER TABLE "routers" ADD COLUMN "snmp_v3_auth_protocol" text;--> statement-breakpoint
ALTER TABLE "routers" ADD COLUMN "snmp_v3_auth_password_enc" text;--> statement-breakpoint
ALTER TABLE "routers" ADD COLUMN "snmp_v3_priv_protocol" text;--> statement-breakpoint
ALTER TABLE "routers" ADD COLUMN "snmp_v3_priv_password_enc" text;--> statement-breakpoint
ALTER TABLE "routers" ADD COLUMN "ssh_host" text;--> statement-breakpoint
ALTER TABLE "routers" ADD COLUMN "ssh_port" integer DEFAULT 22 NOT NULL;--> statement-breakpoint
ALTER TABLE "routers" ADD COLUMN "ssh_user" text;--> statement-breakpoint
ALTER TABLE "routers" ADD COLUMN "ssh_private_key_enc" text;--> statement-breakpoint
ALTER TABLE "routers" ADD COLUMN "ssh_password_enc" text;--> statement-breakpoint
ALTER TABLE "routers" ADD COLUMN "ssh_host_key" text;--> statement-breakpoint
ALTER TABLE "router_exporters" ADD CONSTRAINT "router_exporters_router_id_routers_id_fk" FOREIGN KEY ("router_id") REFERENCES "public"."routers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "router_exporters_router_idx" ON "router_exporters" USING btree ("router_id");--> statement-breakpoint
ALTER TABLE "interfaces" ADD CONSTRAINT "interfaces_remote_interface_id_interfaces_id_fk" FOREIGN KEY ("remote_interface_id") REFERENCES "public"."interfaces"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interfaces" ADD CONSTRAINT "interfaces_router_snmp_index_uq" UNIQUE("router_id","snmp_index");