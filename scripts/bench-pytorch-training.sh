#!/usr/bin/env bash
# StrokeKit's training throughput against PyTorch's on the same network, data, batch size,
# optimizer and thread count, in one run: writes 640 seeded 28x28 images, then alternates
# `strokekit bench --training-only` and PyTorch (scripts/bench_pytorch_training.py, in
# .venv-bench-pytorch from scripts/bench-pytorch-requirements.txt) for ROUNDS rounds
# (default 5), so that a shared machine's drift hits both sides, and prints the median,
# spread (min..max) and per-round ratio. Results land in out/bench-pytorch/ (summary.json).
# STROKEKIT=PATH measures that binary instead of building the release CLI.
# Usage: scripts/bench-pytorch-training.sh [ROUNDS] [THREADS] [EPOCHS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
threads=${2:-2}
epochs=${3:-7}
if ! [ "$epochs" -ge 2 ] 2>/dev/null; then
    echo "bench-pytorch-training: EPOCHS must be a whole number of at least 2 (the first epoch is warm-up and not counted), not '$epochs'" >&2
    exit 2
fi
venv=.venv-bench-pytorch

# shellcheck source=scripts/export-venv.sh
source scripts/export-venv.sh
ensure_venv bench-pytorch-training "$venv" scripts/bench-pytorch-requirements.txt || exit 0
python=$venv/bin/python

# shellcheck source=scripts/strokekit-cli.sh
source scripts/strokekit-cli.sh
strokekit_cli bench-pytorch-training
out=out/bench-pytorch
mkdir -p "$out"
"$python" scripts/bench_pytorch_training.py make-inputs "$out/inputs.u8" 640

: > "$out/strokekit.jsonl"
: > "$out/pytorch.jsonl"
ours() { "$strokekit" bench --training-only --inputs "$out/inputs.u8" --workers "$threads" --epochs "$epochs" --json >> "$out/strokekit.jsonl"; }
theirs() { "$python" scripts/bench_pytorch_training.py run --inputs "$out/inputs.u8" --threads "$threads" --epochs "$epochs" >> "$out/pytorch.jsonl"; }
for round in $(seq 1 "$rounds"); do
    echo "bench-pytorch-training: round $round of $rounds" >&2
    if [ $((round % 2)) -eq 1 ]; then ours; theirs; else theirs; ours; fi
done
"$python" scripts/bench_pytorch_training.py summary "$out/strokekit.jsonl" "$out/pytorch.jsonl" "$out/summary.json"
