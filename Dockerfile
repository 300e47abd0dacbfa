# syntax=docker/dockerfile:1
# Three stages: production dependencies, the TypeScript loader, and a small runtime that runs node itself as PID 1
# (not `npm start`, which does not pass SIGTERM on, so a stop would cut streams instead of draining them).

# 1. production dependencies only (the workspaces' package.json files are needed to link @gateway/*)
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages ./packages
RUN npm ci --omit=dev --no-audit --no-fund

# 2. tsx, the loader that runs the TypeScript sources (a devDependency in the repository), at the locked version
FROM node:22-bookworm-slim AS loader
WORKDIR /loader
RUN npm install --no-audit --no-fund --no-package-lock tsx@4.23.15

# 3. runtime
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 DATA_DIR=/data LOG_FORMAT=json
WORKDIR /app
COPY --from=deps /app ./
COPY --from=loader /loader/node_modules/ ./node_modules/
COPY bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
# /readyz, not /healthz: an instance whose database or DATA_DIR is gone must leave the rotation
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--import", "tsx", "packages/server/src/main.ts"]
