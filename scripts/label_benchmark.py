#!/usr/bin/env python3
"""The labels of fa-diagrams' whole ink (ink/, ink_truth/), written for strokekit to read.

Every label of ink_truth/<name>.json is the strokes of its lines in ink/<name>.ndjson (one
stroke a line), written as one QuickDraw ndjson drawing whose "key_id" is
<half>:<name>:<label id>, <half> being the fixed half of the writers the diagram belongs to
(tuning: even writer numbers, check: odd; scripts/fa_benchmark.py). The files written never
hold a label's text: the truth stays here and is only compared with what strokekit read.

  labels ROOT OUT.ndjson
      every label of every diagram, as the writer grouped it, with "diagram" (its diagram)
      and "of" ("transition" or "state", what ink_truth/ attaches it to): the input of
      `strokekit read-labels`, which reads each diagram's labels together as the sketch
      reader does.
  score ROOT READ.jsonl
      compares `strokekit read-labels --json`'s output with the truth: the single-character
      labels read right, for all diagrams and each half (one JSON object with --json).
  drawings [--frame diagram|alone] ROOT OUT_PREFIX
      the single-character labels alone, for `strokekit evaluate --strokes` (the model
      alone, without the diagram's context): with --frame diagram (the default) each drawing
      carries "frame_label_heights", the heights of the boxes of all the diagram's labels
      (their ink only), from which the classifier takes the diagram's usual label height as
      the frame (`CharacterFrame(labelHeights:)`); with --frame alone it is read alone. The
      drawings of each half go to OUT_PREFIX-tuning.ndjson and OUT_PREFIX-check.ndjson, all
      of them to OUT_PREFIX-all.ndjson, each with its "word".

Standard library only; the drawings are written to a temporary folder by
scripts/label-benchmark.sh, never into the repository (fa-diagrams is evaluation data).

Usage: label_benchmark.py {labels,score,drawings} ...
"""
import argparse
import json
import pathlib
import sys

from fa_benchmark import HALVES, half_of


def box_height(strokes):
    ys = [y for stroke in strokes for y in stroke[1]]
    return max(ys) - min(ys) if ys else 0.0


def diagrams(root):
    """(name, half, truth labels, each label's strokes) for every diagram of ink/ with a truth file."""
    ink_folder, truth_folder = root / "ink", root / "ink_truth"
    if not ink_folder.is_dir() or not truth_folder.is_dir():
        sys.exit(f"label-benchmark: {root} has no ink/ and ink_truth/ folders")
    for ink_file in sorted(ink_folder.glob("*.ndjson")):
        truth_file = truth_folder / (ink_file.stem + ".json")
        if not truth_file.exists():
            print(f"label-benchmark: {truth_file} missing; skipped {ink_file.name}", file=sys.stderr)
            continue
        strokes = [json.loads(line)["drawing"][0] for line in ink_file.read_text().splitlines() if line.strip()]
        truth = json.loads(truth_file.read_text())
        labels = [[strokes[line][:2] for line in label["lines"]] for label in truth["labels"]]
        yield ink_file.stem, half_of(ink_file.stem), truth["labels"], labels


def key(half, name, label):
    return f"{half}:{name}:{label['id']}"


def owner_kind(label):
    return next(iter(label.get("of") or {"nothing": None}))


def write_labels(args):
    rows = []
    for name, half, truth, labels in diagrams(pathlib.Path(args.root)):
        for label, drawing in zip(truth, labels):
            rows.append({"key_id": key(half, name, label), "diagram": name, "of": owner_kind(label), "drawing": drawing})
    pathlib.Path(args.out).write_text("".join(json.dumps(row) + "\n" for row in rows))
    print(f"{len(rows)} labels of {len({row['diagram'] for row in rows})} diagrams", file=sys.stderr)
    return 0


def score(args):
    read = {}
    for line in pathlib.Path(args.read).read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            read[row["key_id"]] = row["text"]
    parts = {part: {"count": 0, "right": 0, "errors": {}} for part in ("all", *HALVES)}
    for name, half, truth, _ in diagrams(pathlib.Path(args.root)):
        for label in truth:
            if len(label["text"]) != 1:
                continue
            got = read.get(key(half, name, label))
            if got is None:
                sys.exit(f"label-benchmark: {args.read} has no reading of {key(half, name, label)}")
            for part in ("all", half):
                parts[part]["count"] += 1
                if got == label["text"]:
                    parts[part]["right"] += 1
                else:
                    error = f"{label['text']}->{got}"
                    parts[part]["errors"][error] = parts[part]["errors"].get(error, 0) + 1
    for figures in parts.values():
        figures["accuracy"] = figures["right"] / max(figures["count"], 1)
        figures["errors"] = dict(sorted(figures["errors"].items(), key=lambda item: (-item[1], item[0])))
    if args.json:
        print(json.dumps({"read": "reader", **parts}, sort_keys=True))
    else:
        print("single-character labels read by the reader (each diagram's labels together, grouped and attached as written):")
        for part, figures in parts.items():
            errors = ", ".join(f"{error} {count}" for error, count in figures["errors"].items()) or "none"
            print(f"  {part:7} {figures['right']}/{figures['count']} = {100 * figures['accuracy']:.1f}%  errors: {errors}")
    return 0


def write_drawings(args):
    drawings = {half: [] for half in HALVES}
    for name, half, truth, labels in diagrams(pathlib.Path(args.root)):
        heights = [box_height(label) for label in labels]
        for label, drawing in zip(truth, labels):
            if len(label["text"]) != 1:
                continue
            row = {"word": label["text"], "key_id": key(half, name, label), "drawing": drawing}
            if args.frame == "diagram":
                row["frame_label_heights"] = heights
            drawings[half].append(row)
    for part, rows in [*drawings.items(), ("all", drawings["tuning"] + drawings["check"])]:
        pathlib.Path(f"{args.out_prefix}-{part}.ndjson").write_text("".join(json.dumps(d) + "\n" for d in rows))
    print(f"{sum(map(len, drawings.values()))} single-character labels "
          f"({len(drawings['tuning'])} tuning, {len(drawings['check'])} check), framed: {args.frame}", file=sys.stderr)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(usage=__doc__.strip().splitlines()[-1])
    commands = parser.add_subparsers(dest="command", required=True)
    labels = commands.add_parser("labels", help="every label, grouped and attached as written, for strokekit read-labels")
    labels.add_argument("root")
    labels.add_argument("out")
    labels.set_defaults(run=write_labels)
    scoring = commands.add_parser("score", help="the single-character labels read right by strokekit read-labels")
    scoring.add_argument("--json", action="store_true")
    scoring.add_argument("root")
    scoring.add_argument("read")
    scoring.set_defaults(run=score)
    alone = commands.add_parser("drawings", help="the single-character labels alone, for strokekit evaluate --strokes")
    alone.add_argument("--frame", choices=("diagram", "alone"), default="diagram")
    alone.add_argument("root")
    alone.add_argument("out_prefix")
    alone.set_defaults(run=write_drawings)
    args = parser.parse_args()
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
