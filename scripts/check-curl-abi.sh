#!/usr/bin/env bash
# Checks every libcurl number declared in Sources/CCurl/include/CCurl.h against Debian's curl.h, and that the
# declared function types match curl's own prototypes. The product builds without curl.h (it loads libcurl.so.4 at
# run time, docs/http.md); this check fetches the headers into a temporary folder (`apt-get download`, no install)
# unless curl.h is already on the machine (CURL_ABI_DOWNLOAD=1 fetches them anyway). Run by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

include_flags=()
if [[ -n "${CURL_ABI_DOWNLOAD-}" || ( ! -f /usr/include/x86_64-linux-gnu/curl/curl.h && ! -f /usr/include/curl/curl.h ) ]]; then
    download() { (cd "$work" && apt-get download -qq libcurl4-openssl-dev >/dev/null 2>&1); }
    if ! download; then
        # A fresh machine may have no package lists yet (apt-get download then finds nothing): fetch them once.
        sudo_cmd=()
        if [[ "$(id -u)" != 0 ]]; then sudo_cmd=(sudo); fi
        "${sudo_cmd[@]}" apt-get update -qq
        download
    fi
    dpkg-deb -x "$work"/libcurl4-openssl-dev_*.deb "$work/root"
    include_flags=(-isystem "$work/root/usr/include" -isystem "$work/root/usr/include/x86_64-linux-gnu")
fi

# One comparison per constant, generated from the header so a new constant is checked without editing this script.
{
    echo '#include <stdio.h>'
    echo '#include <curl/curl.h>'
    echo '#include "CCurl.h"'
    echo 'int main(void) { int bad = 0;'
    grep -o 'PRELUDE_CURL[A-Z_0-9]* = ' Sources/CCurl/include/CCurl.h | sed 's/ = //' | while read -r ours; do
        theirs="${ours#PRELUDE_}"
        echo "  if ((long)$ours != (long)$theirs) { printf(\"%s: ours %ld, curl.h %ld\\n\", \"$ours\", (long)$ours, (long)$theirs); bad = 1; }"
    done
    # The callback types must be the very types curl.h declares (a mismatch is a compile error here).
    echo '  curl_write_callback w = (prelude_curl_write_callback)0; (void)w;'
    echo '  curl_xferinfo_callback x = (prelude_curl_xferinfo_callback)0; (void)x;'
    # curlsocktype is an enum, passed as an int: the same size is what the ABI needs.
    echo '  if (sizeof(curlsocktype) != sizeof(int) || sizeof(curl_socket_t) != sizeof(int) || sizeof(curl_off_t) != 8) { printf("curlsocktype, curl_socket_t or curl_off_t differ in size\n"); bad = 1; }'
    echo '  curl_closesocket_callback c = (prelude_curl_closesocket_callback)0; (void)c;'
    echo '  if (!bad) printf("libcurl ABI: every declared number matches curl.h %s\n", LIBCURL_VERSION);'
    echo '  return bad; }'
} >"$work/check.c"
cc -Werror=incompatible-pointer-types -Werror -Wall "${include_flags[@]}" -I Sources/CCurl/include "$work/check.c" -o "$work/check"
"$work/check"
