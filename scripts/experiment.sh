#!/usr/bin/env bash
# The end-to-end experiment a data scientist would run in a notebook:
#   1. train the default network on a folder-per-class dataset (80/20 stratified split)
#      and print the validation evaluation;
#   2. 5-fold cross-validation with the same recipe: mean ± std accuracy and the summed
#      confusion matrix.
# Outputs go to out/ (model, per-epoch logs, cross-validation JSON).
# Usage: scripts/experiment.sh [DATASET_DIR]   (default datasets/automata-shapes, kept in the repository)
set -euo pipefail
cd "$(dirname "$0")/.."
dataset="${1:-datasets/automata-shapes}"
if [ ! -d "$dataset" ]; then
    echo "experiment: no dataset at $dataset (see README, 'Data and licences')" >&2
    exit 1
fi
strokekit=.build/release/strokekit
[ -x "$strokekit" ] || swift build -c release --product strokekit
mkdir -p out

echo "== training on $dataset (seed 0, 20 epochs, 80/20 split)"
"$strokekit" train --data "$dataset" --output out/model.safetensors --log out/train-log.jsonl

echo
echo "== 5-fold cross-validation"
"$strokekit" train --data "$dataset" --folds 5 --log out/cv-log.jsonl
