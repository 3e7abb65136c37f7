#!/usr/bin/env bash
# Reads every FA database diagram twice with `strokekit recognize`: once from its source InkML
# file (../shared/datasets/fa-diagrams/inkml/, tablet units) and once from the same strokes as
# ndjson (ink/, screen points = tablet units / 40, rounded to 0.1), and checks that both give
# the same automaton: the same DOT export (state names, finals, initial states, every
# transition and its symbols) and the same verdict on every word of expected.json.
# Evaluation only: the dataset is never copied into the repository.
# Usage: scripts/inkml-check.sh [--debug]   (default: the release build)
# Skipped (exit 0) with a message when the dataset is absent. Needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/datasets/fa-diagrams
if [ ! -d "$data/inkml" ] || [ ! -d "$data/ink" ]; then
    echo "inkml-check: skipped, $data is absent (see docs/benchmarks.md)" >&2
    exit 0
fi
configuration=release
[ "${1:-}" = "--debug" ] && configuration=debug
swift build -c "$configuration" --product strokekit >&2
strokekit=".build/$configuration/strokekit"
echo "inkml-check: machine: $("$strokekit" bench --machine)" >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
same=0
total=0
for inkml in "$data"/inkml/*.inkml; do
    name="$(basename "$inkml" .inkml)"
    words="$(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))[sys.argv[2] + ".ndjson"]))' "$data/expected.json" "$name")"
    mapfile -t list <<< "$words"
    "$strokekit" recognize "$inkml" --dot "$work/a.dot" --json --simulate "${list[@]}" > "$work/a.json"
    "$strokekit" recognize "$data/ink/$name.ndjson" --dot "$work/b.dot" --json --simulate "${list[@]}" > "$work/b.json"
    total=$((total + 1))
    # The automaton of each reading: states (name, initial, final), transitions (from, to,
    # symbols, epsilon; free ends included), every word's verdict, and each line's symbol kind.
    summary() {
        python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(json.dumps({
    "states": [(s["name"], s["initial"], s["final"]) for s in d["states"]],
    "transitions": [(t["from"], t["to"], t["symbols"], t["epsilon"]) for t in d["transitions"]],
    "words": [(w["input"], w["accepted"]) for w in d["simulations"]],
    "lines": [s["symbol"] for s in d["strokes"]]}, sort_keys=True))' "$1"
    }
    summary "$work/a.json" > "$work/a.summary"
    summary "$work/b.json" > "$work/b.summary"
    if cmp -s "$work/a.dot" "$work/b.dot" && cmp -s "$work/a.summary" "$work/b.summary"; then
        same=$((same + 1))
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("inkml-check: %-18s same automaton: %d states, %d transitions, %d words agree" % (sys.argv[2], len(d["states"]), len(d["transitions"]), len(d["words"])))' "$work/a.summary" "$name"
    else
        echo "inkml-check: $name DIFFERS (InkML < > ndjson):" >&2
        diff "$work/a.dot" "$work/b.dot" >&2 || true
        diff <(tr ']' '\n' < "$work/a.summary") <(tr ']' '\n' < "$work/b.summary") >&2 || true
    fi
done
echo "inkml-check: $same of $total diagrams give the same automaton from InkML (tablet units) and ndjson (screen points)"
[ "$same" -eq "$total" ]
