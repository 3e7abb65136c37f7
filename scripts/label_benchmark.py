#!/usr/bin/env python3
"""Single-character labels of fa-diagrams' whole ink, as one QuickDraw ndjson drawing each.

For every label in ink_truth/<name>.json whose text is one character, the strokes of its
lines in ink/<name>.ndjson (one stroke a line) become one drawing whose "word" is the text
and whose "key_id" is <name>:<label id>. scripts/label-benchmark.sh classifies them with
`strokekit evaluate --strokes`. Standard library only; the drawings are written to a
temporary file, never into the repository (fa-diagrams is evaluation data).

Usage: label_benchmark.py FA_DIAGRAMS_DIR OUT.ndjson
"""
import json
import pathlib
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1])
    out = pathlib.Path(sys.argv[2])
    ink_folder, truth_folder = root / "ink", root / "ink_truth"
    if not ink_folder.is_dir() or not truth_folder.is_dir():
        print(f"label-benchmark: {root} has no ink/ and ink_truth/ folders", file=sys.stderr)
        return 1
    drawings = []
    for ink_file in sorted(ink_folder.glob("*.ndjson")):
        truth_file = truth_folder / (ink_file.stem + ".json")
        if not truth_file.exists():
            print(f"label-benchmark: {truth_file} missing; skipped {ink_file.name}", file=sys.stderr)
            continue
        strokes = [json.loads(line)["drawing"][0] for line in ink_file.read_text().splitlines() if line.strip()]
        truth = json.loads(truth_file.read_text())
        for label in truth["labels"]:
            if len(label["text"]) != 1:
                continue
            drawing = [strokes[line][:2] for line in label["lines"]]
            drawings.append({"word": label["text"], "key_id": f"{ink_file.stem}:{label['id']}", "drawing": drawing})
    out.write_text("".join(json.dumps(d) + "\n" for d in drawings))
    print(f"{len(drawings)} single-character labels", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
