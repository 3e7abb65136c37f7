#!/usr/bin/env bash
# Reproducibly trains the label model, the character recognizer of handwritten automaton
# labels, on UNIPEN train_r01_v07 (CC BY 4.0; ../shared/datasets/unipen, or the Zenodo
# download of the same data unpacked to a folder with data/ and include/), and writes
#   Sources/StrokeKit/Resources/unipen-labels.safetensors  (int8 weights, F16 scales and biases;
#       bundled for the editor, models/unipen-labels.safetensors links to it)
#   models/unipen-labels.evaluation.json   (held-out writers: `strokekit evaluate --json`
#       without the list of misclassified characters, which the test report shows)
#   out/label-model/train.jsonl, report.html, test-report.html  (log, training and test reports)
# Training uses the writers of the fixed split's train part only (docs/label-model.md), each character drawn
# within its writer's height and once more alone, in three channels: framed, aspect-fit, and
# aspect-fit with the ink weighted by the pen's order (--framing, recorded in the model file), the
# rare separators shown three times each (--unipen-repeat, each copy augmented anew) and only
# framed (--unipen-never-alone: a separator is never a label of its own); it keeps the last
# epoch of the cosine schedule (no validation split). Same data and flags give the same
# tensors (`strokekit inspect` prints their checksum).
# Usage: scripts/train-label-model.sh [UNIPEN_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
unipen="${1:-../shared/datasets/unipen}"
if [ ! -d "$unipen/data" ] || [ ! -d "$unipen/include" ]; then
    echo "train-label-model: $unipen has no data/ and include/ (UNIPEN train_r01_v07)" >&2
    exit 1
fi
swift build -c release --product strokekit >&2
strokekit="$(swift build -c release --product strokekit --show-bin-path)/strokekit"
out=out/label-model
mkdir -p "$out"
model=Sources/StrokeKit/Resources/unipen-labels.safetensors
recipe=(--epochs 8 --batch-size 64 --learning-rate 0.002 --lr-schedule cosine --augment --seed 0
        --framing reference-height:18+aspect-fit+pen-order --unipen-repeat ',+.{}=3' --unipen-never-alone ',+.{}'
        --arch c16-p-c32-p-c64-p-d128 --precision int8 --validation-split 0 --workers 2)
rm -f "$out/train.jsonl"
"$strokekit" train --unipen "$unipen" --unipen-part train "${recipe[@]}" --output "$model" \
    --log "$out/train.jsonl" --checkpoint "$out/checkpoint.bin" --report "$out/report.html" --json | tail -n 1 >&2
"$strokekit" evaluate --model "$model" --unipen "$unipen" --unipen-part test --report "$out/test-report.html" --json \
    | python3 -c 'import json, sys; e = json.load(sys.stdin); e.pop("misclassified"); json.dump(e, sys.stdout, sort_keys=True); print()' \
    > models/unipen-labels.evaluation.json
"$strokekit" inspect "$model" >&2
swift build -c release --product strokekit >&2   # so the built strokekit bundles the new model
echo "wrote $model ($(wc -c < "$model") bytes)" >&2
