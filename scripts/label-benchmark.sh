#!/usr/bin/env bash
# Reads the single-character labels people wrote in fa-diagrams' whole ink (ink/, ink_truth/)
# with the label model: each label's strokes rasterized together as one drawing, classified
# by `strokekit evaluate --strokes` (the classifier's own stroke path). Prints the evaluation
# (accuracy, per-class figures, look-alike accuracy); --json prints it as JSON.
# fa-diagrams is evaluation data: the drawings go to a temporary file only.
#
#   scripts/label-benchmark.sh [--json] [FA_DIAGRAMS_DIR] [MODEL]
set -euo pipefail
cd "$(dirname "$0")/.."
json=()
if [ "${1:-}" = "--json" ]; then json=(--json); shift; fi
fa="${1:-../shared/datasets/fa-diagrams}"
model="${2:-models/unipen-labels.safetensors}"
if [ ! -d "$fa/ink" ]; then
    echo "label-benchmark: skipped: $fa/ink not found (fa-diagrams is not part of the repository)" >&2
    exit 0
fi
strokekit="${STROKEKIT:-$(swift build -c release --product strokekit --show-bin-path)/strokekit}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 scripts/label_benchmark.py "$fa" "$work/labels.ndjson"
"$strokekit" evaluate --model "$model" --strokes "$work/labels.ndjson" "${json[@]}"
