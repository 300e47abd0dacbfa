FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages ./packages
COPY bin ./bin
RUN npm ci --no-audit --no-fund
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 DATA_DIR=/data
VOLUME /data
EXPOSE 8080
CMD ["npm", "start"]
