#!/usr/bin/env bash
# Builds the image from the repository's Dockerfile with local stand-in base images (no registry is reachable
# on CI machines), runs it on the host network bound to loopback, waits for /readyz, runs scripts/smoke.sh
# against it, checks the health check, restarts on the same volume, stops with SIGTERM, and removes everything
# it created. When the container engine cannot start at all, it runs the release binary in a debootstrapped
# root filesystem holding only the runtime packages instead, and says so loudly.
#
# Usage: scripts/container/build-and-smoke.sh            (as root; .ci/run calls it)
#
# Environment (all optional):
#   PRELUDE_CI_DIR             work and cache directory            [/tmp/prelude-ci]
#   PRELUDE_CI_KEEP_BASE=1     keep the two stand-in base images between runs (faster re-runs)
#   PRELUDE_CI_FALLBACK=1      skip the engine and exercise the chroot fallback
#   PRELUDE_CI_READY_TARGET_MS start-to-ready budget in ms; exceeding it fails the run  [1000]
#   PRELUDE_CI_TIMINGS         file to which "name value" timing lines are appended
#   DEBIAN_MIRROR              mirror for debootstrap              [from /etc/apt/sources.list.d/debian.sources]
#
# See docs/container.md for what each step checks and the timings measured.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ci=${PRELUDE_CI_DIR:-/tmp/prelude-ci}
ready_target_ms=${PRELUDE_CI_READY_TARGET_MS:-1000}
run_id="$(date +%s)-$$"

base_image=localhost/prelude-ci/debian:bookworm-slim
builder_image=localhost/prelude-ci/swift-builder
app_image=localhost/prelude-ci/prelude:$run_id
container=prelude-ci-$run_id
volume=prelude-ci-data-$run_id

host_packages=(debootstrap podman buildah runc uidmap fuse-overlayfs slirp4netns catatonit containernetworking-plugins
    curl python3 util-linux)
# Exactly the runtime stage's packages (Dockerfile), for the fallback root.
runtime_packages=(libsqlite3-0 zlib1g libpq5 libcurl4 libstdc++6 ca-certificates)
# Build dependencies of the host toolchain (shared/reference/containers.md), plus git for SwiftPM.
builder_packages=(git ca-certificates binutils binutils-gold gcc libc6-dev libstdc++-12-dev libgcc-12-dev libsqlite3-dev libpq-dev
    zlib1g-dev libcurl4 libxml2 libedit2 libncurses6 libpython3.11 libz3-4 tzdata)

# ----------------------------------------------------------------------------------------------------- helpers
log() { printf '[container %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
fail() { printf '[container] FAILED: %s\n' "$*" >&2; exit 1; }
now_ms() { date +%s%3N; }
timing() {  # name value: print and record
    log "timing: $1 = $2"
    if [[ -n ${PRELUDE_CI_TIMINGS:-} ]]; then printf '%s %s\n' "$1" "$2" >>"$PRELUDE_CI_TIMINGS"; fi
}
banner() {
    local line='!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!'
    printf '\n%s\n!!! %s\n%s\n\n' "$line" "$*" "$line" >&2
}
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

[[ $(id -u) == 0 ]] || fail "run as root (apt-get, debootstrap, rootful podman)"

mkdir -p "$ci"
# One run at a time per work directory: runs share the cached root filesystem and the storage.
exec 9>"$ci/lock"
flock -w 900 9 || fail "another build-and-smoke run holds $ci/lock"

# ------------------------------------------------------------------------------------------- host packages
ensure_packages() {
    local missing=() package
    for package in "${host_packages[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
    done
    if ((${#missing[@]})); then
        log "installing host packages: ${missing[*]}"
        timeout 300 apt-get update -qq
        DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

debian_mirror() {
    if [[ -n ${DEBIAN_MIRROR:-} ]]; then echo "$DEBIAN_MIRROR"; return; fi
    local uri=""
    if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
        uri=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)
    fi
    if [[ -z $uri && -f /etc/apt/sources.list ]]; then
        uri=$(awk '$1 == "deb" && $0 !~ /security/ {print $2; exit}' /etc/apt/sources.list)
    fi
    echo "${uri:-http://deb.debian.org/debian}"
}

# ------------------------------------------------------------------------------------------------- rootfs
# A minbase bookworm tree, made once and cached; the ".ok" marker sits beside it so an interrupted
# debootstrap is never mistaken for a finished one.
ensure_rootfs() {
    rootfs=$ci/rootfs
    if [[ -f $ci/rootfs.ok && -x $rootfs/bin/sh ]]; then
        log "root filesystem cached at $rootfs"
        return
    fi
    local mirror start
    mirror=$(debian_mirror)
    log "debootstrap minbase bookworm from $mirror into $rootfs"
    start=$(now_ms)
    rm -rf "$rootfs" "$rootfs.tmp" "$ci/rootfs.ok"
    timeout 900 debootstrap --variant=minbase bookworm "$rootfs.tmp" "$mirror" >"$ci/debootstrap.log" 2>&1 \
        || { tail -20 "$ci/debootstrap.log" >&2; fail "debootstrap (log: $ci/debootstrap.log)"; }
    # The same suites as the official debian:bookworm-slim image (updates and security too).
    local security=${mirror%/debian}/debian-security
    rm -f "$rootfs.tmp/etc/apt/sources.list"
    cat >"$rootfs.tmp/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    rm -rf "$rootfs.tmp/var/lib/apt/lists/"* "$rootfs.tmp/var/cache/apt/archives/"*.deb
    mv "$rootfs.tmp" "$rootfs"
    touch "$ci/rootfs.ok"
    timing debootstrap_s "$(((($(now_ms) - start) + 500) / 1000))"
}

# The official -slim images drop documentation, man pages and translations and tell dpkg to keep them out
# (debuerreotype's slimify); the stand-in does the same so that image sizes compare. Idempotent.
slim_rootfs() {
    mkdir -p "$rootfs/etc/dpkg/dpkg.cfg.d"
    cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
EOF
    # And apt keeps no package caches (/var/cache/apt/*.bin is ~90 MB after an apt-get update) nor translations.
    cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
    printf 'Acquire::Languages "none";\n' >"$rootfs/etc/apt/apt.conf.d/docker-no-languages"
    printf 'Apt::AutoRemove::SuggestsImportant "false";\n' >"$rootfs/etc/apt/apt.conf.d/docker-autoremove-suggests"
    find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete 2>/dev/null || true
    find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete 2>/dev/null || true
    rm -rf "$rootfs/usr/share/groff/"* "$rootfs/usr/share/info/"* "$rootfs/usr/share/linda/"* \
        "$rootfs/usr/share/lintian/overrides/"* "$rootfs/usr/share/locale/"* "$rootfs/usr/share/man/"*
    rm -rf "$rootfs/var/lib/apt/lists/"* "$rootfs/var/cache/apt/"*.bin "$rootfs/var/cache/apt/archives/"*.deb
}

# ---------------------------------------------------------------------------------------------- cleanup
cni_bridge_existed=0
ip link show cni-podman0 >/dev/null 2>&1 && cni_bridge_existed=1
engine_ready=0
images_before=""
fallback_pid=""

cleanup() {
    local status=$?
    set +e
    if ((engine_ready)); then
        podman rm -f -v --time 2 "$container" "$container-again" "$container-plain" >/dev/null 2>&1
        podman volume rm -f "$volume" >/dev/null 2>&1
        podman rmi -f "$app_image" >/dev/null 2>&1
        # Every image this run added (the build stage, layer cache, stand-ins), by id; the stand-ins survive
        # only with PRELUDE_CI_KEEP_BASE=1.
        local keep=$images_before id
        if [[ ${PRELUDE_CI_KEEP_BASE:-0} == 1 ]]; then
            keep+=$'\n'$(podman image inspect -f '{{.Id}}' "$base_image" "$builder_image" 2>/dev/null)
        fi
        for _ in 1 2; do  # a parent image goes only once its children are gone
            for id in $(podman images -qa --no-trunc 2>/dev/null); do
                grep -qxF "${id#sha256:}" <<<"${keep//sha256:/}" || podman rmi -f "$id" >/dev/null 2>&1
            done
        done
        if [[ ${PRELUDE_CI_KEEP_BASE:-0} != 1 ]]; then
            podman rmi -f "$builder_image" "$base_image" >/dev/null 2>&1
        fi
    fi
    if [[ -n $fallback_pid ]] && kill -0 "$fallback_pid" 2>/dev/null; then
        kill -KILL "$fallback_pid" 2>/dev/null
    fi
    if [[ -n ${fallback_root:-} ]]; then
        umount -l "$fallback_root/proc" 2>/dev/null
        rm -rf "$fallback_root"
    fi
    if ((!cni_bridge_existed)) && ip link show cni-podman0 >/dev/null 2>&1; then
        ip link del cni-podman0 2>/dev/null
    fi
    rm -rf "$ci/run-$run_id"
    ((status == 0)) || log "cleaned up after failure (exit $status)"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

work=$ci/run-$run_id
mkdir -p "$work"

# ------------------------------------------------------------------------------------------ podman config
# shared/reference/containers.md: runc (crun fails on hybrid cgroups), cgroupfs, ulimits within the hard limits
# (root lacks CAP_SYS_RESOURCE here), storage of our own so nothing else on the machine is touched.
configure_podman() {
    local conf=$ci/podman
    mkdir -p "$conf"
    local nofile nproc
    nofile=$(ulimit -Hn); [[ $nofile == unlimited ]] && nofile=1048576
    ((nofile > 20000)) && nofile=20000
    nproc=4096
    cat >"$conf/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
    cat >"$conf/storage.conf" <<EOF
[storage]
driver = "overlay"
graphroot = "$ci/storage/root"
runroot = "$ci/storage/run"
EOF
    export CONTAINERS_CONF=$conf/containers.conf CONTAINERS_STORAGE_CONF=$conf/storage.conf
}

# -------------------------------------------------------------------------------------- wait for readiness
# Polls GET /readyz until 200; prints the milliseconds from $1 (epoch ms) to the first 200.
wait_ready() {
    local started=$1 port=$2 alive_check=$3 deadline=$(($(now_ms) + 30000))
    while (($(now_ms) < deadline)); do
        if curl -fs --max-time 1 -o /dev/null "http://127.0.0.1:$port/readyz"; then
            echo $(($(now_ms) - started))
            return 0
        fi
        $alive_check || return 1
        sleep 0.01
    done
    return 1
}

run_smoke() {
    local base_url=$1
    if [[ -f $repo/scripts/smoke.sh ]]; then
        log "smoke: scripts/smoke.sh $base_url"
        local start
        start=$(now_ms)
        timeout 180 bash "$repo/scripts/smoke.sh" "$base_url" || fail "scripts/smoke.sh against $base_url"
        timing smoke_ms $(($(now_ms) - start))
    else
        log "smoke: scripts/smoke.sh not in the repository yet; checking /healthz and /readyz only"
        curl -fsS --max-time 2 "$base_url/healthz" >/dev/null || fail "GET /healthz"
        curl -fsS --max-time 2 "$base_url/readyz" >/dev/null || fail "GET /readyz"
    fi
}

check_ready_budget() {
    local ms=$1 what=$2
    if ((ms > ready_target_ms)); then
        fail "$what took ${ms} ms to become ready (budget ${ready_target_ms} ms, PRELUDE_CI_READY_TARGET_MS)"
    fi
}

# ---------------------------------------------------------------------------------------------- engine path
engine_works() {
    podman info >/dev/null 2>"$work/podman-info.err" || return 1
    return 0
}

import_base() {
    if [[ ${PRELUDE_CI_KEEP_BASE:-0} == 1 ]] && podman image exists "$base_image"; then
        log "runtime stand-in $base_image kept from an earlier run"
        return 0
    fi
    local start
    start=$(now_ms)
    # The official image sets PATH; an imported tarball has no config, so give it the same one.
    tar -C "$rootfs" -c . | podman import --quiet \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'CMD ["bash"]' - "$base_image" >/dev/null || return 1
    timing import_base_ms $(($(now_ms) - start))
}

# Can the engine start a container at all? (rlimits, cgroups and runtime problems show up here.)
probe_run() {
    podman run --rm --network host "$base_image" true >/dev/null 2>>"$work/podman-info.err"
}

build_builder() {
    if [[ ${PRELUDE_CI_KEEP_BASE:-0} == 1 ]] && podman image exists "$builder_image"; then
        log "builder stand-in $builder_image kept from an earlier run"
        return 0
    fi
    local context=$work/builder start
    mkdir -p "$context"
    # SwiftPM inside the build fetches https://github.com/* from the mounted mirror, like the host does.
    : >"$context/gitconfig"
    local key value
    while read -r key value; do
        git config --file "$context/gitconfig" --add "$key" "$value"
    done < <(git config --system --get-regexp '^url\..*\.insteadof$' || true)
    git config --file "$context/gitconfig" --add safe.directory '*'
    cat >"$context/Containerfile" <<EOF
FROM $base_image
RUN apt-get update \\
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${builder_packages[*]} \\
    && rm -rf /var/lib/apt/lists/*
COPY gitconfig /etc/gitconfig
# The toolchain itself is mounted at build time: -v /opt/swift:/opt/swift:ro
ENV PATH=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
EOF
    log "building the builder stand-in $builder_image"
    start=$(now_ms)
    timeout 900 podman build --pull=never --network host -t "$builder_image" -f "$context/Containerfile" "$context" \
        >"$work/builder-build.log" 2>&1 || { tail -30 "$work/builder-build.log" >&2; fail "builder stand-in build"; }
    timing build_builder_ms $(($(now_ms) - start))
}

build_app() {
    log "podman build of $repo/Dockerfile → $app_image"
    local start
    start=$(now_ms)
    # --format docker: OCI image configs have no HEALTHCHECK; the Docker format keeps it.
    # --jobs 2: the runtime stage's apt-get runs while the build stage compiles.
    timeout 1800 podman build --pull=never --network host --format docker --jobs 2 \
        -v /opt/swift:/opt/swift:ro -v /opt/swift-packages:/opt/swift-packages:ro \
        --build-arg BUILDER_IMAGE="$builder_image" --build-arg RUNTIME_IMAGE="$base_image" \
        -t "$app_image" -f "$repo/Dockerfile" "$repo" >"$ci/app-build.log" 2>&1 \
        || { tail -40 "$ci/app-build.log" >&2; fail "podman build (log: $ci/app-build.log)"; }
    timing image_build_s "$(((($(now_ms) - start) + 500) / 1000))"
    local size
    size=$(podman image inspect -f '{{.Size}}' "$app_image")
    timing image_size_mb "$(((size + 500000) / 1000000))"
    local binary_size
    binary_size=$(podman run --rm --network none --entrypoint stat "$app_image" -c %s /usr/local/bin/prelude)
    timing binary_size_mb "$(((binary_size + 500000) / 1000000))"
    podman history --format '{{.Size}}\t{{.CreatedBy}}' "$app_image" | grep -v '^0 B' | cut -c1-150 >"$work/history.txt"
    log "image layers with content (newest first):"$'\n'"$(cat "$work/history.txt")"
    timing runtime_base_size_mb "$((($(podman image inspect -f '{{.Size}}' "$base_image") + 500000) / 1000000))"
    # The image must carry what the Dockerfile promises.
    local config
    config=$(podman image inspect -f '{{.Config.User}}|{{.Config.StopSignal}}|{{json .Config.ExposedPorts}}|{{json .Config.Volumes}}' "$app_image")
    log "image config: $config"
    [[ $config == 10001:10001\|SIGTERM\|*8080/tcp*\|*/data* ]] || fail "image config: $config"
    podman image inspect -f '{{json .Config.Healthcheck}}' "$app_image" | grep -q healthcheck \
        || podman inspect -f '{{json .HealthCheck}}' "$app_image" | grep -q healthcheck \
        || fail "the image has no HEALTHCHECK (built without --format docker?)"
}

container_running() { [[ $(podman inspect -f '{{.State.Running}}' "$1" 2>/dev/null) == true ]]; }

run_container() {
    local name=$1 port=$2
    # Host network so all traffic stays on loopback; PRELUDE_HOST narrows the image's 0.0.0.0 to it.
    # --health-interval=disable: Podman schedules health checks with systemd timers, absent here; the check
    # itself stays in the image and is run explicitly below (podman healthcheck run).
    # The smoke test drives the demo app, which the image only seeds when asked (PRELUDE_DEMO_POLICY); a drain of
    # 1 s keeps the stops quick while still exercising it.
    podman run -d --name "$name" --network host --health-interval=disable \
        -e PRELUDE_HOST=127.0.0.1 -e PRELUDE_PORT="$port" -e PRELUDE_DEMO_POLICY=config/demo-policy.json \
        -e PRELUDE_DRAIN_SECONDS=1 -v "$volume:/data" "$app_image" >/dev/null
}

stop_container() {
    local name=$1 start elapsed code
    start=$(now_ms)
    podman stop -t 10 "$name" >/dev/null
    elapsed=$(($(now_ms) - start))
    code=$(podman inspect -f '{{.State.ExitCode}}' "$name")
    timing "${2}_ms" "$elapsed"
    ((code == 0)) || { podman logs "$name" | tail -20 >&2; fail "$name exited $code after SIGTERM (expected 0)"; }
    # 10 s is the grace period; reaching it means podman had to SIGKILL.
    ((elapsed < 9000)) || fail "stop took ${elapsed} ms: SIGTERM was not honoured"
    podman logs "$name" 2>&1 | grep -q '"msg":"stopped"' || fail "no \"stopped\" log line: the shutdown did not finish"
}

engine_path() {
    build_builder
    build_app

    local port start ms
    port=$(free_port)
    podman volume create "$volume" >/dev/null
    log "run $container on 127.0.0.1:$port (host network, volume $volume)"
    start=$(now_ms)
    run_container "$container" "$port"
    ms=$(wait_ready "$start" "$port" "container_running $container") \
        || { podman logs "$container" | tail -20 >&2; fail "container never became ready"; }
    local started_at ready_from_start
    started_at=$(podman inspect -f '{{.State.StartedAt}}' "$container")
    timing start_to_ready_ms "$ms"
    # From the moment the runtime started the process (podman's StartedAt) to the first 200.
    ready_from_start=$(python3 - "$started_at" "$((start + ms))" <<'EOF'
import datetime, re, sys
text = sys.argv[1]  # e.g. "2026-11-22 12:20:01.123456789 +0000 UTC"
m = re.match(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(?:\.(\d+))? ([+-]\d{4})", text)
if not m:
    print("n/a")
else:
    base = datetime.datetime.strptime(m.group(1) + " " + m.group(3), "%Y-%m-%d %H:%M:%S %z").timestamp()
    frac = float("0." + (m.group(2) or "0"))
    print(round(int(sys.argv[2]) - (base + frac) * 1000))
EOF
)
    timing process_start_to_ready_ms "$ready_from_start"
    check_ready_budget "$ms" "podman run"

    podman exec "$container" prelude healthcheck || fail "prelude healthcheck inside the container"
    podman healthcheck run "$container" >/dev/null || fail "podman healthcheck run (the image's HEALTHCHECK)"
    log "HEALTHCHECK: healthy"
    [[ $(podman exec "$container" id -u) == 10001 ]] || fail "the server does not run as uid 10001"

    run_smoke "http://127.0.0.1:$port"
    stop_container "$container" stop
    # The health check must also be able to fail: nothing listens on that port any more.
    if podman run --rm --network host "$app_image" healthcheck --url "http://127.0.0.1:$port/readyz" --timeout 1 \
        >/dev/null 2>&1; then
        fail "prelude healthcheck answered 0 with the server stopped"
    fi

    # Same volume again: the ledger and data survived the SIGTERM, so nothing is migrated or seeded twice.
    port=$(free_port)
    start=$(now_ms)
    run_container "$container-again" "$port"
    ms=$(wait_ready "$start" "$port" "container_running $container-again") \
        || { podman logs "$container-again" | tail -20 >&2; fail "restart on the same volume never became ready"; }
    timing restart_to_ready_ms "$ms"
    if podman logs "$container-again" 2>&1 | grep -Eq '"msg":"(migrations applied|demo policy loaded)"'; then
        fail "the restart migrated or seeded again: state written before SIGTERM was lost"
    fi
    stop_container "$container-again" stop_again
    podman run --rm --network none -v "$volume:/data" "$app_image" migrate | grep -q 'up to date' \
        || fail "prelude migrate on the stopped volume does not report an up-to-date database"
    no_demo_by_default

    log "engine path passed"
}

# Production must not get an app called `demo`: the image, started without PRELUDE_DEMO_POLICY, serves none.
no_demo_by_default() {
    local port start status name=$container-plain
    port=$(free_port)
    start=$(now_ms)
    podman run -d --name "$name" --network host --health-interval=disable \
        -e PRELUDE_HOST=127.0.0.1 -e PRELUDE_PORT="$port" -e PRELUDE_DRAIN_SECONDS=0 "$app_image" >/dev/null
    wait_ready "$start" "$port" "container_running $name" >/dev/null \
        || { podman logs "$name" | tail -20 >&2; fail "the image without the demo never became ready"; }
    status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/v1/apps/demo/policy/document")
    podman rm -f -v --time 2 "$name" >/dev/null  # -v: and its anonymous /data volume
    [[ $status == 404 ]] || fail "the image serves the demo app without PRELUDE_DEMO_POLICY (GET answered $status)"
    log "no demo app unless asked: GET /v1/apps/demo/policy/document answered 404"
}

# -------------------------------------------------------------------------------------------- fallback path
fallback_alive() { kill -0 "$fallback_pid" 2>/dev/null; }

fallback_path() {
    banner "$1 — FALLBACK: release binary in a debootstrapped root (chroot + unshare), NOT a container image"
    export PATH=/opt/swift/usr/bin:$PATH
    local start
    start=$(now_ms)
    (cd "$repo" && timeout 1800 swift build -c release --static-swift-stdlib --product prelude) >"$ci/fallback-build.log" 2>&1 \
        || { tail -30 "$ci/fallback-build.log" >&2; fail "swift build -c release"; }
    timing fallback_build_s "$(((($(now_ms) - start) + 500) / 1000))"
    local bin
    bin=$(cd "$repo" && swift build -c release --static-swift-stdlib --show-bin-path)/prelude

    fallback_root=$work/root
    cp -a "$rootfs" "$fallback_root"
    cp /etc/resolv.conf "$fallback_root/etc/resolv.conf"
    # The runtime stage's packages and user, as in the Dockerfile.
    timeout 300 chroot "$fallback_root" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends ${runtime_packages[*]} >/dev/null && rm -rf /var/lib/apt/lists/* \
        && groupadd --system --gid 10001 prelude \
        && useradd --system --uid 10001 --gid prelude --home-dir /data --no-create-home --shell /usr/sbin/nologin prelude \
        && mkdir -p /data && chown prelude:prelude /data" || fail "runtime packages in the fallback root"
    install -D -m 0755 "$bin" "$fallback_root/usr/local/bin/prelude"
    strip "$fallback_root/usr/local/bin/prelude" 2>/dev/null || true
    mkdir -p "$fallback_root/usr/local/share/prelude"
    cp -R "$repo/migrations" "$repo/config" "$fallback_root/usr/local/share/prelude/"

    local port ms
    port=$(free_port)
    start=$(now_ms)
    # New mount and PID namespaces with /proc mounted (CommandLine.arguments is empty without it); host network.
    # env -i: the server sees only what the container would set.
    local unshare chroot
    unshare=$(command -v unshare) chroot=$(command -v chroot)
    env -i PATH=/usr/local/bin:/usr/bin:/bin PRELUDE_HOST=127.0.0.1 PRELUDE_PORT="$port" \
        PRELUDE_DATABASE=/data/prelude.sqlite PRELUDE_DEMO_POLICY=config/demo-policy.json PRELUDE_DRAIN_SECONDS=1 \
        "$unshare" --mount --pid --fork --mount-proc="$fallback_root/proc" \
        "$chroot" --userspec=10001:10001 "$fallback_root" /usr/local/bin/prelude serve >"$work/fallback.log" 2>&1 &
    fallback_pid=$!
    ms=$(wait_ready "$start" "$port" fallback_alive) || { tail -20 "$work/fallback.log" >&2; fail "fallback never became ready"; }
    timing start_to_ready_ms "$ms"
    check_ready_budget "$ms" "fallback start"
    # /proc again: without it the binary sees no arguments (and would serve instead of checking).
    env -i PRELUDE_PORT="$port" "$unshare" --mount --pid --fork --mount-proc="$fallback_root/proc" \
        "$chroot" --userspec=10001:10001 "$fallback_root" /usr/local/bin/prelude healthcheck \
        || fail "prelude healthcheck in the fallback root"
    run_smoke "http://127.0.0.1:$port"

    # unshare does not forward signals: SIGTERM goes to the server itself (PID 1 of its namespace).
    local child code
    child=$(cat "/proc/$fallback_pid/task/$fallback_pid/children" | awk '{print $1}')
    [[ -n $child ]] || fail "cannot find the server process under unshare ($fallback_pid)"
    start=$(now_ms)
    kill -TERM "$child"
    code=0
    timeout 15 tail -s 0.05 --pid="$fallback_pid" -f /dev/null || fail "the server did not exit within 15 s of SIGTERM"
    wait "$fallback_pid" || code=$?
    fallback_pid=""
    timing stop_ms $(($(now_ms) - start))
    ((code == 0)) || { tail -20 "$work/fallback.log" >&2; fail "fallback server exited $code after SIGTERM"; }
    grep -q '"msg":"stopped"' "$work/fallback.log" || fail "no \"stopped\" log line in the fallback"
    banner "FALLBACK PASSED — the container image itself was NOT built or run"
}

# ------------------------------------------------------------------------------------------------------ main
# Everything runs from one function called on the last line, so bash has read the whole file before anything runs.
main() {
    total_start=$(now_ms)
    ensure_packages
    ensure_rootfs
    slim_rootfs

    if [[ ${PRELUDE_CI_FALLBACK:-0} == 1 ]]; then
        fallback_path "PRELUDE_CI_FALLBACK=1: CONTAINER ENGINE SKIPPED ON REQUEST"
    else
        configure_podman
        if engine_works && engine_ready=1 && images_before=$(podman images -qa --no-trunc) \
            && import_base 2>>"$work/podman-info.err" && probe_run; then
            engine_path
        else
            log "podman cannot start: $(head -c 400 "$work/podman-info.err" 2>/dev/null)"
            fallback_path "CONTAINER ENGINE UNAVAILABLE (podman cannot start a container)"
        fi
    fi
    timing total_s "$(((($(now_ms) - total_start) + 500) / 1000))"
    log "passed"
}

main "$@"; exit
