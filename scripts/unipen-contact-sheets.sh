#!/usr/bin/env bash
# Makes docs/unipen/<site>.png for every UNIPEN site, excluded ones included, to check that
# each site reads right (strokes match labels, upright): rows of digits (1a), lowercase (1c),
# uppercase (1b) and the separators , + . { } (1d), one character per label in that order,
# first from a training writer, then from a held-out one. A centred dot marks a label the
# site has no character of. Rasterized as the classifier sees strokes.
#
#   scripts/unipen-contact-sheets.sh [UNIPEN_DIR] [OUTPUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
unipen="${1:-../shared/datasets/unipen}"
output="${2:-docs/unipen}"
strokekit="${STROKEKIT:-$(swift build -c release --product strokekit --show-bin-path)/strokekit}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$output"
rows=("1a 0123456789" "1c abcdefghijklmnopqrstuvwxyz" "1b ABCDEFGHIJKLMNOPQRSTUVWXYZ" "1d ,+.{}")
sites=$(for category in 1a 1b 1c 1d; do ls "$unipen/data/$category"; done | sort -u)
for site in $sites; do
    sources=()
    for part in train test; do
        for row in "${rows[@]}"; do
            category="${row%% *}" labels="${row#* }"
            [ -d "$unipen/data/$category/$site" ] || continue
            file="$work/$site-$part-$category.ndjson"
            "$strokekit" unipen "$unipen" --site "$site" --category "$category" --part "$part" \
                --labels "$labels" --per-label 1 --out "$file" >/dev/null
            sources+=("$file")
        done
    done
    "$strokekit" montage "${sources[@]}" --out "$output/$site.png" --columns 26 --rows 1 --scale 1 --gap 1 >/dev/null
    echo "wrote $output/$site.png"
done
