# One image for both roles: the gateway (the default CMD) and the worker (`command` in
# docker-compose.yml: node --import tsx worker/src/main.ts). Both run their TypeScript through
# tsx, a runtime dependency of server and worker. Settings and provider keys come from the
# environment when a container starts; the image holds none (see .dockerignore). No HEALTHCHECK:
# docker-compose.yml checks each role in its own way.

# Build: every dependency, dev ones included, to build the client bundle.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY ratings/package.json ratings/
COPY platform/package.json platform/
COPY server/package.json server/
COPY worker/package.json worker/
COPY client/package.json client/
RUN npm ci --include=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY contracts/ contracts/
COPY client/ client/
RUN npm run build

# Runtime: production dependencies and only the files that run.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
# glibc gives each thread its own malloc arena, and libvips's threads (image cleaning) fragment
# them: two arenas keep a gateway's memory from creeping up with every upload (sharp's advice).
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
# The letters of the shared battles' preview images (SHARE_FONT_FILES): Korean and Latin.
RUN apt-get update && apt-get install -y --no-install-recommends fonts-nanum && rm -rf /var/lib/apt/lists/*
# npm ci needs every workspace's package.json; the client's installs nothing without dev ones.
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY ratings/package.json ratings/
COPY platform/package.json platform/
COPY server/package.json server/
COPY worker/package.json worker/
COPY client/package.json client/
# TypeScript comes in only as an optional peer of the queue board's validator (valibot), which
# npm installs anyway; nothing at run time loads it (tsx compiles with esbuild).
RUN npm ci --omit=dev --no-audit --no-fund && rm -rf node_modules/typescript && npm cache clean --force
# tsx compiles with the same compiler options as development and the tests.
COPY tsconfig.json ./
COPY contracts/ contracts/
COPY ratings/ ratings/
COPY platform/ platform/
COPY server/ server/
COPY worker/ worker/
# Operators' commands: npm run takedown -- <battleId> [--restore]; npm run clean-images
COPY scripts/takedown.ts scripts/clean-images.ts scripts/
COPY --from=build /app/client/dist client/dist
# The code stays owned by root: the app cannot rewrite itself.
USER node
EXPOSE 8080
CMD ["node", "--import", "tsx", "server/src/main.ts"]
