# Prelude: multi-stage image. Users get the official images by default; CI passes local stand-ins:
#   podman build --build-arg BUILDER_IMAGE=localhost/prelude-ci/swift-builder \
#                --build-arg RUNTIME_IMAGE=localhost/prelude-ci/debian:bookworm-slim ...
# (scripts/container/build-and-smoke.sh; docs/container.md). There is no second Dockerfile.
ARG BUILDER_IMAGE=swift:6.3-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

# ---------------------------------------------------------------------------------------------------------------
FROM ${BUILDER_IMAGE} AS build

# Unpinned versions (DL3008): this stage is thrown away, and on a stable Debian release ("bookworm") the archive
# only ever moves to security/point-release versions of these packages, while exact pins would break the build
# the day the pinned version leaves the mirror.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-dev zlib1g-dev libpq-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# The manifest first, so the dependency checkout is cached until Package.swift changes.
COPY Package.swift ./
RUN swift package resolve
COPY . .
# --static-swift-stdlib: the runtime stage needs no Swift runtime, only libc, libstdc++, libsqlite3, libpq, zlib, libcurl
# (libcurl.so.4 is loaded with dlopen when the first outbound request is sent, so ldd does not list it).
# The binary is stripped of its symbol table (about 20% of its size); crash backtraces then show addresses only.
RUN swift build -c release --static-swift-stdlib --product prelude \
    && install -D -m 0755 "$(swift build -c release --static-swift-stdlib --show-bin-path)/prelude" /out/bin/prelude \
    && strip /out/bin/prelude \
    && mkdir -p /out/share/prelude \
    && cp -R migrations config openapi.yaml /out/share/prelude/

# ---------------------------------------------------------------------------------------------------------------
FROM ${RUNTIME_IMAGE}

# Only what the binary loads at run time (ldd: libsqlite3, libpq, libz, libstdc++, libgcc_s, libc; dlopen: libcurl.so.4)
# plus CA certificates (the outbound client verifies https peers against them).
# The package lists and apt's binary caches go in the same layer (the official images already skip the caches).
# Unpinned versions (DL3008): bookworm's archive only moves to security fixes of these packages; an exact pin
# would make the image unbuildable as soon as that fix lands, and would hold the fix back from the image.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-0 zlib1g libpq5 libcurl4 libstdc++6 ca-certificates \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
    && groupadd --system --gid 10001 prelude \
    && useradd --system --uid 10001 --gid prelude --home-dir /data --no-create-home --shell /usr/sbin/nologin prelude \
    && mkdir -p /data \
    && chown prelude:prelude /data

# /usr/local/bin/prelude finds its resources in /usr/local/share/prelude/{migrations,config}
# (ResourceLocator: executable directory's ancestors, each also under share/prelude/).
COPY --from=build /out/bin/prelude /usr/local/bin/prelude
COPY --from=build /out/share/prelude /usr/local/share/prelude

# Configuration comes from the environment (PRELUDE_*; see docs/configuration.md); these are the container defaults.
# No demo app in production: an empty PRELUDE_DEMO_POLICY disables seeding. Ask for it with
#   -e PRELUDE_DEMO_POLICY=config/demo-policy.json   (found under /usr/local/share/prelude/).
ENV PRELUDE_HOST=0.0.0.0 \
    PRELUDE_PORT=8080 \
    PRELUDE_DATABASE=/data/prelude.sqlite \
    PRELUDE_DEMO_POLICY=""

VOLUME ["/data"]
WORKDIR /data
# Numeric, so `runAsNonRoot` policies can verify it without reading /etc/passwd.
USER 10001:10001
EXPOSE 8080
# On SIGTERM the server drains (/readyz 503 for PRELUDE_DRAIN_SECONDS, default 5, while still serving), lets
# in-flight requests finish, closes the database and exits 0.
STOPSIGNAL SIGTERM
# The binary checks itself (GET /readyz on PRELUDE_HOST/PRELUDE_PORT, wildcard host → loopback); no curl needed.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 CMD ["prelude", "healthcheck", "--quiet"]
ENTRYPOINT ["prelude"]
CMD ["serve"]
