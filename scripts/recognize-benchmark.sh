#!/usr/bin/env bash
# Runs `strokekit recognize` on the example sketches in docs/sketches/ (textbook automata drawn
# stroke by stroke with StrokeSynthesizer; see Tests/AutomataSketchTests/ExampleSketchTests.swift)
# with the bundled classifier, simulates words on each, and compares every verdict with the
# language the sketch was drawn for.
# Usage: scripts/recognize-benchmark.sh [--verbose]   (--verbose also prints the text reports)
# Exit status: 0 when every word gets the expected verdict, 1 otherwise. Needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."
strokekit=.build/release/strokekit
[ -x "$strokekit" ] || swift build -c release --product strokekit
echo "recognize-benchmark: machine: $("$strokekit" bench --machine)" >&2
verbose="${1:-}"

# sketch file | words to run | the words among them that the language accepts ('' is the empty word)
benchmarks=(
    "docs/sketches/ends-in-01.ndjson|'' 0 1 01 10 001 101 0101 0110 1101 11001|01 001 101 0101 1101 11001"
    "docs/sketches/even-number-of-as.ndjson|'' a b aa ab ba bab aab abab bbb aaaa|'' b aa aab abab bbb aaaa"
    "docs/sketches/binary-multiples-of-3.ndjson|'' 0 1 11 110 101 1001 1100 1111 10010 10101|'' 0 11 110 1001 1100 1111 10010 10101"
)

# Reads the JSON report on stdin; arguments are the words the language accepts.
compare=$(cat <<'PY'
import json, sys
report = json.load(sys.stdin)
accepted = set(sys.argv[1:])
misses = 0
for run in report["simulations"]:
    expected = run["input"] in accepted
    ok = run["accepted"] == expected
    misses += not ok
    verdict = "accepted" if run["accepted"] else "rejected"
    check = "OK" if ok else "WRONG (expected " + ("accepted" if expected else "rejected") + ")"
    print("  %-10r %-9s %s" % (run["input"], verdict, check))
for warning in report["warnings"]:
    print("  warning: " + warning)
read = [s for s in report["strokes"] if s["rule"] is not None]
rejected = [s for s in report["strokes"] if s["shape"] is None]
words = len(report["simulations"])
print("  %d strokes (%d read in context, %d rejected); %d/%d words right"
      % (len(report["strokes"]), len(read), len(rejected), words - misses, words))
sys.exit(1 if misses else 0)
PY
)

failures=0
for benchmark in "${benchmarks[@]}"; do
    IFS='|' read -r sketch words accepted <<<"$benchmark"
    eval "wordList=($words)"
    eval "acceptedList=($accepted)"
    echo "== $sketch"
    if [ "$verbose" = "--verbose" ]; then
        "$strokekit" recognize "$sketch" --simulate "${wordList[@]}"
        echo
    fi
    if ! "$strokekit" recognize "$sketch" --simulate "${wordList[@]}" --json | python3 -c "$compare" "${acceptedList[@]}"; then
        failures=$((failures + 1))
    fi
done
if [ "$failures" -gt 0 ]; then
    echo "recognize-benchmark: $failures of ${#benchmarks[@]} sketches had wrong verdicts" >&2
    exit 1
fi
echo "recognize-benchmark: all ${#benchmarks[@]} sketches give the expected verdicts"
