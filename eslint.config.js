// The linter holds the layering rules of docs/architecture.md §2 (which module may import which);
// formatting is prettier's job (.prettierrc.json), so no stylistic rule lives here.
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/** Database clients, drizzle and the schema: only app/server, app/features/**\/*.server.ts and db/ reach them. */
const DATABASE_MODULES = [
  {
    group: ["drizzle-orm", "drizzle-orm/*", "postgres", "@electric-sql/*", "@clickhouse/*", "chdb", "chdb/*"],
    message: "Routes hold no database code: call a service in app/server or app/features/<tool>/*.server.ts.",
  },
  { group: ["~db/*", "~db/**"], message: "Routes hold no database code: the schema is used by services, not routes." },
];

/** Direct use of a store handle (`db.select`, `tx.execute`, `services.pg.db.update`, `services.ch.client`). */
const DATABASE_CALLS = [
  { selector: "CallExpression[callee.object.name=/^(db|tx)$/]", message: "Routes hold no SQL: move this query into a service." },
  { selector: "CallExpression[callee.object.property.name='db']", message: "Routes hold no SQL: move this query into a service." },
  {
    selector: "MemberExpression[property.name='client'][object.property.name='ch']",
    message: "ClickHouse is read through the query door (app/server/clickhouse/query.server.ts), never the client.",
  },
];

/**
 * ClickHouse is reached through the query door only (names, limits, override, schemas): no client
 * handle, no client library. Types of the library stay importable.
 */
const CLICKHOUSE_DOOR_MESSAGE =
  "ClickHouse is reached through the query door: chQuery, chInsert, chCommand of app/server/clickhouse/query.server.ts.";
const CLICKHOUSE_DOOR = [
  { selector: "MemberExpression[property.name='client'][object.property.name='ch']", message: CLICKHOUSE_DOOR_MESSAGE },
  { selector: "ImportDeclaration[importKind='value'][source.value=/^(@clickhouse\\/|chdb)/]", message: CLICKHOUSE_DOOR_MESSAGE },
  { selector: "ImportExpression[source.value=/^(@clickhouse\\/|chdb)/]", message: CLICKHOUSE_DOOR_MESSAGE },
];

/** Dynamic imports obey the same rules as static ones. */
const DYNAMIC_DEMO_IMPORT = {
  selector: "ImportExpression[source.value=/^~db\\/demo/]",
  message: "The app does not import the demo generator: db/demo uses the app, not the other way round.",
};
const DYNAMIC_FEATURE_IMPORT = {
  selector: "ImportExpression[source.value=/features\\//]",
  message: "app/server is the kernel: it imports no feature (features register with it).",
};

/** Static imports of the demo generator: only the composition root hands it to the kernel. */
const DEMO_IMPORT = {
  group: ["~db/demo/*", "~db/demo/**"],
  message: "The app does not import the demo generator: db/demo uses the app; app/wiring.server.ts alone hands it to the kernel.",
};

/**
 * The folders of app/features that are not tools: services several tools share (the filter
 * language, the network inventory, routing, tags …), and the views of the screens that are not
 * tools. Every other folder is a tool: no tool imports another's internals, and no shared feature
 * imports a tool (shared code lives in app/lib, app/components or a shared feature). Read from
 * disk, so a new tool's folder is covered the day it appears.
 */
const SHARED_FEATURES = new Set([
  "shared",
  "filter",
  "inventory",
  "routing",
  "tags",
  "netcommand",
  "collector",
  "settings",
  "notifications",
  "help",
]);
const TOOLS = readdirSync(new URL("./app/features/", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !SHARED_FEATURES.has(entry.name))
  .map((entry) => entry.name);
/** Every way a module of app/features/<folder>/ (at any depth) names a module of the given tools. */
const toolImports = (tools) =>
  tools.flatMap((t) => [`~/features/${t}/*`, `~/features/${t}/**`, `../${t}/*`, `../../${t}/*`, `../../../${t}/*`, `../../../../${t}/*`]);

/**
 * The import rules of one folder of app/features: none of the `forbidden` tools (static or dynamic
 * import), no demo generator, and server modules for types only outside *.server files.
 */
function importRules(folder, forbidden, message) {
  if (!forbidden.length) return [];
  const noTool = { group: toolImports(forbidden), message };
  const noDemo = { group: ["~db/demo/*"], message: "The app does not import the demo generator." };
  const serverForTypesOnly = {
    group: ["**/*.server", "*.server"],
    allowTypeImports: true,
    message: "Client modules import server modules for types only.",
  };
  const dynamicTool = { selector: `ImportExpression[source.value=/features\\/(${forbidden.join("|")})\\//]`, message };
  return [
    {
      files: [`app/features/${folder}/**/*.{ts,tsx}`],
      ignores: [`app/features/${folder}/**/*.server.{ts,tsx}`],
      rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [noTool, serverForTypesOnly, noDemo] }] },
    },
    {
      files: [`app/features/${folder}/**/*.server.{ts,tsx}`],
      rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [noTool, noDemo] }] },
    },
    // Replaces the rule of app/features/** for these files, so it repeats what that one holds.
    {
      files: [`app/features/${folder}/**/*.{ts,tsx}`],
      rules: { "no-restricted-syntax": ["error", DYNAMIC_DEMO_IMPORT, ...CLICKHOUSE_DOOR, dynamicTool] },
    },
  ];
}

export default tseslint.config(
  { ignores: ["build/**", "node_modules/**", "test-results/**", "data/**", "public/**", "db/postgres/migrations/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      // The two classic hook rules; the compiler-oriented ones flag the deliberate setState of the hydration hook.
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // Input validation matches control characters on purpose (they are refused).
      "no-control-regex": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-empty-object-type": "off",
    },
  },
  {
    files: ["**/*.mjs", "**/*.js", "**/*.cjs"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        Headers: "readonly",
        Buffer: "readonly",
        module: "writable",
        require: "readonly",
        __dirname: "readonly",
      },
    },
  },
  // Browser-reachable modules (everything in app/ that is not *.server, except route modules, whose
  // loaders and actions Remix strips from the client bundle) import server modules for types only.
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/**/*.server.{ts,tsx}", "app/routes/**", "app/root.tsx", "app/entry.server.tsx"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["**/*.server", "*.server"], allowTypeImports: true, message: "Client modules import server modules for types only." },
            {
              group: ["~db/demo/*"],
              message: "The app does not import the demo generator: db/demo uses the app, not the other way round.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["app/routes/**/*.{ts,tsx}", "app/root.tsx"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [...DATABASE_MODULES, { group: ["~db/demo/*"], message: "The app does not import the demo generator." }] },
      ],
      "no-restricted-syntax": ["error", ...DATABASE_CALLS, DYNAMIC_DEMO_IMPORT],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/routes/**", "app/root.tsx"],
    rules: { "no-restricted-syntax": ["error", DYNAMIC_DEMO_IMPORT] },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/wiring.server.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [DEMO_IMPORT] }] },
  },
  {
    files: ["app/features/**/*.{ts,tsx}"],
    rules: { "no-restricted-syntax": ["error", DYNAMIC_DEMO_IMPORT, ...CLICKHOUSE_DOOR] },
  },
  {
    files: ["db/demo/**/*.ts", "scripts/**/*.{ts,mjs}", "bench/**/*.ts"],
    rules: { "no-restricted-syntax": ["error", ...CLICKHOUSE_DOOR] },
  },
  {
    files: ["app/server/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            DEMO_IMPORT,
            {
              group: ["~/wiring.server", "../wiring.server", "../../wiring.server"],
              message: "app/server is the kernel: the composition root (app/wiring.server.ts) uses it, not the other way round.",
            },
          ],
        },
      ],
      "no-restricted-syntax": ["error", DYNAMIC_DEMO_IMPORT, DYNAMIC_FEATURE_IMPORT, ...CLICKHOUSE_DOOR],
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/features/*", "~/features/**", "../features/*", "../../features/*"],
              message: "app/server is the kernel: it imports no feature (features register with it).",
            },
            {
              group: ["~db/demo/*"],
              message: "The app does not import the demo generator: db/demo uses the app, not the other way round.",
            },
          ],
        },
      ],
    },
  },
  {
    // The two modules that own the client: the connection opener and the door itself.
    files: ["app/server/clickhouse.server.ts", "app/server/clickhouse/**/*.ts"],
    rules: { "no-restricted-syntax": ["error", DYNAMIC_DEMO_IMPORT, DYNAMIC_FEATURE_IMPORT] },
  },
  ...TOOLS.flatMap((tool) =>
    importRules(
      tool,
      TOOLS.filter((t) => t !== tool),
      "A tool does not import another tool's internals: move shared code to app/lib, app/components or a shared feature.",
    ),
  ),
  ...[...SHARED_FEATURES].flatMap((shared) =>
    importRules(
      shared,
      TOOLS,
      `A shared feature imports no tool (${TOOLS.join(", ")}): move what both need into a shared feature, app/lib or app/components.`,
    ),
  ),
  prettier,
);
