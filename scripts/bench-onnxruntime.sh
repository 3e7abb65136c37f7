#!/usr/bin/env bash
# StrokeKit's inference against onnxruntime's on the same model, inputs and thread counts,
# in one run: exports the bundled model to ONNX, writes 256 seeded 28x28 images, then
# alternates `strokekit bench --inference-only` and onnxruntime (scripts/bench_onnxruntime.py,
# in the export tools' .venv-check-exports) for ROUNDS rounds (default 5), so that a shared
# machine's drift hits both sides, and prints each figure's median, spread (min..max) and
# the per-round ratio. Results land in out/bench-onnxruntime/ (summary.json).
# STROKEKIT=PATH measures that binary instead of building the release CLI.
# Usage: scripts/bench-onnxruntime.sh [ROUNDS] [MODEL]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
model=${2:-Sources/StrokeKit/Resources/automata-shapes.safetensors}

# shellcheck source=scripts/export-venv.sh
source scripts/export-venv.sh
ensure_export_venv bench-onnxruntime || exit 0
python=$export_venv/bin/python

# shellcheck source=scripts/strokekit-cli.sh
source scripts/strokekit-cli.sh
strokekit_cli bench-onnxruntime
out=out/bench-onnxruntime
mkdir -p "$out"
"$strokekit" export --model "$model" --format onnx --output "$out/model.onnx" >&2
"$python" scripts/bench_onnxruntime.py make-inputs "$out/inputs.u8"

: > "$out/strokekit.jsonl"
: > "$out/onnxruntime.jsonl"
ours() { "$strokekit" bench --inference-only --model "$model" --inputs "$out/inputs.u8" --json >> "$out/strokekit.jsonl"; }
theirs() { "$python" scripts/bench_onnxruntime.py run --onnx "$out/model.onnx" --inputs "$out/inputs.u8" >> "$out/onnxruntime.jsonl"; }
for round in $(seq 1 "$rounds"); do
    echo "bench-onnxruntime: round $round of $rounds" >&2
    if [ $((round % 2)) -eq 1 ]; then ours; theirs; else theirs; ours; fi
done
"$python" scripts/bench_onnxruntime.py summary "$out/strokekit.jsonl" "$out/onnxruntime.jsonl" "$out/summary.json"
