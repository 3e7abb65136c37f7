#!/usr/bin/env bash
# Coverage-guided fuzzing of every reader of outside input (Fuzz/: one libFuzzer harness per
# reader, instrumented for libFuzzer and built with AddressSanitizer). Each harness starts from its committed seed
# corpus (Fuzz/Corpus/<harness>, copied: the committed corpus is not grown) and runs for
# SECONDS (default 30) or, with --runs N, until N executions (SECONDS still caps the time).
# A crash, sanitizer report, leak or an input taking over FUZZ_TIMEOUT seconds (default 5,
# generous for a loaded machine) stops the harness; its input is kept in out/fuzz/<harness>/,
# printed (base64) with the report, and the script fails. Leaks in other code than ours are
# suppressed by name, each with its reason, in Fuzz/lsan-suppressions.txt. Prints executions and coverage per
# harness, with its peak RSS. The Swift runtime's backtracer is off so that libFuzzer and ASan
# report a crash.
# Memory: -rss_limit_mb is libFuzzer's limit on the process's *peak* RSS (getrusage), checked
# once a second by another thread, so an out-of-memory report keeps whatever input runs at that
# moment, not necessarily the one that made the peak. -malloc_limit_mb (default: the RSS limit)
# is set far lower, FUZZ_MALLOC_LIMIT_MB (default 512): a reader given at most 16 KB has no
# reason to ask for half a gigabyte at once, and a single allocation over the limit is
# reported where it is made, with its stack and the input that asked for it. An input taking
# over 2 s (-report_slow_units) is kept as slow-unit-* beside the others without failing the
# run, so the report of a later failure lists it too.
# Usage: scripts/fuzz.sh [SECONDS] [--runs N] [--only HARNESS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=30
runs=""
only=""
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --only) only="$2"; shift 2 ;;
        [0-9]*) seconds="$1"; shift ;;
        *) echo "fuzz: unknown argument $1 (usage: scripts/fuzz.sh [SECONDS] [--runs N] [--only HARNESS])" >&2; exit 2 ;;
    esac
done
harnesses=(FuzzPNG FuzzModelFile FuzzQuickDraw FuzzSketch FuzzAutomaton FuzzArchitecture FuzzInkML FuzzJFLAP FuzzUnipen)
[ -n "$only" ] && harnesses=("$only")

# Swift executables have their own main, so libFuzzer comes without its main (the harnesses
# call LLVMFuzzerRunDriver); the code is instrumented as -sanitize=fuzzer would, with ASan.
toolchain="$(dirname "$(dirname "$(command -v swiftc)")")"
runtime="$(ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -n 1 || true)"
if [ -z "$runtime" ]; then
    echo "fuzz: skipped: this Swift toolchain has no libFuzzer runtime (libclang_rt.fuzzer_no_main)" >&2
    exit 0
fi
echo "fuzz: building the harnesses with ASan and libFuzzer coverage (first build takes minutes)" >&2
# With --only, only that harness (and what it links) is built.
product=()
[ -n "$only" ] && product=(--product "$only")
swift build --package-path Fuzz -c release --scratch-path .build-fuzz "${product[@]}" \
    -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
    -Xlinker "$runtime" -Xlinker -lstdc++ >&2
bin="$(swift build --package-path Fuzz -c release --scratch-path .build-fuzz --show-bin-path)"

failures=0
for harness in "${harnesses[@]}"; do
    work="$(mktemp -d)"
    cp Fuzz/Corpus/"$harness"/* "$work"/
    artifacts="out/fuzz/$harness"
    mkdir -p "$artifacts"
    started="$(mktemp)"
    limit=(-max_total_time="$seconds")
    [ -n "$runs" ] && limit+=(-runs="$runs")
    log="$artifacts/run.log"
    status=0
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1" \
        LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt:print_suppressions=0" "$bin/$harness" "$work" "${limit[@]}" \
        -timeout="${FUZZ_TIMEOUT:-5}" -rss_limit_mb=2048 -malloc_limit_mb="${FUZZ_MALLOC_LIMIT_MB:-512}" \
        -report_slow_units=2 -max_len=16384 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" > "$log" 2>&1 || status=$?
    executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*' || echo "?")
    features=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*' || echo "?")
    peak=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    if [ "$status" -eq 0 ]; then
        printf 'fuzz: %-17s ok      %10s executions, coverage %s edges, %s features, peak RSS %s MB\n' \
            "$harness" "$executions" "$coverage" "$features" "$peak"
        slow=$(find "$artifacts" -maxdepth 1 -name 'slow-unit-*' -newer "$started" | wc -l)
        [ "$slow" -eq 0 ] || echo "fuzz: $harness kept $slow input(s) that took over 2 s in $artifacts/" >&2
    else
        printf 'fuzz: %-17s FAILED  after %s executions (exit %s, peak RSS %s MB); see %s and the input in %s/\n' \
            "$harness" "$executions" "$status" "$peak" "$log" "$artifacts" >&2
        grep -m 5 -E 'ERROR|SUMMARY|Fatal|deadly|timeout|out-of-memory' "$log" >&2 || true
        # The log of a CI run is all that survives it: show the report and the input itself.
        grep -m 1 -A 25 -E '^==[0-9]+== ?ERROR|deadly signal|Fatal error' "$log" >&2 || true
        find "$artifacts" -maxdepth 1 -type f ! -name run.log -newer "$started" | while read -r input; do
            echo "fuzz: input $input (first 512 bytes, base64):" >&2
            head -c 512 "$input" | base64 >&2
        done
        failures=$((failures + 1))
    fi
    rm -rf "$work" "$started"
done
if [ "$failures" -gt 0 ]; then
    echo "fuzz: $failures harness(es) failed" >&2
    exit 1
fi
echo "fuzz: all ${#harnesses[@]} harnesses ran clean"
