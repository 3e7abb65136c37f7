#!/usr/bin/env python3
"""Scores `strokekit predict --strokes --json` lines of the real-strokes files (stdin) against
classes.json: per source and overall, circle recall, shaft-and-head arrow recall, line/swipe
recall, the share of non-shapes rejected, and the worst-read kinds.

Called by scripts/real-strokes-benchmark.sh; standard library only.

    real_strokes_benchmark.py CLASSES_JSON [--writers all|dev|test] [--json] [--worst N]
                                           [--misses FILE] [--sweep]

A prediction line names its file in "source" ("<path>/mmg.ndjson:12 (...)"), so the source
dataset is the file's stem. Writers are the first part of "key_id" (a person and, in mmg, a
device); --writers dev/test keeps one fixed half of them (by CRC-32 of the writer id), so a
recipe or threshold chosen on one half can be reported on the other, writer-independently.
--misses FILE writes the key ids of the drawings read wrongly (one "source word key_id" a line).
--sweep prints, instead, the four figures for confidence thresholds 0.4 ... 0.95 added to the
model's own rule (as `strokekit train --reject-below P` would store it; the model's class 'none'
still rejects), to choose the threshold on one half of the writers.
"""
import argparse
import json
import os
import sys
import zlib

# How each classes.json group is scored; "arrow" splits into real shaft-and-head arrows and
# lines/swipes, since the two are read very differently.
SHAFT_AND_HEAD = {"mmg:arrowhead"}


def writer_half(key_id):
    writer = key_id.split("/")[0]
    return "dev" if zlib.crc32(writer.encode()) % 2 == 0 else "test"


def load_groups(path):
    with open(path) as handle:
        classes = json.load(handle)
    groups = {}
    for group, kinds in classes.items():
        for kind in kinds:
            if group == "arrow":
                groups[kind] = "shaft_and_head_arrow" if kind in SHAFT_AND_HEAD else "line_or_swipe"
            else:
                groups[kind] = group
    return groups


# A drawing is read right when: a circle is labelled circle and not rejected; an arrow (with
# head, or a line) is labelled arrow and not rejected; a non-shape is rejected.
def is_right(group, prediction):
    if group == "none":
        return prediction["rejected"]
    expected = "circle" if group == "circle" else "arrow"
    return not prediction["rejected"] and prediction["label"] == expected


def reading(prediction):
    return "rejected" if prediction["rejected"] else prediction["label"]


def print_sweep(scored, metrics, writers):
    print("threshold  " + "  ".join("%20s" % metric for metric in metrics) + "   (%s writers)" % writers)
    for threshold in [None, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95]:
        tallies = {metric: [0, 0] for metric in metrics}
        for group, prediction in scored:
            if threshold is not None and prediction["confidence"] < threshold:
                prediction = dict(prediction, rejected=True)
            tallies[group][0] += is_right(group, prediction)
            tallies[group][1] += 1
        print("%-9s  " % ("none" if threshold is None else threshold)
              + "  ".join("%20s" % ("%.3f" % (right / count) if count else "-") for right, count in tallies.values()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("classes")
    parser.add_argument("--writers", choices=["all", "dev", "test"], default="all")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--worst", type=int, default=8)
    parser.add_argument("--misses")
    parser.add_argument("--sweep", action="store_true")
    arguments = parser.parse_args()
    groups = load_groups(arguments.classes)

    metrics = ["circle", "shaft_and_head_arrow", "line_or_swipe", "none"]
    # counts[source][metric] = [right, total]; kinds[source:word] = [right, total, readings]
    counts = {}
    kinds = {}
    misses = []
    writers = set()
    scored = []
    for line in sys.stdin:
        if not line.strip():
            continue
        prediction = json.loads(line)
        source = os.path.splitext(os.path.basename(prediction["source"].split(":")[0]))[0]
        kind = "%s:%s" % (source, prediction.get("word"))
        group = groups.get(kind)
        if group is None:
            raise SystemExit("real_strokes_benchmark: %s is not in %s" % (kind, arguments.classes))
        if group == "excluded":
            continue
        key_id = prediction.get("key_id", "")
        if arguments.writers != "all" and writer_half(key_id) != arguments.writers:
            continue
        writers.add(key_id.split("/")[0])
        scored.append((group, prediction))
        right = is_right(group, prediction)
        for name in (source, "overall"):
            tally = counts.setdefault(name, {}).setdefault(group, [0, 0])
            tally[0] += right
            tally[1] += 1
        entry = kinds.setdefault(kind, [0, 0, {}, group])
        entry[0] += right
        entry[1] += 1
        entry[2][reading(prediction)] = entry[2].get(reading(prediction), 0) + 1
        if not right:
            misses.append("%s %s %s" % (source, prediction.get("word"), key_id))

    if arguments.sweep:
        print_sweep(scored, metrics, arguments.writers)
        return

    if arguments.misses:
        with open(arguments.misses, "w") as handle:
            handle.write("".join(miss + "\n" for miss in misses))

    def rate(tally):
        return None if tally is None or tally[1] == 0 else tally[0] / tally[1]

    sources = sorted(name for name in counts if name != "overall") + ["overall"]
    worst = sorted(kinds.items(), key=lambda item: item[1][0] / item[1][1])[: arguments.worst]
    if arguments.json:
        result = {
            "writers": arguments.writers,
            "writer_count": len(writers),
            "sources": {
                name: {metric: {"rate": rate(counts[name].get(metric)),
                                "right": counts[name].get(metric, [0, 0])[0],
                                "count": counts[name].get(metric, [0, 0])[1]} for metric in metrics}
                for name in sources if name in counts
            },
            "worst_kinds": [{"kind": kind, "group": entry[3], "rate": entry[0] / entry[1], "count": entry[1],
                             "readings": entry[2]} for kind, entry in worst],
        }
        print(json.dumps(result, sort_keys=True))
        return

    titles = {"circle": "circles", "shaft_and_head_arrow": "shaft+head arrows",
              "line_or_swipe": "lines/swipes", "none": "non-shapes rejected"}
    print("real strokes (%s writers: %d)" % (arguments.writers, len(writers)))
    print("%-10s" % "source" + "".join("%22s" % titles[metric] for metric in metrics))
    for name in sources:
        if name not in counts:
            continue
        cells = []
        for metric in metrics:
            tally = counts[name].get(metric)
            cells.append("%22s" % ("-" if tally is None else "%.3f (%d/%d)" % (rate(tally), tally[0], tally[1])))
        print("%-10s" % name + "".join(cells))
    print("worst-read kinds:")
    for kind, entry in worst:
        readings = ", ".join("%s %d" % item for item in sorted(entry[2].items(), key=lambda item: -item[1]))
        print("  %-24s %-21s %.3f of %4d right  (%s)" % (kind, entry[3], entry[0] / entry[1], entry[1], readings))


if __name__ == "__main__":
    main()
