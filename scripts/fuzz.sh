#!/usr/bin/env bash
# Fuzzes PreludeHTTP's RequestDecoder with libFuzzer + AddressSanitizer for a bounded time.
#
# Usage: scripts/fuzz.sh [SECONDS]        (default 60; the build adds ~1-3 min the first time, ~10 s after)
#   Builds Fuzz/ (its own package: shared/reference/reliability.md §4) with -sanitize=fuzzer,address,
#   replays every file in Fuzz/regressions/ (each must pass), then fuzzes from Fuzz/corpus/ (the seeds, made
#   from the parser vector table by Fuzz/make-corpus.py) with Fuzz/http.dict. New interesting inputs go to
#   fuzz-artifacts/corpus/ (ignored by git), so the committed seeds stay as they are.
#   On a crash the input is copied to Fuzz/regressions/ and the script exits 1: add it to the regression
#   vectors in Tests/PreludeHTTPTests/RequestDecoderRegressionTests.swift, fix the decoder, commit both.
# Environment: FUZZ_JOBS (default 1 worker), FUZZ_SCRATCH (build folder, default .build-fuzz).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SECONDS_TO_RUN="${1:-60}"
[[ "$SECONDS_TO_RUN" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: SECONDS must be a whole number" >&2; exit 2; }
if ! command -v swift >/dev/null && [[ -x /opt/swift/usr/bin/swift ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
# Mandatory: on a crash Swift's backtracer would otherwise hold our pipes open (reliability.md §4, gotcha 1).
export SWIFT_BACKTRACE=enable=no
SCRATCH="${FUZZ_SCRATCH:-$ROOT/.build-fuzz}"   # -release / -debug appended
WORK="$ROOT/fuzz-artifacts"
rm -rf "$WORK/crashes"   # only this run's findings count
mkdir -p "$WORK/corpus" "$WORK/crashes" "$ROOT/Fuzz/regressions"

build() { # $1: release|debug
    echo "fuzz.sh: building Fuzz/ ($1) with -sanitize=fuzzer,address (scratch $SCRATCH-$1)"
    swift build --package-path Fuzz -c "$1" --sanitize=fuzzer --sanitize=address --scratch-path "$SCRATCH-$1" \
        -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
        2>&1 | grep -v "Cannot export local symbol" || true
    BIN="$SCRATCH-$1/$1/FuzzRequestDecoder"
}
# grep -c reads all of readelf's output: with `grep -q` and pipefail, readelf dies of SIGPIPE when grep exits early
# and the check fails at random (that, not the build, was behind the missing counters first seen here).
has_counters() { [[ -x "$BIN" ]] && (( $(readelf -S "$BIN" | grep -c __sancov_cntrs || true) > 0 )); }
# A binary without coverage counters fuzzes blindly (reliability.md §4, gotcha 3). Seen here on 2026-11-22: builds
# relying on -sanitize=fuzzer's implied coverage flags came out uninstrumented several times in a row; the explicit
# -sanitize-coverage above fixed it. Should it still happen: rebuild from scratch, release then debug, up to 4 times.
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
echo "fuzz.sh: fuzzing with $BIN"

regressions=("$ROOT"/Fuzz/regressions/*)
if [[ -e "${regressions[0]}" ]]; then
    echo "fuzz.sh: replaying ${#regressions[@]} regression input(s)"
    "$BIN" -runs=0 "${regressions[@]}" >"$WORK/regressions.log" 2>&1 \
        || { cat "$WORK/regressions.log" >&2; echo "fuzz.sh: a regression input fails" >&2; exit 1; }
fi

echo "fuzz.sh: fuzzing for ${SECONDS_TO_RUN}s"
LOG="$WORK/fuzz.log"
# Parallel jobs write fuzz-N.log into the working directory: only with FUZZ_JOBS > 1, and from $WORK.
parallel=()
(( ${FUZZ_JOBS:-1} > 1 )) && parallel=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS")
cd "$WORK"
status=0
# -timeout: one input over 5 s is a hang; -rss_limit_mb bounds memory; -max_len as in reliability.md §4.
timeout $(( SECONDS_TO_RUN + 120 )) "$BIN" \
    -max_total_time="$SECONDS_TO_RUN" -max_len=20000 -timeout=5 -rss_limit_mb=2048 \
    "${parallel[@]}" \
    -dict="$ROOT/Fuzz/http.dict" -artifact_prefix="$WORK/crashes/" -print_final_stats=1 \
    "$WORK/corpus" "$ROOT/Fuzz/corpus" >"$LOG" 2>&1 || status=$?
grep -q "INFO: Loaded 1 modules" "$LOG" || { tail -20 "$LOG" >&2; echo "fuzz.sh: libFuzzer did not start" >&2; exit 1; }
grep -E "^(stat::number_of_executed_units|stat::new_units_added|stat::peak_rss_mb)|^#[0-9]+ *DONE" "$LOG" || true

shopt -s nullglob
found=("$WORK"/crashes/crash-* "$WORK"/crashes/leak-* "$WORK"/crashes/timeout-* "$WORK"/crashes/oom-*)
if (( status != 0 )) || (( ${#found[@]} > 0 )); then
    for f in "${found[@]}"; do cp "$f" "$ROOT/Fuzz/regressions/"; done
    grep -E "ERROR|SUMMARY|Fatal error|deadly signal|decoding depends" "$LOG" | head -20 >&2 || true
    echo "fuzz.sh: FAILED (status $status); inputs copied to Fuzz/regressions/: ${found[*]##*/}" >&2
    exit 1
fi
echo "fuzz.sh: no crash in ${SECONDS_TO_RUN}s (log: $LOG)"
