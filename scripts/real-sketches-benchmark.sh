#!/usr/bin/env bash
# Composes textbook automata ("(10)^n", "starts with 011", "ends in 01", "even number of a's",
# "contains 00", "odd number of 1s") from real people's circles and shaft-and-head arrows in
# ../shared/datasets/real-strokes (self-loops synthetic: the set has none), writes each sketch
# twice into out/real-sketches/ (git-ignored; never into tracked files): one drawing per line,
# and one stroke per line. Then reads every sketch with `strokekit recognize --json --simulate`
# and checks every word up to length 5 against the language. Prints the share of sketches with
# every word right, per mode and per automaton.
#
#   scripts/real-sketches-benchmark.sh [--model FILE] [--per-automaton N] [--seed S]
#                                      [--writers all|dev|test] [--out DIR] [--json] [--verbose]
#
# Default: the bundled model, 10 sketches per automaton, seed 0, the test half of the writers
# (the half not used to choose recipes). Skipped, with a message and status 0, when the folder
# is absent. Needs python3 (standard library only).
set -euo pipefail
cd "$(dirname "$0")/.."
data="${REAL_STROKES:-../shared/datasets/real-strokes}"
if [ ! -f "$data/classes.json" ]; then
    echo "real-sketches-benchmark: skipped, no real-strokes data at $data" >&2
    exit 0
fi
strokekit=.build/release/strokekit
[ -x "$strokekit" ] || swift build -c release --product strokekit >&2
echo "real-sketches-benchmark: machine: $("$strokekit" bench --machine)" >&2

out=out/real-sketches
options=()
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out="$2"; shift 2 ;;
        --model|--per-automaton|--seed|--writers) options+=("$1" "$2"); shift 2 ;;
        --json|--verbose) options+=("$1"); shift ;;
        *) echo "real-sketches-benchmark: unknown argument $1" >&2; exit 2 ;;
    esac
done
python3 scripts/compose_real_sketches.py "$data" "$out" "$strokekit" "${options[@]}"
