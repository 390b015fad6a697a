ALTER TABLE "site_settings" ADD COLUMN "imprint_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "privacy_policy_text" text DEFAULT '' NOT NULL;