#!/usr/bin/env python3
"""Single-character labels of fa-diagrams' whole ink, as one QuickDraw ndjson drawing each.

For every label in ink_truth/<name>.json whose text is one character, the strokes of its
lines in ink/<name>.ndjson (one stroke a line) become one drawing whose "word" is the text
and whose "key_id" is <half>:<name>:<label id>, <half> being the fixed half of the writers
the diagram belongs to (tuning: even writer numbers, check: odd; scripts/fa_benchmark.py).
With --frame diagram (the default) each drawing also carries "frame_label_heights": the
heights of the boxes of all the diagram's labels (their ink only, never their text), from
which the classifier takes the diagram's usual label height as the frame
(`CharacterFrame(labelHeights:)`); with --frame alone it carries none and is read alone.
The drawings of each half go to OUT_PREFIX-tuning.ndjson and OUT_PREFIX-check.ndjson, all of
them to OUT_PREFIX-all.ndjson; scripts/label-benchmark.sh classifies them with
`strokekit evaluate --strokes`. Standard library only; the drawings are written to a
temporary folder, never into the repository (fa-diagrams is evaluation data).

Usage: label_benchmark.py [--frame diagram|alone] FA_DIAGRAMS_DIR OUT_PREFIX
"""
import argparse
import json
import pathlib
import sys

from fa_benchmark import HALVES, half_of


def box_height(strokes):
    ys = [y for stroke in strokes for y in stroke[1]]
    return max(ys) - min(ys) if ys else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(usage=__doc__.strip().splitlines()[-1])
    parser.add_argument("--frame", choices=("diagram", "alone"), default="diagram")
    parser.add_argument("root")
    parser.add_argument("out_prefix")
    args = parser.parse_args()
    root = pathlib.Path(args.root)
    ink_folder, truth_folder = root / "ink", root / "ink_truth"
    if not ink_folder.is_dir() or not truth_folder.is_dir():
        print(f"label-benchmark: {root} has no ink/ and ink_truth/ folders", file=sys.stderr)
        return 1
    drawings = {half: [] for half in HALVES}
    for ink_file in sorted(ink_folder.glob("*.ndjson")):
        truth_file = truth_folder / (ink_file.stem + ".json")
        if not truth_file.exists():
            print(f"label-benchmark: {truth_file} missing; skipped {ink_file.name}", file=sys.stderr)
            continue
        strokes = [json.loads(line)["drawing"][0] for line in ink_file.read_text().splitlines() if line.strip()]
        truth = json.loads(truth_file.read_text())
        half = half_of(ink_file.stem)
        labels = [[strokes[line][:2] for line in label["lines"]] for label in truth["labels"]]
        heights = [box_height(label) for label in labels]
        for label, drawing in zip(truth["labels"], labels):
            if len(label["text"]) != 1:
                continue
            row = {"word": label["text"], "key_id": f"{half}:{ink_file.stem}:{label['id']}", "drawing": drawing}
            if args.frame == "diagram":
                row["frame_label_heights"] = heights
            drawings[half].append(row)
    for part, rows in [*drawings.items(), ("all", drawings["tuning"] + drawings["check"])]:
        pathlib.Path(f"{args.out_prefix}-{part}.ndjson").write_text("".join(json.dumps(d) + "\n" for d in rows))
    print(f"{sum(map(len, drawings.values()))} single-character labels "
          f"({len(drawings['tuning'])} tuning, {len(drawings['check'])} check), framed: {args.frame}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
