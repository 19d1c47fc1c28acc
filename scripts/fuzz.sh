#!/usr/bin/env bash
# Fuzzes every parser that reads untrusted bytes with libFuzzer + AddressSanitizer, each for a bounded time.
#
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#   SECONDS_PER_TARGET defaults to 60; TARGETs default to all of them (docs/fuzzing.md lists them):
#   request-decoder events json policy decide query accept-language locale-tag semver timestamp instant results router
#   ofrep segment condition.
#   Builds Fuzz/ (its own package: shared/reference/reliability.md §4) once with -sanitize=fuzzer,address (one
#   executable holds every target, chosen by PRELUDE_FUZZ_TARGET), replays every file in Fuzz/regressions/<target>/
#   (each must pass), then fuzzes each target from Fuzz/corpus/<target>/ (seeds written by Fuzz/make-corpus.py).
#   New interesting inputs go to fuzz-artifacts/corpus/<target>/ (ignored by git): the committed seeds stay as they are.
#   On a crash the input is copied to Fuzz/regressions/<target>/ and the script exits 1 after the other targets ran:
#   reproduce it with the command it prints, add a Swift regression test, fix the parser, commit both.
# Environment: FUZZ_JOBS (default 1 worker), FUZZ_SCRATCH (build folder, default .build-fuzz).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
ALL_TARGETS=(request-decoder events json policy decide query accept-language locale-tag semver timestamp instant results
    router ofrep segment condition)
SECONDS_TO_RUN="${1:-60}"
[[ "$SECONDS_TO_RUN" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: SECONDS_PER_TARGET must be a whole number" >&2; exit 2; }
shift || true
TARGETS=("$@")
(( ${#TARGETS[@]} > 0 )) || TARGETS=("${ALL_TARGETS[@]}")
for target in "${TARGETS[@]}"; do
    [[ " ${ALL_TARGETS[*]} " == *" $target "* ]] || { echo "fuzz.sh: unknown target $target" >&2; exit 2; }
done
if ! command -v swift >/dev/null && [[ -x /opt/swift/usr/bin/swift ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
# Mandatory: on a crash Swift's backtracer would otherwise hold our pipes open (reliability.md §4, gotcha 1).
export SWIFT_BACKTRACE=enable=no
SCRATCH="${FUZZ_SCRATCH:-$ROOT/.build-fuzz}"   # -release / -debug appended
WORK="$ROOT/fuzz-artifacts"
rm -rf "$WORK/crashes"   # only this run's findings count
mkdir -p "$WORK/crashes"

build() { # $1: release|debug
    echo "fuzz.sh: building Fuzz/ ($1) with -sanitize=fuzzer,address (scratch $SCRATCH-$1)"
    local status=0
    swift build --package-path Fuzz -c "$1" --sanitize=fuzzer --sanitize=address --scratch-path "$SCRATCH-$1" \
        -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
        2>&1 | { grep -v "Cannot export local symbol" || true; } || status=$?
    # A compile error is not the flaky missing-counters case below: retrying cannot fix it, so stop here and say so.
    # (Seen on 2026-11-28: Fuzz/Package.swift lacked a C module the root package had gained.)
    (( status == 0 )) || { echo "fuzz.sh: the Fuzz/ package did not compile (exit $status); see the errors above" >&2; exit 1; }
    BIN="$SCRATCH-$1/$1/PreludeFuzz"
}
# grep -c reads all of readelf's output: with `grep -q` and pipefail, readelf dies of SIGPIPE when grep exits early
# and the check fails at random (that, not the build, was behind the missing counters first seen here).
has_counters() { [[ -x "$BIN" ]] && (( $(readelf -S "$BIN" | grep -c __sancov_cntrs || true) > 0 )); }
# A binary without coverage counters fuzzes blindly (reliability.md §4, gotcha 3). Seen here on 2026-11-22: builds
# relying on -sanitize=fuzzer's implied coverage flags came out uninstrumented several times in a row; the explicit
# -sanitize-coverage above fixed it. Should it still happen: rebuild from scratch, release then debug, up to 4 times.
build_start=$SECONDS
build release
attempt=0
while ! has_counters && (( attempt < 4 )); do
    attempt=$(( attempt + 1 ))
    kind=release; (( attempt % 2 == 0 )) && kind=debug
    echo "fuzz.sh: $BIN has no coverage counters; clean $kind build (attempt $attempt of 4)"
    rm -rf "$SCRATCH-$kind"
    build "$kind"
done
has_counters || { echo "fuzz.sh: no instrumented build after 4 attempts" >&2; exit 1; }
echo "fuzz.sh: built $BIN in $(( SECONDS - build_start ))s"

failed=()
summary=()
for target in "${TARGETS[@]}"; do
    target_start=$SECONDS
    export PRELUDE_FUZZ_TARGET="$target"
    mkdir -p "$WORK/corpus/$target" "$WORK/crashes/$target" "$ROOT/Fuzz/regressions/$target"
    LOG="$WORK/$target.log"

    shopt -s nullglob
    regressions=("$ROOT/Fuzz/regressions/$target"/*)
    shopt -u nullglob
    if (( ${#regressions[@]} > 0 )); then
        if ! "$BIN" -runs=0 "${regressions[@]}" >"$WORK/$target-regressions.log" 2>&1; then
            tail -30 "$WORK/$target-regressions.log" >&2
            echo "fuzz.sh: $target: a regression input fails (log: $WORK/$target-regressions.log)" >&2
            failed+=("$target")
            summary+=("$target: regression FAILED")
            continue
        fi
    fi

    # Parallel jobs write fuzz-N.log into the working directory: only with FUZZ_JOBS > 1, and from $WORK.
    parallel=()
    (( ${FUZZ_JOBS:-1} > 1 )) && parallel=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS")
    dict=()
    [[ "$target" == request-decoder ]] && dict=(-dict="$ROOT/Fuzz/http.dict")
    [[ "$target" =~ ^(events|json|policy|decide)$ ]] && dict=(-dict="$ROOT/Fuzz/json.dict")
    status=0
    # -timeout: one input over 5 s is a hang; -rss_limit_mb bounds memory; -max_len as in reliability.md §4.
    (cd "$WORK" && timeout $(( SECONDS_TO_RUN + 120 )) "$BIN" \
        -max_total_time="$SECONDS_TO_RUN" -max_len=20000 -timeout=5 -rss_limit_mb=2048 \
        "${parallel[@]}" "${dict[@]}" -artifact_prefix="$WORK/crashes/$target/" -print_final_stats=1 \
        "$WORK/corpus/$target" "$ROOT/Fuzz/corpus/$target") >"$LOG" 2>&1 || status=$?
    if ! grep -q "INFO: Loaded 1 modules" "$LOG"; then
        tail -20 "$LOG" >&2
        echo "fuzz.sh: $target: libFuzzer did not start" >&2
        failed+=("$target")
        summary+=("$target: did not start")
        continue
    fi
    runs="$(grep -E '^stat::number_of_executed_units' "$LOG" | grep -oE '[0-9]+$' || echo "?")"
    shopt -s nullglob
    found=("$WORK/crashes/$target"/crash-* "$WORK/crashes/$target"/leak-* "$WORK/crashes/$target"/timeout-*
        "$WORK/crashes/$target"/oom-*)
    shopt -u nullglob
    if (( status != 0 )) || (( ${#found[@]} > 0 )); then
        for f in "${found[@]}"; do cp "$f" "$ROOT/Fuzz/regressions/$target/"; done
        grep -E "ERROR|SUMMARY|Fatal error|deadly signal|PRELUDE FUZZ FAILURE|decoding depends" "$LOG" | head -20 >&2 \
            || true
        echo "fuzz.sh: $target: FAILED (status $status); inputs copied to Fuzz/regressions/$target/:" \
            "${found[*]##*/}" >&2
        for f in "${found[@]}"; do
            echo "  reproduce: PRELUDE_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no $BIN Fuzz/regressions/$target/${f##*/}" >&2
        done
        failed+=("$target")
        summary+=("$target: FAILED after $(( SECONDS - target_start ))s")
        continue
    fi
    summary+=("$target: ok, $runs runs in $(( SECONDS - target_start ))s")
done

echo "fuzz.sh: per target (${SECONDS_TO_RUN}s of fuzzing each; logs in $WORK):"
printf '  %s\n' "${summary[@]}"
if (( ${#failed[@]} > 0 )); then
    echo "fuzz.sh: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz.sh: no crash in ${#TARGETS[@]} target(s)"
