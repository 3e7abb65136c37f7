#!/usr/bin/env bash
# Reproducibly trains the bundled default model (fixed seed, fixed recipe) and writes its
# evaluation next to it:
#   Sources/StrokeKit/Resources/automata-shapes.safetensors   (the SwiftPM resource; F16)
#   models/automata-shapes.safetensors                        (symlink to it)
#   models/automata-shapes.evaluation.json                    (validation evaluation + reject figures)
# Usage: scripts/train-default-model.sh [DATASET_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dataset="${1:-datasets/automata-shapes}"
strokekit=.build/release/strokekit
swift build -c release --product strokekit >&2

# The recipe: the thesis's network, real images augmented every epoch, plus synthetic
# strokes rendered by StrokeKit's rasterizer (so strokes from any device look familiar)
# and synthetic non-shapes as a reject class 'none'; a cosine learning-rate schedule so the
# best epoch is a settled one. --reject-below 0.5 was chosen on the dev half of the
# real-strokes writers (`scripts/real-strokes-benchmark.sh --model FILE --writers dev --sweep`):
# the largest threshold that costs no shape recall there more than half a point.
recipe=(--epochs 30 --seed 0 --augment --synthetic 900 --negatives 2400 --lr-schedule cosine
        --reject-below 0.5 --precision fp16)

model=Sources/StrokeKit/Resources/automata-shapes.safetensors
"$strokekit" train --data "$dataset" "${recipe[@]}" --output "$model" --json \
    | tail -n 1 > models/automata-shapes.evaluation.json.tmp
mv models/automata-shapes.evaluation.json.tmp models/automata-shapes.evaluation.json
ln -sf ../Sources/StrokeKit/Resources/automata-shapes.safetensors models/automata-shapes.safetensors
"$strokekit" inspect "$model" >&2
echo "wrote $model and models/automata-shapes.evaluation.json" >&2
