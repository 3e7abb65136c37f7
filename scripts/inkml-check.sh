#!/usr/bin/env bash
# Reads every FA database diagram with `strokekit recognize` three ways and compares the
# automata (state names, finals, initial states, every transition and its symbols, free ends
# included, each line's symbol kind, and the verdict of every word of expected.json):
#   A. its source InkML file (../shared/datasets/fa-diagrams/inkml/, tablet units, no unit
#      declared: the reader scales the drawing to a 600-point extent);
#   B. the same traces rewritten as InkML in screen points (tablet units / 40, full precision,
#      units="px": read at their true size), so A and B differ in units and scale only;
#   C. the dataset's ndjson of the same strokes (ink/: tablet units / 40, rounded to 0.1 point).
# A = B shows the reading does not depend on the InkML's units; A = C is the same automaton as
# the ndjson file, up to what its 0.1-point rounding changes.
# Evaluation only: the dataset is never copied into the repository (B is written to a
# temporary folder).
# Usage: scripts/inkml-check.sh [--debug]   (default: the release build)
# Exit status 1 when A and B differ for any diagram. Skipped (exit 0) with a message when the
# dataset is absent. Needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/strokekit-cli.sh
source scripts/strokekit-cli.sh
fa_diagrams inkml-check inkml ink
configuration=release
[ "${1:-}" = "--debug" ] && configuration=debug
strokekit_cli inkml-check "$configuration"
echo "inkml-check: machine: $("$strokekit" bench --machine)" >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The automaton of one reading, as one JSON line.
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
# The traces of an InkML file in screen points (value / 40), declared as pixels.
screen_points() {
    python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
out = ["<ink><traceFormat><channel name=\"X\" units=\"px\"/><channel name=\"Y\" units=\"px\"/></traceFormat>"]
for trace in root.iter():
    if trace.tag.split("}")[-1] == "trace":
        points = [p.split() for p in trace.text.strip().split(",")]
        out.append("<trace>" + ", ".join(repr(float(p[0]) / 40) + " " + repr(float(p[1]) / 40) for p in points) + "</trace>")
print("\n".join(out + ["</ink>"]))' "$1"
}

units_same=0
ndjson_same=0
total=0
for inkml in "$data"/inkml/*.inkml; do
    name="$(basename "$inkml" .inkml)"
    mapfile -t words < <(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))[sys.argv[2] + ".ndjson"]))' "$data/expected.json" "$name")
    screen_points "$inkml" > "$work/b.inkml"
    "$strokekit" recognize "$inkml" --dot "$work/a.dot" --json --simulate "${words[@]}" > "$work/a.json"
    "$strokekit" recognize "$work/b.inkml" --dot "$work/b.dot" --json --simulate "${words[@]}" > "$work/b.json"
    "$strokekit" recognize "$data/ink/$name.ndjson" --dot "$work/c.dot" --json --simulate "${words[@]}" > "$work/c.json"
    for x in a b c; do summary "$work/$x.json" > "$work/$x.summary"; done
    total=$((total + 1))
    verdict_b="differs"
    verdict_c="differs"
    if cmp -s "$work/a.dot" "$work/b.dot" && cmp -s "$work/a.summary" "$work/b.summary"; then
        units_same=$((units_same + 1)); verdict_b="same"
    fi
    if cmp -s "$work/a.dot" "$work/c.dot" && cmp -s "$work/a.summary" "$work/c.summary"; then
        ndjson_same=$((ndjson_same + 1)); verdict_c="same"
    fi
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("inkml-check: %-18s %d states, %d transitions, %d words; screen-point InkML: %s; ndjson: %s" % (
    sys.argv[2], len(d["states"]), len(d["transitions"]), len(d["words"]), sys.argv[3], sys.argv[4]))' \
        "$work/a.summary" "$name" "$verdict_b" "$verdict_c"
    if [ "$verdict_c" = differs ]; then
        python3 -c '
import json, sys
a, c = (json.load(open(p)) for p in sys.argv[1:3])
lines = [i + 1 for i, (x, y) in enumerate(zip(a["lines"], c["lines"])) if x != y]
print("inkml-check:   lines read differently from the ndjson: " + ", ".join("%d (%s / %s)" % (i, a["lines"][i - 1], c["lines"][i - 1]) for i in lines))
print("inkml-check:   states %d / %d, transitions %d / %d, words agreeing %d of %d" % (len(a["states"]), len(c["states"]),
    len(a["transitions"]), len(c["transitions"]), sum(x == y for x, y in zip(a["words"], c["words"])), len(a["words"])))' \
            "$work/a.summary" "$work/c.summary"
    fi
done
echo "inkml-check: $units_same of $total diagrams give the same automaton from InkML in tablet units and in screen points"
echo "inkml-check: $ndjson_same of $total give the same automaton from InkML and from the ndjson ink (rounded to 0.1 point)"
[ "$units_same" -eq "$total" ]
