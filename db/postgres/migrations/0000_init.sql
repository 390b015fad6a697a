CREATE TABLE "delegation_restrictions" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"flows_views_restrictions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"external_links_views_restrictions" jsonb DEFAULT '{"ASNumberList":[],"routerList":[],"interfaceList":[]}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feature_flags" (
	"name" text PRIMARY KEY NOT NULL,
	"enabled_for_all" boolean DEFAULT false NOT NULL,
	"description" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "group_permissions" (
	"group_id" integer NOT NULL,
	"permission" text NOT NULL,
	CONSTRAINT "group_permissions_group_id_permission_pk" PRIMARY KEY("group_id","permission")
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "groups_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "permissions" (
	"code" text PRIMARY KEY NOT NULL,
	"description" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"state" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"client_address" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "site_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"mandatory_2fa" boolean DEFAULT false NOT NULL,
	"welcome_page_enabled" boolean DEFAULT false NOT NULL,
	"clickhouse_db_version" text DEFAULT '' NOT NULL,
	"default_style_id" integer,
	"autocomplete_min_lengths" jsonb DEFAULT '{"primary_as":1,"secondary_as":1,"application":2,"infrastructure":2}'::jsonb NOT NULL,
	"as_name_of_deployment" text DEFAULT '' NOT NULL,
	"enable_user_self_signup" boolean DEFAULT false NOT NULL,
	"rna_default_query" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"public_looking_glass_enabled" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "styles" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"owner_user_id" integer,
	"branded_footer" boolean DEFAULT false NOT NULL,
	"color_primary" text DEFAULT '#137cbd' NOT NULL,
	"color_secondary" text DEFAULT '#5c7080' NOT NULL,
	"color_tertiary" text DEFAULT '#394b59' NOT NULL,
	"company_name" text DEFAULT 'flowlens' NOT NULL,
	"company_logo" text,
	"font" text DEFAULT 'default' NOT NULL,
	"footer_links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "system_state" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_feature_flags" (
	"user_id" integer NOT NULL,
	"flag" text NOT NULL,
	CONSTRAINT "user_feature_flags_user_id_flag_pk" PRIMARY KEY("user_id","flag")
);
--> statement-breakpoint
CREATE TABLE "user_groups" (
	"user_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	CONSTRAINT "user_groups_user_id_group_id_pk" PRIMARY KEY("user_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "user_permissions" (
	"user_id" integer NOT NULL,
	"permission" text NOT NULL,
	CONSTRAINT "user_permissions_user_id_permission_pk" PRIMARY KEY("user_id","permission")
);
--> statement-breakpoint
CREATE TABLE "user_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"enable_2fa" boolean DEFAULT false NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"csv_delimiter" text DEFAULT ',' NOT NULL,
	"timeseries_util_threshold_medium" double precision DEFAULT 0.5 NOT NULL,
	"timeseries_util_threshold_high" double precision DEFAULT 0.85 NOT NULL,
	"intlinks_util_threshold_medium" double precision DEFAULT 0.75 NOT NULL,
	"intlinks_util_threshold_high" double precision DEFAULT 0.95 NOT NULL,
	"extlinks_util_threshold_medium" double precision DEFAULT 0.75 NOT NULL,
	"extlinks_util_threshold_high" double precision DEFAULT 0.95 NOT NULL,
	"extlinks_buildout_threshold" integer DEFAULT 90 NOT NULL,
	"extlinks_buildout_type" text DEFAULT 'DAYS' NOT NULL,
	"intlinks_buildout_threshold" integer DEFAULT 90 NOT NULL,
	"intlinks_buildout_type" text DEFAULT 'DAYS' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"password_hash" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_staff" boolean DEFAULT false NOT NULL,
	"is_superuser" boolean DEFAULT false NOT NULL,
	"is_delegated" boolean DEFAULT false NOT NULL,
	"delegated_by_id" integer,
	"has_consented" boolean DEFAULT false NOT NULL,
	"consented_at" timestamp with time zone,
	"can_change_own_group" boolean DEFAULT false NOT NULL,
	"custom_style_id" integer,
	"override_clickhouse_db" text,
	"override_clickhouse_raw_flow_db" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "as_info" (
	"asn" bigint PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"category" text DEFAULT 'other' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "as_service_mappings" (
	"id" serial PRIMARY KEY NOT NULL,
	"asn" bigint NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "as_service_mappings_uq" UNIQUE("asn","kind")
);
--> statement-breakpoint
CREATE TABLE "interfaces" (
	"id" serial PRIMARY KEY NOT NULL,
	"router_id" integer NOT NULL,
	"name" text NOT NULL,
	"snmp_index" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"capacity_bps" bigint NOT NULL,
	"kind" text NOT NULL,
	"peering_type" text,
	"connection" text,
	"neighbor_asn" bigint,
	"remote_interface_id" integer,
	CONSTRAINT "interfaces_router_name_uq" UNIQUE("router_id","name")
);
--> statement-breakpoint
CREATE TABLE "mappings" (
	"id" serial PRIMARY KEY NOT NULL,
	"model" text NOT NULL,
	"object_id" text NOT NULL,
	"layer" integer NOT NULL,
	"owner_user_id" integer,
	"name" text,
	"color" text,
	CONSTRAINT "mappings_object_layer_uq" UNIQUE NULLS NOT DISTINCT("model","object_id","layer","owner_user_id")
);
--> statement-breakpoint
CREATE TABLE "routers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"city" text NOT NULL,
	"country" text NOT NULL,
	"loopback" text NOT NULL,
	"vendor" text DEFAULT '' NOT NULL,
	"role" text DEFAULT 'edge' NOT NULL,
	CONSTRAINT "routers_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "vantage_points" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"city" text NOT NULL,
	"country" text NOT NULL,
	"router" text NOT NULL,
	"legacy_description" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"ip" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	CONSTRAINT "vantage_points_key_unique" UNIQUE("key")
);
--> statement-breakpoint
ALTER TABLE "delegation_restrictions" ADD CONSTRAINT "delegation_restrictions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_permissions" ADD CONSTRAINT "group_permissions_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_permissions" ADD CONSTRAINT "group_permissions_permission_permissions_code_fk" FOREIGN KEY ("permission") REFERENCES "public"."permissions"("code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_settings" ADD CONSTRAINT "site_settings_default_style_id_styles_id_fk" FOREIGN KEY ("default_style_id") REFERENCES "public"."styles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_feature_flags" ADD CONSTRAINT "user_feature_flags_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_feature_flags" ADD CONSTRAINT "user_feature_flags_flag_feature_flags_name_fk" FOREIGN KEY ("flag") REFERENCES "public"."feature_flags"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_groups" ADD CONSTRAINT "user_groups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_groups" ADD CONSTRAINT "user_groups_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_permissions" ADD CONSTRAINT "user_permissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_permissions" ADD CONSTRAINT "user_permissions_permission_permissions_code_fk" FOREIGN KEY ("permission") REFERENCES "public"."permissions"("code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_custom_style_id_styles_id_fk" FOREIGN KEY ("custom_style_id") REFERENCES "public"."styles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interfaces" ADD CONSTRAINT "interfaces_router_id_routers_id_fk" FOREIGN KEY ("router_id") REFERENCES "public"."routers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "interfaces_neighbor_idx" ON "interfaces" USING btree ("neighbor_asn");