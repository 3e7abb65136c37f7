#!/usr/bin/env python3
"""Scores `strokekit recognize` on the fa-diagrams set (real hand-drawn automata by other people).

For every diagram, once one symbol per line (`sketches/`) and once one stroke per line in the
writer's order (`sketches_per_stroke/`): runs `strokekit recognize --json --simulate WORDS` and
compares with `truth/` and `expected.json`: states, finals, initial state and transitions (states
matched to the true ones by position), every line's symbol, every word's verdict. Then the whole ink
(`ink/`, every stroke the writer drew, handwritten labels included, one stroke a line): once with
nothing typed (the reader must read the labels) and once with each transition's symbols typed on
its arrow's first stroke (handwriting must not break the structure); per diagram, the strokes
decided text or shape right, the labels grouped right (exactly the true label's strokes), attached
right (to the true transition or state, or to nothing) and read right (a transition label's
symbols, a state's name), scored against `ink_truth/`. Then the order measure: seeded random
orders of each diagram's symbol lines, and of the ink's symbols and labels (each kept whole), must
give the same automaton as the writer's order. Python standard library only; called by
scripts/fa-benchmark.sh.

The diagrams are split by writer into two fixed halves, printed separately: the tuning half
(even writer numbers: writers 000, 002, 004, 006, 008, 010; 11 diagrams) is where rules and
parameters of the reader are chosen; the check half (odd writer numbers: 001, 003, 005, 007,
009; 11 diagrams) only measures them. A change that helps the tuning half and costs the check
half is not taken (docs/recognition.md).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile


def run_recognize(binary, sketch, words, model=None):
    command = [binary, "recognize", sketch, "--json"] + (["--model", model] if model else [])
    if words:
        command += ["--simulate"] + list(words)
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{sketch}: strokekit recognize failed: {result.stderr.strip()}")
    return json.loads(result.stdout)


def match_states(report, truth):
    """Maps each recognized state name to the id of the nearest true state (by centre)."""
    mapping = {}
    for state in report["states"]:
        cx, cy = state["center"]
        best = min(truth["states"], key=lambda t: (t["center"][0] - cx) ** 2 + (t["center"][1] - cy) ** 2)
        mapping[state["name"]] = best["id"]
    return mapping


def canonical(report, truth):
    """The automaton in the true states' ids: (states, finals, initial, transitions)."""
    mapping = match_states(report, truth)
    states = sorted(mapping.values())
    finals = sorted(mapping[s["name"]] for s in report["states"] if s["final"])
    initial = sorted(mapping[s["name"]] for s in report["states"] if s["initial"])
    transitions = sorted(
        ((mapping.get(t["from"], -1), mapping.get(t["to"], -1), tuple(sorted(t["symbols"])), bool(t["epsilon"]))
         for t in report["transitions"]
         if t["from"] is not None or t["to"] is not None),
    )
    return states, finals, initial, transitions


def true_automaton(truth):
    states = sorted(s["id"] for s in truth["states"])
    finals = sorted(truth["finals"])
    initial = sorted(truth["initial"])
    transitions = sorted(
        (t["from"], t["to"], tuple(sorted(t["symbols"])), bool(t["epsilon"]) and not t["symbols"])
        for t in truth["transitions"]
    )
    return states, finals, initial, transitions


def describe_transition(t):
    label = ",".join(t[2]) if t[2] else ("ε" if t[3] else "(no symbols)")
    ends = ["?" if end == -1 else str(end) for end in t[:2]]  # -1: a free end
    return f"{ends[0]}→{ends[1]} {label}"


def symbol_kinds(truth):
    """What each true symbol is, as the report's `symbol` roles name it."""
    kinds = {}
    for s in truth["states"]:
        kinds[s["id"]] = "final state" if s["final"] else "state"
    initial_arrows = set(truth.get("initial_arrows", []))
    for t in truth["transitions"]:
        kinds[t["arrow"]] = "self-loop" if t["self_loop"] else "transition"
    for a in initial_arrows:
        kinds[a] = "initial arrow"
    return kinds


def kind_of_outcome(outcome):
    """The symbol kind an outcome text names (for reports without a `symbol` key)."""
    for prefix, kind in (("final state", "final state"), ("state", "final state" if "made final" in outcome else "state"),
                         ("initial arrow", "initial arrow"), ("transition", "transition"),
                         ("self-loop", "self-loop"), ("rejected", "rejected")):
        if outcome.startswith(prefix):
            return kind
    return outcome


def line_symbols(truth, per_stroke):
    entries = truth["stroke_lines"] if per_stroke else truth["symbol_lines"]
    return {e["line"]: e["symbol"] for e in entries}


def score(report, truth, expected, per_stroke):
    """A dict of what is right and a list of what went wrong."""
    problems = []
    got = canonical(report, truth)
    want = true_automaton(truth)
    names = ("states", "finals", "initial", "transitions")
    parts = {}
    for name, g, w in zip(names, got, want):
        parts[name] = g == w
        if g != w:
            if name == "transitions":
                missing = [describe_transition(t) for t in w if t not in g]
                extra = [describe_transition(t) for t in g if t not in w]
                problems.append(f"transitions: missing {missing or '-'}, extra {extra or '-'} (true state ids)")
            else:
                problems.append(f"{name}: got {g}, true {w}")
    # Every line: which symbol it was part of, and what the reader made of it.
    kinds = symbol_kinds(truth)
    symbol_of_line = line_symbols(truth, per_stroke)
    strokes = report.get("strokes", [])
    right_lines = 0
    for entry in strokes:
        line = entry["line"] - 1
        symbol = symbol_of_line.get(line)
        want_kind = kinds.get(symbol, "?")
        got_kind = entry.get("symbol") or kind_of_outcome(entry.get("outcome", ""))
        ok = got_kind == want_kind
        if ok:
            right_lines += 1
        elif len(problems) < 12:
            unit = "stroke" if per_stroke else "symbol"
            problems.append(f"line {line + 1} ({unit} of true symbol {symbol}, a {want_kind}): read as {got_kind}")
    words_right = sum(1 for s in report["simulations"] if expected.get(s["input"]) == s["accepted"])
    wrong_words = [s["input"] or "ε" for s in report["simulations"] if expected.get(s["input"]) != s["accepted"]]
    if wrong_words:
        problems.append(f"{len(wrong_words)} wrong verdicts, e.g. {wrong_words[:6]}")
    return {
        **parts,
        "lines_right": right_lines,
        "lines": len(strokes),
        "words_right": words_right,
        "words": len(report["simulations"]),
        # The score of the set: a diagram is fully right when its states, finals, initial
        # states and transitions are the true ones and every word gets its true verdict.
        "diagram_right": all(parts.values()) and words_right == len(report["simulations"]),
    }, problems


def ink_lines(data, name):
    return [line for line in open(os.path.join(data, "ink", name + ".ndjson")) if line.strip()]


def typed_ink(lines, ink_truth):
    """The ink with each transition's symbols (and ε flag) typed on its arrow's first stroke."""
    first_line = {}
    for entry in ink_truth["strokes"]:
        if entry["role"] == "arrow":
            first_line.setdefault(entry["symbol"], entry["line"])
    typed = list(lines)
    for transition in ink_truth["transitions"]:
        line = first_line.get(transition["arrow"])
        if line is None:
            continue
        record = json.loads(typed[line])
        record["symbols"] = transition["symbols"]
        if transition.get("epsilon"):
            record["epsilon"] = True
        typed[line] = json.dumps(record) + "\n"
    return typed


def ink_units(ink_truth):
    """The ink's lines grouped into what a person draws as one thing: each shape symbol's
    strokes and each label's strokes, in the writer's order within a unit."""
    units = {}
    for entry in ink_truth["strokes"]:
        key = ("label", entry["label"]) if entry["role"] == "label" else ("symbol", entry["symbol"])
        units.setdefault(key, []).append(entry["line"])
    return list(units.values())


def score_ink(report, truth, ink_truth, expected):
    """The automaton and verdicts as `score` does, and the text stage: strokes decided text or
    shape right, labels grouped, attached and read right."""
    result, problems = score(report, truth, expected, per_stroke=True)
    problems = [p for p in problems if not p.startswith("line ")]
    roles = {e["line"]: e for e in ink_truth["strokes"]}
    kinds = symbol_kinds(truth)
    text_right = shape_kind_right = shapes = 0
    for entry in report.get("strokes", []):
        line = entry["line"] - 1
        want_text = roles[line]["role"] == "label"
        got_text = entry.get("kind") == "text"
        if want_text == got_text:
            text_right += 1
        elif len(problems) < 16:
            what = f"label {roles[line]['label']}" if want_text else f"a {kinds.get(roles[line]['symbol'], '?')}"
            problems.append(f"line {line + 1} ({what}): decided {'text' if got_text else 'shape'}")
        if not want_text:
            shapes += 1
            shape_kind_right += entry.get("symbol") == kinds.get(roles[line]["symbol"], "?")
    got_labels = {tuple(sorted(label["strokes"])): label for label in report.get("labels", [])}

    def owner_of(label):
        if label["belongsTo"] == "nothing" or not label["ownerStrokes"]:
            return {}
        ids = [roles[s]["symbol"] for s in label["ownerStrokes"] if "symbol" in roles.get(s, {})]
        return {label["belongsTo"]: max(set(ids), key=ids.count)} if ids else {}

    counts = {key: 0 for key in ("labels", "grouped", "attached", "transition_labels", "transition_read",
                                  "state_names", "state_read")}
    for label in ink_truth["labels"]:
        counts["labels"] += 1
        got = got_labels.get(tuple(sorted(label["lines"])))
        is_transition = "transition" in label["of"]
        is_state = "state" in label["of"]
        counts["transition_labels"] += is_transition
        counts["state_names"] += is_state
        if got is None:
            if len(problems) < 24:
                near = [l for l in report.get("labels", []) if set(l["strokes"]) & set(label["lines"])]
                problems.append(f"label \"{label['text']}\" (lines {[l + 1 for l in label['lines']]}): grouped as "
                                f"{[[s + 1 for s in l['strokes']] for l in near] or 'nothing'}")
            continue
        counts["grouped"] += 1
        attached = owner_of(got) == label["of"]
        counts["attached"] += attached
        if is_transition:
            want = sorted(label.get("symbols", []))
            read = attached and sorted(got["symbols"]) == want
            counts["transition_read"] += read
        else:
            read = attached and got["text"] == label["text"]
            counts["state_read"] += read and is_state
        if not read and len(problems) < 24:
            problems.append(f"label \"{label['text']}\" (lines {[l + 1 for l in label['lines']]}): read \"{got['text']}\" "
                            f"{got['symbols']}, {'attached right' if attached else 'attached to ' + got['of']}")
    result.update(counts)
    result.update({"text_right": text_right, "strokes": len(report.get("strokes", [])),
                   "shape_kind_right": shape_kind_right, "shapes": shapes})
    return result, problems


def half_of(name):
    """`tuning` or `check`: the fixed half of the writers a diagram belongs to (see above)."""
    writer = int(name[len("writer"):len("writer") + 3])
    return "tuning" if writer % 2 == 0 else "check"


HALVES = ("tuning", "check")


def recognize_orders(args, scratch, stem, orders, words):
    """Each order (the lines of a sketch file) written to `scratch` and recognized: the reports."""
    for number, order in enumerate(orders):
        path = os.path.join(scratch, f"{stem}-{number}.ndjson")
        with open(path, "w") as handle:
            handle.writelines(order)
        yield run_recognize(args.binary, path, words, args.model)


def shuffled_orders(lines, count, seed):
    generator = random.Random(seed)
    for _ in range(count):
        order = list(lines)
        generator.shuffle(order)
        yield order


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--model", help="classifier model file (default: the bundled model)")
    parser.add_argument("--orders", type=int, default=20, help="random symbol orders per diagram")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="only diagrams whose name contains this")
    parser.add_argument("--half", choices=HALVES, help="only the diagrams of one half of the writers")
    parser.add_argument("--json", action="store_true", help="print one JSON object with every figure")
    parser.add_argument("--no-ink", dest="ink", action="store_false", help="leave out the whole ink (ink/)")
    parser.add_argument("--no-sketches", dest="skip_sketches", action="store_true",
                        help="leave out the sketch folders (sketches/, sketches_per_stroke/)")
    parser.add_argument("--verbose", action="store_true", help="print the problems of right diagrams too")
    args = parser.parse_args()

    expected_all = json.load(open(os.path.join(args.data, "expected.json")))
    names = sorted(n[: -len(".ndjson")] for n in expected_all)
    if args.only:
        names = [n for n in names if args.only in n]
    if args.half:
        names = [n for n in names if half_of(n) == args.half]
    log = sys.stderr if args.json else sys.stdout
    summary = {"modes": {}, "orders": {}}
    for mode, folder in () if args.skip_sketches else (("one symbol per line", "sketches"), ("one stroke per line", "sketches_per_stroke")):
        print(f"\n== {mode} ({folder}/)", file=log)
        totals = {"diagrams": 0, "right": 0, "states": 0, "finals": 0, "initial": 0, "transitions": 0,
                  "lines_right": 0, "lines": 0, "words_right": 0, "words": 0}
        failing = []
        halves = {half: {"diagrams": 0, "right": 0} for half in HALVES}
        for name in names:
            truth = json.load(open(os.path.join(args.data, "truth", name + ".json")))
            expected = expected_all[name + ".ndjson"]
            report = run_recognize(args.binary, os.path.join(args.data, folder, name + ".ndjson"), list(expected), args.model)
            result, problems = score(report, truth, expected, folder == "sketches_per_stroke")
            totals["diagrams"] += 1
            totals["right"] += result["diagram_right"]
            halves[half_of(name)]["diagrams"] += 1
            halves[half_of(name)]["right"] += result["diagram_right"]
            for key in ("states", "finals", "initial", "transitions"):
                totals[key] += result[key]
            for key in ("lines_right", "lines", "words_right", "words"):
                totals[key] += result[key]
            marks = " ".join(f"{k}:{'ok' if result[k] else 'WRONG'}" for k in ("states", "finals", "initial", "transitions"))
            verdict = "RIGHT" if result["diagram_right"] else "WRONG"
            print(f"{name}  {half_of(name):6}  {verdict}  {marks}  lines {result['lines_right']}/{result['lines']}"
                  f"  words {result['words_right']}/{result['words']}", file=log)
            if not result["diagram_right"]:
                failing.append(name)
                for problem in problems:
                    print(f"    {problem}", file=log)
        n = totals["diagrams"]
        print(f"-- {mode}: diagrams fully right {totals['right']}/{n}; states {totals['states']}/{n}, "
              f"finals {totals['finals']}/{n}, initial {totals['initial']}/{n}, transitions {totals['transitions']}/{n}; "
              f"lines read as their symbol {totals['lines_right']}/{totals['lines']}; "
              f"words {totals['words_right']}/{totals['words']}", file=log)
        print(f"-- {mode}: " + "; ".join(
            f"{half} half {halves[half]['right']}/{halves[half]['diagrams']}" for half in HALVES), file=log)
        summary["modes"][folder] = {**totals, "failing": failing, "halves": halves}

    if args.ink:
        for mode, typed in (("whole ink, nothing typed", False), ("whole ink, symbols typed", True)):
            key = "ink_typed" if typed else "ink"
            print(f"\n== {mode} (ink/)", file=log)
            totals = {k: 0 for k in ("diagrams", "right", "words_right", "words", "text_right", "strokes",
                                     "shape_kind_right", "shapes", "labels", "grouped", "attached", "transition_labels",
                                     "transition_read", "state_names", "state_read")}
            halves = {half: dict(totals) for half in HALVES}
            failing = []
            with tempfile.TemporaryDirectory() as scratch:
                for name in names:
                    truth = json.load(open(os.path.join(args.data, "truth", name + ".json")))
                    ink_truth = json.load(open(os.path.join(args.data, "ink_truth", name + ".json")))
                    expected = expected_all[name + ".ndjson"]
                    lines = ink_lines(args.data, name)
                    path = os.path.join(args.data, "ink", name + ".ndjson")
                    if typed:
                        path = os.path.join(scratch, name + ".ndjson")
                        with open(path, "w") as handle:
                            handle.writelines(typed_ink(lines, ink_truth))
                    report = run_recognize(args.binary, path, list(expected), args.model)
                    result, problems = score_ink(report, truth, ink_truth, expected)
                    result["right"] = result["diagram_right"]
                    result["diagrams"] = 1
                    for bucket in (totals, halves[half_of(name)]):
                        for k in bucket:
                            bucket[k] += result[k]
                    verdict = "RIGHT" if result["diagram_right"] else "WRONG"
                    print(f"{name}  {half_of(name):6}  {verdict}  text/shape {result['text_right']}/{result['strokes']}"
                          f"  labels grouped {result['grouped']}/{result['labels']} attached {result['attached']}"
                          f"  transition labels read {result['transition_read']}/{result['transition_labels']}"
                          f"  names read {result['state_read']}/{result['state_names']}"
                          f"  words {result['words_right']}/{result['words']}", file=log)
                    if not result["diagram_right"] or args.verbose:
                        failing.append(name) if not result["diagram_right"] else None
                        for problem in problems:
                            print(f"    {problem}", file=log)

            def figures(t):
                return (f"diagrams fully right {t['right']}/{t['diagrams']}; strokes text/shape right "
                        f"{t['text_right']}/{t['strokes']} = {t['text_right'] / max(t['strokes'], 1):.3f}; shape strokes "
                        f"read as their symbol {t['shape_kind_right']}/{t['shapes']}; labels grouped {t['grouped']}/{t['labels']}, "
                        f"attached {t['attached']}/{t['labels']}; transition labels giving their symbols "
                        f"{t['transition_read']}/{t['transition_labels']} = {t['transition_read'] / max(t['transition_labels'], 1):.3f}; "
                        f"state names read {t['state_read']}/{t['state_names']} = {t['state_read'] / max(t['state_names'], 1):.3f}; "
                        f"words {t['words_right']}/{t['words']}")
            print(f"-- {mode}: {figures(totals)}", file=log)
            for half in HALVES:
                print(f"-- {mode}, {half} half: {figures(halves[half])}", file=log)
            summary["modes"][key] = {**totals, "failing": failing, "halves": halves}

    if args.orders > 0 and not args.skip_sketches:
        print(f"\n== random symbol orders ({args.orders} per diagram, seed {args.seed}): same automaton as the writer's order", file=log)
        same_total = verdicts_total = count_total = 0
        order_halves = {half: {"same_automaton": 0, "orders": 0} for half in HALVES}
        with tempfile.TemporaryDirectory() as scratch:
            for index, name in enumerate(names):
                truth = json.load(open(os.path.join(args.data, "truth", name + ".json")))
                source = os.path.join(args.data, "sketches", name + ".ndjson")
                words = list(expected_all[name + ".ndjson"])
                writer_report = run_recognize(args.binary, source, words, args.model)
                writer = canonical(writer_report, truth)
                writer_verdicts = [s["accepted"] for s in writer_report["simulations"]]
                lines = [line for line in open(source) if line.strip()]
                same = same_verdicts = 0
                orders = shuffled_orders(lines, args.orders, args.seed * 1000 + index)
                for report in recognize_orders(args, scratch, name, orders, words):
                    same += canonical(report, truth) == writer
                    same_verdicts += [s["accepted"] for s in report["simulations"]] == writer_verdicts
                same_total += same
                verdicts_total += same_verdicts
                count_total += args.orders
                order_halves[half_of(name)]["same_automaton"] += same
                order_halves[half_of(name)]["orders"] += args.orders
                print(f"{name}  same automaton {same}/{args.orders}, same verdicts {same_verdicts}/{args.orders}", file=log)
        print(f"-- random orders giving the writer's automaton (states, finals, initial, transitions): "
              f"{same_total}/{count_total} = {same_total / max(count_total, 1):.3f}; "
              f"the same verdict on every word: {verdicts_total}/{count_total} = {verdicts_total / max(count_total, 1):.3f}", file=log)
        print("-- random orders, same automaton: " + "; ".join(
            f"{half} half {order_halves[half]['same_automaton']}/{order_halves[half]['orders']}" for half in HALVES), file=log)
        summary["orders"] = {"same_automaton": same_total, "same_verdicts": verdicts_total, "orders": count_total,
                             "halves": order_halves}
    if args.orders > 0 and args.ink:
        print(f"\n== random orders of the whole ink ({args.orders} per diagram, seed {args.seed}; each symbol and label "
              f"kept whole, nothing typed): same automaton and labels' text as the writer's order", file=log)
        same_total = count_total = 0
        ink_halves = {half: {"same_automaton": 0, "orders": 0} for half in HALVES}
        with tempfile.TemporaryDirectory() as scratch:
            for index, name in enumerate(names):
                truth = json.load(open(os.path.join(args.data, "truth", name + ".json")))
                ink_truth = json.load(open(os.path.join(args.data, "ink_truth", name + ".json")))
                words = list(expected_all[name + ".ndjson"])
                lines = ink_lines(args.data, name)
                writer = canonical(run_recognize(args.binary, os.path.join(args.data, "ink", name + ".ndjson"), [], args.model), truth)
                units = ink_units(ink_truth)
                same = 0
                orders = ([lines[line] for unit in order for line in unit]
                          for order in shuffled_orders(units, args.orders, args.seed * 1000 + index))
                for report in recognize_orders(args, scratch, name + "-ink", orders, []):
                    same += canonical(report, truth) == writer
                same_total += same
                count_total += args.orders
                ink_halves[half_of(name)]["same_automaton"] += same
                ink_halves[half_of(name)]["orders"] += args.orders
                print(f"{name}  same automaton {same}/{args.orders}", file=log)
        print(f"-- random orders of the ink giving the writer's automaton: {same_total}/{count_total} = "
              f"{same_total / max(count_total, 1):.3f}; " + "; ".join(
                  f"{half} half {ink_halves[half]['same_automaton']}/{ink_halves[half]['orders']}" for half in HALVES), file=log)
        summary["ink_orders"] = {"same_automaton": same_total, "orders": count_total, "halves": ink_halves}
    if args.json:
        print(json.dumps(summary, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
