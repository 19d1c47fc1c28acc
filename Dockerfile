# Minimal image (a later issue completes it: non-root user, healthcheck, smaller runtime).
# The builder uses the Swift toolchain mounted at /opt/swift. Where no registry or GitHub is reachable (our CI),
# use a local base image and a local mirror of the Swift packages:
#   podman build --pull=never --network host -v /opt/swift:/opt/swift:ro \
#       -v /opt/swift-packages:/opt/swift-packages:ro --build-arg GIT_MIRROR=/opt/swift-packages/ -t prelude .
ARG BASE=debian:bookworm-slim

FROM ${BASE} AS build
RUN apt-get update && apt-get install -y --no-install-recommends \
        binutils binutils-gold gcc libc6-dev libstdc++-12-dev libgcc-12-dev libsqlite3-dev zlib1g-dev \
        libcurl4 libxml2 libedit2 libncurses6 libpython3.11 libz3-4 tzdata git ca-certificates \
    && rm -rf /var/lib/apt/lists/*
ARG GIT_MIRROR=""
RUN if [ -n "$GIT_MIRROR" ]; then git config --global url."$GIT_MIRROR".insteadOf https://github.com/; fi
WORKDIR /src
COPY . .
RUN /opt/swift/usr/bin/swift build -c release --static-swift-stdlib --product prelude \
    && install -D "$(/opt/swift/usr/bin/swift build -c release --show-bin-path)/prelude" /out/bin/prelude

FROM ${BASE}
RUN apt-get update && apt-get install -y --no-install-recommends libsqlite3-0 zlib1g \
    && rm -rf /var/lib/apt/lists/* && mkdir -p /data
COPY --from=build /out/bin/prelude /app/bin/prelude
# Found by the resource search: /app/bin/prelude looks in /app/migrations and /app/config.
COPY migrations /app/migrations
COPY config /app/config
WORKDIR /app
ENV PRELUDE_HOST=0.0.0.0 PRELUDE_PORT=8080 PRELUDE_DATABASE=/data/prelude.sqlite
EXPOSE 8080
STOPSIGNAL SIGTERM
ENTRYPOINT ["/app/bin/prelude"]
CMD ["serve"]
