#!/usr/bin/env python3
"""A JFLAP-side check of `strokekit recognize --jff`: reads each .jff file with a reader of its
own (Python's xml.etree, nothing shared with StrokeKit) and simulates words the way JFLAP's
finite-automaton simulator does: a transition reads its whole <read> string, an empty read is
a lambda move, one initial state, accepted when a final state is reached after the whole word.
Compares every verdict with StrokeKit's own on the same recognized automaton (from
`recognize --json --simulate`), and counts agreement with the truth in expected.json.

usage: check_jflap.py EXPECTED.json NAME=FILE.jff=REPORT.json ...   (standard library only)
Prints one line per file and exits 1 when a JFLAP verdict differs from StrokeKit's."""
import json, sys, xml.etree.ElementTree as ET


def read_jff(path):
    root = ET.parse(path).getroot()
    assert root.tag == "structure" and root.findtext("type") == "fa", f"{path}: not a JFLAP finite automaton"
    automaton = root.find("automaton") if root.find("automaton") is not None else root
    states = {s.get("id"): s for s in automaton.findall("state")}
    initial = [i for i, s in states.items() if s.find("initial") is not None]
    assert len(initial) <= 1, f"{path}: JFLAP allows one initial state"
    final = {i for i, s in states.items() if s.find("final") is not None}
    moves = [(t.findtext("from"), t.findtext("to"), t.findtext("read") or "") for t in automaton.findall("transition")]
    return initial, final, moves


def accepts(initial, final, moves, word):
    # Configurations (state, position) explored as JFLAP's simulator does; reads are strings.
    seen, stack = set(), [(q, 0) for q in initial]
    while stack:
        state, position = stack.pop()
        if (state, position) in seen:
            continue
        seen.add((state, position))
        if position == len(word) and state in final:
            return True
        for source, target, read in moves:
            if source == state and word.startswith(read, position):
                stack.append((target, position + len(read)))
    return False


def main():
    expected = json.load(open(sys.argv[1]))
    failures, total, truth_files = 0, 0, 0
    for argument in sys.argv[2:]:
        name, path, report = argument.split("=", 2)
        initial, final, moves = read_jff(path)
        ours = {entry["input"]: entry["accepted"] for entry in json.load(open(report))["simulations"]}
        words = expected[name]
        differ = [w for w in words if accepts(initial, final, moves, w) != ours[w]]
        truth = sum(accepts(initial, final, moves, w) == verdict for w, verdict in words.items())
        print(f"check-jflap: {name}: {len(moves)} JFLAP transitions; {len(words) - len(differ)}/{len(words)} words "
              f"as StrokeKit simulates them, {truth}/{len(words)} as the truth"
              + (f" (differ: {', '.join(repr(w) for w in differ[:5])})" if differ else ""))
        failures += bool(differ)
        total += 1
        truth_files += truth == len(words)
    print(f"check-jflap: {total - failures} of {total} JFLAP files simulate every word as StrokeKit does; "
          f"{truth_files} of {total} as the truth")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
