#!/usr/bin/env bash
# Runs a command as if on a fresh machine of the project's kind: every file that a Debian package outside the
# machine image's list (scripts/fresh-machine/apt-packages.txt, from the env skill's packages/installed-swift.txt)
# put under /usr/include or /usr/lib is hidden from it, so a build that needs such a package fails here as it would
# for a newcomer (issue 35: libcurl4-openssl-dev was missing on a fresh machine and nothing noticed).
#
#   scripts/fresh-machine/run-hidden.sh swift build -c release
#
# How: a private mount namespace (unshare, needs root) in which /usr/include and /usr/lib are overlays whose upper
# layer holds a whiteout for each hidden file. Nothing outside the command sees a difference.
set -euo pipefail
cd "$(dirname "$0")/../.."
(($# > 0)) || { echo "usage: $0 COMMAND [ARGUMENT...]" >&2; exit 64; }

image_list=scripts/fresh-machine/apt-packages.txt
extra=()
while IFS= read -r package; do extra+=("$package"); done < <(
    comm -13 "$image_list" <(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" {print $2}' | sort -u))

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
hidden=0
for root in /usr/include /usr/lib; do
    mkdir -p "$work/upper$root" "$work/work$root"
done
for package in "${extra[@]}"; do
    while IFS= read -r path; do
        [[ -f "$path" || -L "$path" ]] || continue
        for root in /usr/include /usr/lib; do
            if [[ "$path" == "$root"/* ]]; then
                mkdir -p "$work/upper$(dirname "$path")"
                mknod "$work/upper$path" c 0 0   # an overlay whiteout: the file is absent from the merged view
                hidden=$((hidden + 1))
            fi
        done
    done < <(dpkg-query -L "$package" 2>/dev/null)
done
echo "fresh machine: ${#extra[@]} package(s) not in the image hidden (${extra[*]:-none}), $hidden file(s)" >&2

unshare --mount --propagation private bash -c '
    set -euo pipefail
    work="$1"; shift
    for root in /usr/include /usr/lib; do
        mount -t overlay overlay -o "lowerdir=$root,upperdir=$work/upper$root,workdir=$work/work$root" "$root"
    done
    exec "$@"
' run-hidden "$work" "$@"
