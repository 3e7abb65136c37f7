#!/usr/bin/env bash
# Reads every drawing of ../shared/datasets/real-strokes (real people's strokes from other
# devices: see its README; evaluation and development only, never copied here) with a model,
# all strokes of a drawing together through the library's rasterizer (`strokekit predict
# --strokes`), and prints, per source and overall: circle recall, shaft-and-head arrow recall,
# line/swipe recall, the share of non-shapes rejected, and the worst-read kinds.
#
#   scripts/real-strokes-benchmark.sh [--model FILE] [--writers all|dev|test] [--json] [--misses FILE] [--sweep]
#
# Default model: the bundled one. --writers dev/test keeps one fixed half of the writers
# (choose on dev, report on test); --sweep prints the figures for a range of confidence
# thresholds (`strokekit train --reject-below P`), to choose one. Skipped, with a message and status 0, when the folder is
# absent. Needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${REAL_STROKES:-../shared/datasets/real-strokes}"
if [ ! -f "$data/classes.json" ]; then
    echo "real-strokes-benchmark: skipped, no real-strokes data at $data" >&2
    exit 0
fi
strokekit=.build/release/strokekit
[ -x "$strokekit" ] || swift build -c release --product strokekit >&2
echo "real-strokes-benchmark: machine: $("$strokekit" bench --machine)" >&2

model=()
score=()
while [ $# -gt 0 ]; do
    case "$1" in
        --model) model=(--model "$2"); shift 2 ;;
        --writers|--misses|--worst) score+=("$1" "$2"); shift 2 ;;
        --json|--sweep) score+=("$1"); shift ;;
        *) echo "real-strokes-benchmark: unknown argument $1" >&2; exit 2 ;;
    esac
done

for file in "$data"/*.ndjson; do
    "$strokekit" predict "${model[@]}" --strokes "$file" --json
done | python3 scripts/real_strokes_benchmark.py "$data/classes.json" "${score[@]}"
