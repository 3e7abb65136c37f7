#!/usr/bin/env bash
# A JFLAP-side check of the JFLAP export: every FA database diagram (symbols typed, one stroke
# per line: ../shared/datasets/fa-diagrams/sketches_per_stroke) is recognized and written with
# `strokekit recognize --jff`, then scripts/check_jflap.py reads each .jff with its own XML
# reader, simulates every word of expected.json with JFLAP's semantics (reads are strings,
# an empty read is lambda) and compares with the truth. Evaluation only, nothing is copied
# into the repository. Also writes each sketch's TikZ document to out/check-jflap/ and
# compiles the first with pdflatex when it is installed. The words of expected.json include
# "" (the empty word), kept as an empty argument.
# Usage: scripts/check-jflap.sh [--debug]
# Skipped (exit 0) with a message when the dataset is absent. Needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/strokekit-cli.sh
source scripts/strokekit-cli.sh
fa_diagrams check-jflap sketches_per_stroke
configuration=release
[ "${1:-}" = "--debug" ] && configuration=debug
strokekit_cli check-jflap "$configuration"
echo "check-jflap: machine: $("$strokekit" bench --machine)" >&2
out=out/check-jflap
mkdir -p "$out"
pairs=()
for sketch in "$data"/sketches_per_stroke/*.ndjson; do
    name="$(basename "$sketch" .ndjson)"
    mapfile -t words < <(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))[sys.argv[2]]))' "$data/expected.json" "$name.ndjson")
    # JFLAP cannot express every recognized automaton (several initial states): say so and go on.
    if ! "$strokekit" recognize "$sketch" --jff "$out/$name.jff" --tikz "$out/$name.tex" --json --simulate "${words[@]}" \
        > "$out/$name.json" 2> "$out/$name.err"; then
        echo "check-jflap: $name.ndjson: no JFLAP file: $(cat "$out/$name.err")"
        continue
    fi
    pairs+=("$name.ndjson=$out/$name.jff=$out/$name.json")
done
python3 scripts/check_jflap.py "$data/expected.json" "${pairs[@]}"
if command -v pdflatex >/dev/null 2>&1; then
    first="$(ls "$out"/*.tex | head -n 1)"
    (cd "$out" && pdflatex -interaction=nonstopmode -halt-on-error "$(basename "$first")" > /dev/null) \
        && echo "check-jflap: $first compiles with pdflatex"
fi
