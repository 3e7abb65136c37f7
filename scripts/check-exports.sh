#!/usr/bin/env bash
# Checks `strokekit export` with each format's own tools, for the bundled default model
# (4 classes with the reject class 'none') and a small model trained here with a
# non-default architecture (5x5 and 1x1 kernels, a pool of an odd-sized map, dropout,
# a confidence threshold) stored as int8 (exported dequantized, as StrokeKit loads it;
# Python's safetensors must read that file too):
#   ONNX:    onnx.checker passes; onnxruntime's probabilities match StrokeKit's on every image
#            of the thesis dataset within 1e-5 and the argmax agrees on all.
#   Core ML: coremltools loads the .mlmodel; its spec passes the classifier rules; a NumPy
#            interpreter of the spec's layers (scripts/coreml_numpy.py) fed the 8-bit pixels
#            matches StrokeKit's probabilities within 1e-5, argmax agreeing on all.
# StrokeKit's inputs and probabilities come from `strokekit export --check-data`, so every
# runtime is fed the very same float32 inputs. Python packages go into .venv-check-exports
# (scripts/check-exports-requirements.txt); without PyPI the check says it is skipped.
# Outputs land in out/check-exports/. Exit status 1 when a check fails.
# Usage: scripts/check-exports.sh
set -euo pipefail
cd "$(dirname "$0")/.."

dataset=datasets/automata-shapes
[ -d "$dataset" ] || dataset=../shared/datasets/automata-shapes
if [ ! -d "$dataset" ]; then
    echo "check-exports: skipped: no dataset at datasets/automata-shapes or ../shared/datasets/automata-shapes" >&2
    exit 0
fi

# shellcheck source=scripts/export-venv.sh
source scripts/export-venv.sh
ensure_export_venv check-exports || exit 0
venv=$export_venv

echo "check-exports: building the release CLI" >&2
swift build -c release --product strokekit >&2
strokekit=.build/release/strokekit
out=out/check-exports
mkdir -p "$out"

status=0
small_arch=c8k5-p-c16-p-c24k1-p-d32-dr0.5
echo "check-exports: training $small_arch for 2 epochs" >&2
"$strokekit" train --data "$dataset" --arch "$small_arch" --epochs 2 --reject-below 0.5 \
    --precision int8 --output "$out/small.safetensors" > "$out/small.train.txt" 2>&1
"$venv/bin/python" scripts/check-safetensors.py "$out/small.safetensors" > "$out/small.safetensors.txt" || status=1

check() {  # name model
    local name=$1 model=$2
    "$strokekit" export --model "$model" --format onnx --output "$out/$name.onnx" \
        --check-data "$dataset" --check-output "$out/$name.reference.json" 2>/dev/null
    "$strokekit" export --model "$model" --format coreml --output "$out/$name.mlmodel"
    # coremltools says on import that its macOS-only runtime is missing: expected on Linux.
    "$venv/bin/python" scripts/check_exports.py --name "$name" --reference "$out/$name.reference.json" \
        --onnx "$out/$name.onnx" --coreml "$out/$name.mlmodel" 2> >(grep -v "^Failed to load" >&2) \
        | tee "$out/$name.check.txt" || status=1
}
check default Sources/StrokeKit/Resources/automata-shapes.safetensors
check small "$out/small.safetensors"

echo
grep -h "^summary " "$out"/default.check.txt "$out"/small.check.txt | sed 's/^summary //'
if [ "$status" -eq 0 ]; then
    echo "check-exports: all checks passed"
else
    echo "check-exports: FAILED (see above)" >&2
fi
exit "$status"
