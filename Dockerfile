# syntax=docker/dockerfile:1
# The CRM in one image: the Express server with the Remix app and the /v1 API. Without
# DATABASE_URL it runs an embedded PostgreSQL with its data under /data/postgres.
#
#   docker build -t crm .
#   docker run -p 3000:3000 -e SESSION_SECRET=$(openssl rand -hex 32) -e ENCRYPTION_KEY=$(openssl rand -hex 32) -v crm-data:/data crm

ARG NODE_IMAGE=node:22-bookworm-slim

# ---- deps: every dependency, for the build --------------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
# patches/: patch-package applies them after the install (postinstall).
COPY package.json package-lock.json ./
COPY patches ./patches
# npm 11 runs only the install scripts listed under "allowScripts" in package.json (esbuild and
# the embedded PostgreSQL binaries); npm 10, which the image may ship, runs them all.
RUN npm ci --no-audit --no-fund

# ---- build: client assets, the Remix server build and build/server.js -------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY . .
ENV NODE_ENV=production
RUN npm run build

# ---- runtime: production dependencies and the build only -------------------------------------
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
# REQUIRE_SECRETS: a container must be given SESSION_SECRET and ENCRYPTION_KEY (replicas share them); a missing one stops
# the container with a one-line message instead of generating one into the volume.
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data REQUIRE_SECRETS=true
COPY package.json package-lock.json ./
COPY patches ./patches
# Installed as root and left owned by root: the app (running as `node`) cannot rewrite its code.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/build ./build
# PostgreSQL refuses to run as root, so the embedded database needs a non-root user: the image's
# `node` user (uid 1000) owns /data and runs the server.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# The slim image has no curl: Node asks /healthz itself.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
	CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "build/server.js"]
