# flowlens image: Remix app served by server.mjs (Express), with embedded stores (PGlite, chDB) in /data by
# default, or PostgreSQL/ClickHouse servers via DATABASE_URL / CLICKHOUSE_URL (docs/operations.md).
# The lockfile carries chDB's linux-x64-gnu package: build with --platform linux/amd64.

ARG NODE_IMAGE=node:20-bookworm-slim

# --- all dependencies, for the build ---------------------------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# npm install, not npm ci: the lockfile lacks other platforms' optional packages (chDB, rollup),
# which makes npm ci refuse it; npm install respects the lockfile as it is.
RUN npm install --no-audit --no-fund

# --- build -------------------------------------------------------------------------------------------
FROM deps AS build
COPY . .
RUN NODE_ENV=production npm run build

# --- production dependencies only ----------------------------------------------------------------------
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund

# --- runtime -----------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app

# bzip2: MRT dumps (.bz2) decompress in Debian's program beside the import, much faster than the
# JavaScript decoder it falls back to (docs/routing-import.md).
RUN apt-get update \
 && apt-get install -y --no-install-recommends bzip2 \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 flowlens \
 && useradd --system --uid 10001 --gid 10001 --home-dir /home/flowlens --create-home --shell /usr/sbin/nologin flowlens \
 && mkdir -p /data \
 && chown 10001:10001 /data

COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json package-lock.json ./
COPY --from=build /app/build ./build
COPY public ./public
COPY server.mjs ./
# Read at run time from the working directory: db/postgres/migrations and db/clickhouse.
# (The demo loader is bundled into build/server.)
COPY db ./db

USER 10001:10001
VOLUME ["/data"]
EXPOSE 3000

# The port opens only after the stores are migrated (and, on a first start, the demo is loaded).
HEALTHCHECK --interval=30s --timeout=10s --start-period=10m --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

CMD ["node", "server.mjs", "build/server/index.js"]
