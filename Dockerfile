# storerecon as a container image (docs/deploy.md#container-image):
#
#   docker build -t storerecon:0.1.0 .
#   docker run --rm storerecon:0.1.0 demo                      # the embedded demo world, no server
#   docker run --rm -v /srv/storerecon:/var/lib/storerecon -e STORERECON_DATABASE_URL -e PGPASSWORD \
#     storerecon:0.1.0 run --config /var/lib/storerecon/storerecon.json --mail --quiet
#
# Two stages: the Swift toolchain builds the release binary with the Swift runtime and Foundation linked
# in statically (scripts/release-binary.sh, which also checks that ldd names nothing of the toolchain);
# the image itself is Debian slim with only the C runtime libraries (deploy/docker/runtime-packages.txt)
# and a non-root user. scripts/check-clean-debian.sh runs the same binary on a freshly bootstrapped
# Debian with the same packages, where no Docker engine is at hand.
ARG SWIFT_IMAGE=swift:6.3-bookworm
ARG DEBIAN_IMAGE=debian:bookworm-slim

FROM ${SWIFT_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends pkgconf zlib1g-dev libssl-dev libpq-dev libsqlite3-dev libxlsxwriter-dev libcurl4-openssl-dev librsvg2-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN scripts/release-binary.sh --out /out

FROM ${DEBIAN_IMAGE}
COPY deploy/docker/runtime-packages.txt /tmp/runtime-packages.txt
RUN apt-get update \
 && grep -v '^#' /tmp/runtime-packages.txt | xargs apt-get install -y --no-install-recommends \
 && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages.txt \
 && useradd --system --uid 10001 --user-group --home-dir /var/lib/storerecon --create-home --shell /usr/sbin/nologin storerecon
COPY --from=build /out/storerecon /usr/local/bin/storerecon
USER 10001:10001
WORKDIR /var/lib/storerecon
# Exports, config and reports live on a volume (the Kubernetes CronJob mounts its PVCs here).
VOLUME ["/var/lib/storerecon"]
ENTRYPOINT ["/usr/local/bin/storerecon"]
CMD ["--help"]
