#!/usr/bin/env bash
# Reads the single-character labels people wrote in fa-diagrams' whole ink (ink/, ink_truth/)
# with the label model: each label's strokes rasterized together as one drawing, framed by its
# diagram's usual label height (--frame diagram, the default: CharacterFrame(labelHeights:)
# from the boxes of all the diagram's labels) or alone (--frame alone: its own box), and
# classified by `strokekit evaluate --strokes` (the classifier's own stroke path). Prints the
# evaluation of all labels, then of the tuning and the check half of the writers (the
# fa-benchmark's fixed split); --json prints one object {"frame", "all", "tuning", "check"}.
# fa-diagrams is evaluation data: the drawings go to a temporary folder only.
#
#   scripts/label-benchmark.sh [--json] [--frame diagram|alone] [FA_DIAGRAMS_DIR] [MODEL]
set -euo pipefail
cd "$(dirname "$0")/.."
json=()
frame=diagram
while [ $# -gt 0 ]; do
    case "$1" in
        --json) json=(--json); shift ;;
        --frame) frame="${2:?--frame needs diagram or alone}"; shift 2 ;;
        *) break ;;
    esac
done
fa="${1:-../shared/datasets/fa-diagrams}"
model="${2:-models/unipen-labels.safetensors}"
if [ ! -d "$fa/ink" ]; then
    echo "label-benchmark: skipped: $fa/ink not found (fa-diagrams is not part of the repository)" >&2
    exit 0
fi
strokekit="${STROKEKIT:-$(swift build -c release --product strokekit --show-bin-path)/strokekit}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 scripts/label_benchmark.py --frame "$frame" "$fa" "$work/labels"
for part in all tuning check; do
    if [ ${#json[@]} -eq 0 ]; then echo "== $part (framed: $frame)"; fi
    "$strokekit" evaluate --model "$model" --strokes "$work/labels-$part.ndjson" "${json[@]}" > "$work/$part.out"
    if [ ${#json[@]} -eq 0 ]; then cat "$work/$part.out"; fi
done
if [ ${#json[@]} -gt 0 ]; then
    python3 -c 'import json, sys; d = sys.argv[1]
print(json.dumps({"frame": sys.argv[2], **{p: json.load(open(f"{d}/{p}.out")) for p in ("all", "tuning", "check")}}))' \
        "$work" "$frame"
fi
