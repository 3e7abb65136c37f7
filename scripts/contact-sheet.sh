#!/usr/bin/env bash
# Makes docs/contact-sheet.png: for each class, rows of real automata-shapes images (as drawn
# by MNIST Maker) above rows of synthetic strokes from `strokekit synth`, rasterized the way the
# classifier sees strokes; and docs/contact-sheet-non-shapes.png: synthetic non-shapes (the
# reject class 'none'). Run from the project root after `swift build -c release --product strokekit`.
#
#   scripts/contact-sheet.sh [DATASET_DIR] [OUTPUT_PNG] [NON_SHAPES_PNG]
set -euo pipefail

dataset="${1:-datasets/automata-shapes}"
output="${2:-docs/contact-sheet.png}"
non_shapes_output="${3:-docs/contact-sheet-non-shapes.png}"
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
"$strokekit" synth --out "$work/none.ndjson" --kinds none --count $((columns * 4)) --seed "$seed" >/dev/null
"$strokekit" montage "$work/none.ndjson" --out "$non_shapes_output" --columns "$columns" --rows 4 --scale 3 --gap 2
