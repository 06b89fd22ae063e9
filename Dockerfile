# One image for both roles: the gateway (default) and the worker (`command` in docker-compose.yml).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY server/package.json server/
COPY worker/package.json worker/
COPY client/package.json client/
RUN npm ci --include=dev && npm cache clean --force
COPY . .
RUN npm run build
EXPOSE 8080
USER node
CMD ["node", "--import", "tsx", "server/src/main.ts"]
