#!/usr/bin/env bash
# Makes docs/contact-sheet.png: for each class, rows of real automata-shapes images (as drawn
# by MNIST Maker) above rows of synthetic strokes from `strokekit synth`, rasterized the way the
# classifier sees strokes. Run from the project root after `swift build -c release --product strokekit`.
#
#   scripts/contact-sheet.sh [DATASET_DIR] [OUTPUT_PNG]
set -euo pipefail

dataset="${1:-datasets/automata-shapes}"
output="${2:-docs/contact-sheet.png}"
strokekit="${STROKEKIT:-$(swift build -c release --product strokekit --show-bin-path)/strokekit}"
columns=14
rows=2
seed=7

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

sources=()
for class in arrow circle cycle; do
    "$strokekit" synth --out "$work/$class.ndjson" --kinds "$class" --count $((columns * rows)) --seed "$seed" >/dev/null
    sources+=("$dataset/$class" "$work/$class.ndjson")
done
"$strokekit" montage "${sources[@]}" --out "$output" --columns "$columns" --rows "$rows" --scale 3 --gap 2
