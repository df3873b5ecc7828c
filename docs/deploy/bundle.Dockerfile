# A twin image with its bundle baked in (no volume to mount), built on the apptwin image:
#
#   docker build -t apptwin .                                          # the base image (repository root)
#   docker build -t items-twin -f docs/deploy/bundle.Dockerfile \
#     --build-arg BUNDLE=items-bundle .                                # BUNDLE: the bundle directory in the context
#   docker run --rm -p 4310:4310 items-twin
ARG BASE=apptwin
FROM ${BASE}
ARG BUNDLE=items-bundle
COPY --chown=node:node ${BUNDLE} /bundle
