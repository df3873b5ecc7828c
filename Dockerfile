# apptwin serve in a container: one stateless replica of a bundle's twin.
#
#   docker build -t apptwin .
#   docker run --rm -p 4310:4310 -v "$PWD/items-bundle:/bundle:ro" apptwin                 # bundle mounted
#   docker run --rm -p 4310:4310 -v "$PWD/items-bundle:/bundle:ro" apptwin \
#     serve /bundle --host 0.0.0.0 --allow-remote --store redis://redis:6379/0             # a replica on Redis
#
# To bake a bundle in instead, build docs/deploy/bundle.Dockerfile on top of this image.
# The image's command serves /bundle on 0.0.0.0:4310 (the twin has no auth: keep it on a private network).
# See docs/deploy/README.md (nginx, Kubernetes).

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY bin bin
COPY scripts scripts
COPY schemas schemas
COPY src src
# npm ci runs the package's prepare script: tsc into dist/ and the command manifest.
RUN npm ci --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# Runtime dependencies only; serve never starts a browser, so none is installed.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/bin bin
COPY --from=build /app/dist dist
COPY --from=build /app/oclif.manifest.json oclif.manifest.json
COPY --from=build /app/schemas schemas
USER node
EXPOSE 4310
ENTRYPOINT ["node", "/app/bin/run.js"]
CMD ["serve", "/bundle", "--host", "0.0.0.0", "--allow-remote", "--port", "4310"]
