#!/usr/bin/env bash
# Reads the real hand-drawn automata of ../shared/datasets/fa-diagrams (22 diagrams by 11 people,
# CTU Prague's FA database; evaluation and development only, never copied into the repository)
# with the release `strokekit recognize`, one symbol per line and one stroke per line, and
# prints per diagram and overall: states, finals, initial state, transitions right or not, the
# lines read as their true symbol, every word's verdict; then how often random orders of a
# diagram's symbols give the same automaton as the writer's order.
# Usage: scripts/fa-benchmark.sh [--model FILE] [--orders N] [--seed S] [--only NAME] [--half tuning|check] [--json]
# Figures are printed for the tuning half (even writers) and the check half (odd writers) too.
# Skipped (exit 0) with a message when the dataset is absent. Needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/strokekit-cli.sh
source scripts/strokekit-cli.sh
fa_diagrams fa-benchmark sketches
strokekit_cli fa-benchmark
echo "fa-benchmark: machine: $("$strokekit" bench --machine)" >&2
exec python3 scripts/fa_benchmark.py --data "$data" --binary "$strokekit" "$@"
