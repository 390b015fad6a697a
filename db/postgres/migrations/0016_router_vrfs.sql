CREATE TABLE "router_vrfs" (
	"id" serial PRIMARY KEY NOT NULL,
	"router_id" integer NOT NULL,
	"name" text NOT NULL,
	"route_distinguisher" text NOT NULL,
	CONSTRAINT "router_vrfs_router_name_uq" UNIQUE("router_id","name"),
	CONSTRAINT "router_vrfs_router_rd_uq" UNIQUE("router_id","route_distinguisher")
);
--> statement-breakpoint
ALTER TABLE "router_vrfs" ADD CONSTRAINT "router_vrfs_router_id_routers_id_fk" FOREIGN KEY ("router_id") REFERENCES "public"."routers"("id") ON DELETE cascade ON UPDATE no action;