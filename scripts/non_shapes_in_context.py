#!/usr/bin/env python3
"""What real non-shapes become in an automaton's context: the cost of reading a stroke by its
place among the states when the classifier rejects it.

Every non-shape drawing of real-strokes (the classes listed under "none" in classes.json:
letters, stars, notes, scribbles; the test half of the writers by default) is put into a
sketch twice, beside real circles as states: once turned and scaled so that its first point
lies on one state's rim and its last point on a neighbour's (where a transition would run),
and once with both ends on one state's rim, its ink outside the state (where a self-loop would
sit). `strokekit recognize` reads each sketch (one drawing per line); a non-shape should read
as nothing. Prints, per context, how many became a transition, a self-loop, a state or nothing,
and which context rule decided. Standard library only.

    non_shapes_in_context.py DATA_DIR OUT_DIR STROKEKIT [--writers all|dev|test] [--limit N] [--json]
"""
import argparse
import collections
import json
import math
import os
import random
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
from compose_real_sketches import load_real, ndjson, place_circle  # noqa: E402
from real_strokes_benchmark import writer_half  # noqa: E402

PAIRS_PER_SKETCH = 6


def load_non_shapes(data_dir, writers):
    with open(os.path.join(data_dir, "classes.json")) as handle:
        none = set(json.load(handle)["none"])
    drawings = []
    for name in sorted(os.listdir(data_dir)):
        if not name.endswith(".ndjson"):
            continue
        source = name[: -len(".ndjson")]
        with open(os.path.join(data_dir, name)) as handle:
            for line in handle:
                drawing = json.loads(line)
                if f"{source}:{drawing['word']}" not in none:
                    continue
                if writers != "all" and writer_half(drawing["key_id"]) != writers:
                    continue
                strokes = [list(zip(xs, ys)) for xs, ys in drawing["drawing"]]
                points = [point for stroke in strokes for point in stroke]
                if len(points) >= 4 and math.dist(points[0], points[-1]) > 0:
                    drawings.append((f"{source}:{drawing['word']}", strokes))
    return drawings


def placed(strokes, start, end, outside_of=None):
    """The drawing turned and scaled so that its first point lies at `start` and its last at
    `end`; mirrored across that line when `outside_of` (a centre and radius) would otherwise
    hold most of its ink."""
    points = [point for stroke in strokes for point in stroke]
    first, last = points[0], points[-1]
    scale = math.dist(start, end) / math.dist(first, last)
    turn = math.atan2(end[1] - start[1], end[0] - start[0]) - math.atan2(last[1] - first[1], last[0] - first[0])
    cos_t, sin_t = math.cos(turn) * scale, math.sin(turn) * scale

    def move(point, mirror):
        dx, dy = point[0] - first[0], point[1] - first[1]
        x, y = cos_t * dx - sin_t * dy, sin_t * dx + cos_t * dy
        if mirror:  # reflect across the line from start to end
            ux, uy = (end[0] - start[0]), (end[1] - start[1])
            length = math.hypot(ux, uy)
            ux, uy = ux / length, uy / length
            along = x * ux + y * uy
            x, y = 2 * along * ux - x, 2 * along * uy - y
        return (start[0] + x, start[1] + y)

    result = [[move(point, False) for point in stroke] for stroke in strokes]
    if outside_of:
        center, radius = outside_of
        inside = sum(math.dist(point, center) < radius for stroke in result for point in stroke)
        if inside > sum(len(stroke) for stroke in result) / 2:
            result = [[move(point, True) for point in stroke] for stroke in strokes]
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data")
    parser.add_argument("out")
    parser.add_argument("strokekit")
    parser.add_argument("--writers", choices=["all", "dev", "test"], default="test")
    parser.add_argument("--limit", type=int, default=240, help="non-shapes drawn at random (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    circles, _ = load_real(arguments.data, arguments.writers)
    shapes = load_non_shapes(arguments.data, arguments.writers)
    if arguments.limit and len(shapes) > arguments.limit:
        shapes = rng.sample(shapes, arguments.limit)
    os.makedirs(arguments.out, exist_ok=True)
    radius = 40.0
    counts = {context: collections.Counter() for context in ("between two states", "on one state's rim")}
    rules = {context: collections.Counter() for context in counts}
    for context in counts:
        for first in range(0, len(shapes), PAIRS_PER_SKETCH):
            batch = shapes[first:first + PAIRS_PER_SKETCH]
            drawings, lines = [], []
            for index, (_, strokes) in enumerate(batch):
                a = (200 + index * 20 * radius, 300.0)
                b = (a[0] + 7 * radius, a[1])
                drawings.append((place_circle(rng.choice(circles), a, radius), None))
                drawings.append((place_circle(rng.choice(circles), b, radius), None))
                if context == "between two states":
                    ink = placed(strokes, (a[0] + radius, a[1]), (b[0] - radius, b[1]))
                else:
                    up = -math.pi / 2
                    start = (a[0] + radius * math.cos(up - 0.6), a[1] + radius * math.sin(up - 0.6))
                    end = (a[0] + radius * math.cos(up + 0.6), a[1] + radius * math.sin(up + 0.6))
                    ink = placed(strokes, start, end, outside_of=(a, radius))
                drawings.append((ink, None))
                lines.append(len(drawings))  # 1-based line of the non-shape
            path = os.path.join(arguments.out, f"{'between' if context.startswith('between') else 'rim'}-{first:04d}.ndjson")
            with open(path, "w") as handle:
                handle.write(ndjson(drawings, False))
            result = subprocess.run([arguments.strokekit, "recognize", path, "--json"], capture_output=True, text=True)
            if result.returncode != 0:
                print(f"non-shapes-in-context: {path}: {result.stderr.strip()}", file=sys.stderr)
                counts[context]["failed"] += len(batch)
                continue
            report = json.loads(result.stdout)
            for line in lines:
                entry = next(stroke for stroke in report["strokes"] if stroke["line"] == line)
                counts[context][entry["symbol"]] += 1
                if entry["symbol"] != "rejected":
                    rules[context][entry["rule"] or "classifier"] += 1
    result = {context: {"drawings": sum(counts[context].values()), "read as": dict(counts[context]),
                        "decided by": dict(rules[context])} for context in counts}
    if arguments.json:
        print(json.dumps(result, sort_keys=True))
        return
    for context, figures in result.items():
        read = figures["read as"]
        shown = ", ".join(f"{kind} {number}" for kind, number in sorted(read.items()))
        print(f"{context}: {figures['drawings']} non-shapes; read as: {shown}; decided by: {figures['decided by']}")


if __name__ == "__main__":
    main()
