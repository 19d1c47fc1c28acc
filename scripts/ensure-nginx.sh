#!/usr/bin/env bash
# Installs Debian's nginx when this machine has none (root, or sudo), for the scripts that put nginx in front of
# prelude (proxy-cache-test.sh, topology-test.sh, cluster-test.sh). Source it: afterwards /usr/sbin is on PATH.
# Debian starts nothing in a container without an init system; a host with one may start the packaged service on
# port 80, which no test uses.
if ! command -v nginx >/dev/null && [[ ! -x /usr/sbin/nginx ]]; then
    echo "installing: nginx"
    sudo_cmd=()
    if [[ "$(id -u)" != 0 ]]; then sudo_cmd=(sudo); fi
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends nginx
fi
PATH="$PATH:/usr/sbin"
