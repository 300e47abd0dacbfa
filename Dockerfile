# syntax=docker/dockerfile:1
# Three stages: production dependencies, the bundled server, and a small runtime that runs node itself as PID 1
# (not `npm start`, which does not pass SIGTERM on, so a stop would cut streams instead of draining them).

# 1. production dependencies only (the workspaces' package.json files are needed to link @gateway/*)
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages ./packages
RUN npm ci --omit=dev --no-audit --no-fund

# 2. the server bundled into plain JavaScript (scripts/build-server.cjs). esbuild alone is installed: npm packages
#    stay ordinary requires (stage 1 has them) and @gateway/* resolve through tsconfig.json's paths.
FROM node:22-bookworm-slim AS build
WORKDIR /build
RUN npm install --no-audit --no-fund --no-package-lock esbuild@0.28.2
COPY tsconfig.json ./
COPY packages ./packages
COPY scripts/build-server.cjs ./scripts/
RUN node scripts/build-server.cjs --server-only

# 3. runtime
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 DATA_DIR=/data LOG_FORMAT=json
WORKDIR /app
COPY --from=deps /app ./
COPY --from=build /build/packages/server/dist ./packages/server/dist
COPY bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
# /readyz, not /healthz: an instance whose database or DATA_DIR is gone must leave the rotation
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--max-semi-space-size=4", "packages/server/dist/main.js"]
