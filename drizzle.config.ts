import { defineConfig } from "drizzle-kit";

// Generates db/postgres/migrations from the schema; the app applies them itself at start-up
// (PGlite and PostgreSQL run the same files), so no credentials are needed here.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/postgres/schema/index.ts",
  out: "./db/postgres/migrations",
});
