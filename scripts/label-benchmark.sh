#!/usr/bin/env bash
# Reads the labels people wrote in fa-diagrams' whole ink (ink/, ink_truth/) and scores the
# single-character ones, for all diagrams and for the tuning and the check half of the
# writers (the fa-benchmark's fixed split).
#
# --read reader (the default): every diagram's labels, grouped as the writer grouped them and
# attached to what ink_truth/ says they label (strokes and that kind only, never the text), are
# read together by `strokekit read-labels`, the sketch reader's own reading of labels: each
# character within what the diagram's other labels allow (its transitions' alphabet, its state
# names' form), with the bundled character model. --json prints one object
# {"read", "all", "tuning", "check"}.
#
# --read model: the label model alone, without the diagram's context: each single-character
# label's strokes rasterized together as one drawing, framed by its diagram's usual label height
# (--frame diagram, the default: CharacterFrame(labelHeights:) from the boxes of all the
# diagram's labels) or alone (--frame alone), and classified by `strokekit evaluate --strokes`
# with MODEL among all its classes. --json prints one object {"frame", "all", "tuning", "check"}.
#
# fa-diagrams is evaluation data: the drawings go to a temporary folder only.
#
#   scripts/label-benchmark.sh [--json] [--read reader|model] [--frame diagram|alone] [FA_DIAGRAMS_DIR] [MODEL]
set -euo pipefail
cd "$(dirname "$0")/.."
json=()
frame=diagram
read=reader
while [ $# -gt 0 ]; do
    case "$1" in
        --json) json=(--json); shift ;;
        --read) read="${2:?--read needs reader or model}"; shift 2 ;;
        --frame) frame="${2:?--frame needs diagram or alone}"; shift 2 ;;
        *) break ;;
    esac
done
case "$read" in reader|model) ;; *) echo "label-benchmark: --read takes reader or model, not $read" >&2; exit 2 ;; esac
fa="${1:-../shared/datasets/fa-diagrams}"
model="${2:-models/unipen-labels.safetensors}"
if [ ! -d "$fa/ink" ]; then
    echo "label-benchmark: skipped: $fa/ink not found (fa-diagrams is not part of the repository)" >&2
    exit 0
fi
strokekit="${STROKEKIT:-$(swift build -c release --product strokekit --show-bin-path)/strokekit}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ "$read" = reader ]; then
    python3 scripts/label_benchmark.py labels "$fa" "$work/labels.ndjson"
    "$strokekit" read-labels --json "$work/labels.ndjson" > "$work/read.jsonl"
    python3 scripts/label_benchmark.py score "${json[@]}" "$fa" "$work/read.jsonl"
    exit 0
fi
python3 scripts/label_benchmark.py drawings --frame "$frame" "$fa" "$work/labels"
for part in all tuning check; do
    if [ ${#json[@]} -eq 0 ]; then echo "== $part (the model alone, framed: $frame)"; fi
    "$strokekit" evaluate --model "$model" --strokes "$work/labels-$part.ndjson" "${json[@]}" > "$work/$part.out"
    if [ ${#json[@]} -eq 0 ]; then cat "$work/$part.out"; fi
done
if [ ${#json[@]} -gt 0 ]; then
    python3 -c 'import json, sys; d = sys.argv[1]
print(json.dumps({"frame": sys.argv[2], **{p: json.load(open(f"{d}/{p}.out")) for p in ("all", "tuning", "check")}}))' \
        "$work" "$frame"
fi
