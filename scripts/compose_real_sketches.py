#!/usr/bin/env python3
"""Composes textbook automata from real people's strokes and checks how `strokekit recognize`
reads them: every word up to length 5 is simulated and compared with the language.

States are real circles (lowvision:circle, eds:circle), a final state's second circle another
real circle drawn larger round the same centre, transitions and the initial arrow real
shaft-and-head arrows (mmg:arrowhead, most with the head as a separate stroke), each scaled,
turned and placed, a separate head at the size heads have in real diagrams; self-loops are
synthetic (the real strokes have none), as long as real ones. Sizes come from the 22 real
diagrams of fa-diagrams, in units of the state radius R. Each sketch is
written twice, OUTSIDE the repository's tracked files: one drawing per line, and one stroke
per line (a head is then a line of its own). Standard library only; called by
scripts/real-sketches-benchmark.sh.

    compose_real_sketches.py DATA_DIR OUT_DIR STROKEKIT [--model FILE] [--per-automaton N]
                             [--seed S] [--writers all|dev|test] [--json] [--verbose]
"""
import argparse
import itertools
import json
import math
import os
import random
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
from real_strokes_benchmark import writer_half  # noqa: E402  (the same two halves of the writers)

# ---------------------------------------------------------------------------------------------
# The automata: states on a grid (units of the spacing), finals, the initial state and the side
# its arrow comes from, edges (from, to, symbols), self-loops (state, direction, symbols) and
# the language as a predicate. Directions are radians on screen: 0 right, -pi/2 up.
UP, DOWN, LEFT, RIGHT = -math.pi / 2, math.pi / 2, math.pi, 0.0

AUTOMATA = [
    {"name": "(10)^n", "alphabet": "01", "positions": [(0, 0), (1, 0)], "finals": [0], "initial": 0,
     "initial_side": LEFT, "edges": [(0, 1, "1"), (1, 0, "0")], "loops": [],
     "language": lambda w: len(w) % 2 == 0 and all(w[i:i + 2] == "10" for i in range(0, len(w), 2))},
    {"name": "starts with 011", "alphabet": "01", "positions": [(0, 0), (1, 0), (2, 0), (3, 0)], "finals": [3],
     "initial": 0, "initial_side": LEFT, "edges": [(0, 1, "0"), (1, 2, "1"), (2, 3, "1")],
     "loops": [(3, UP, "0,1")], "language": lambda w: w.startswith("011")},
    {"name": "ends in 01", "alphabet": "01", "positions": [(0, 0), (1, 0), (2, 0)], "finals": [2], "initial": 0,
     "initial_side": LEFT, "edges": [(0, 1, "0"), (1, 2, "1")], "loops": [(0, UP, "0,1")],
     "language": lambda w: w.endswith("01")},
    {"name": "even number of a's", "alphabet": "ab", "positions": [(0, 0), (1, 0)], "finals": [0], "initial": 0,
     "initial_side": LEFT, "edges": [(0, 1, "a"), (1, 0, "a")], "loops": [(0, UP, "b"), (1, UP, "b")],
     "language": lambda w: w.count("a") % 2 == 0},
    {"name": "contains 00", "alphabet": "01", "positions": [(0, 0), (1, 0), (2, 0)], "finals": [2], "initial": 0,
     "initial_side": LEFT, "edges": [(0, 1, "0"), (1, 0, "1"), (1, 2, "0")], "loops": [(0, UP, "1"), (2, UP, "0,1")],
     "language": lambda w: "00" in w},
    {"name": "odd number of 1s", "alphabet": "01", "positions": [(0, 0), (1, 0)], "finals": [1], "initial": 0,
     "initial_side": UP, "edges": [(0, 1, "1"), (1, 0, "1")], "loops": [(0, DOWN, "0"), (1, DOWN, "0")],
     "language": lambda w: w.count("1") % 2 == 1},
]


def words(alphabet, longest):
    for length in range(longest + 1):
        for letters in itertools.product(alphabet, repeat=length):
            yield "".join(letters)


# ---------------------------------------------------------------------------------------------
# Real strokes

def load_real(data_dir, writers):
    """Real circles and shaft-and-head arrows, each a list of strokes [[(x, y), ...], ...]."""
    circles, arrows = [], []
    for source, word, bucket in (("lowvision", "circle", circles), ("eds", "circle", circles),
                                 ("mmg", "arrowhead", arrows)):
        with open(os.path.join(data_dir, source + ".ndjson")) as handle:
            for line in handle:
                drawing = json.loads(line)
                if drawing["word"] != word:
                    continue
                if writers != "all" and writer_half(drawing["key_id"]) != writers:
                    continue
                strokes = [list(zip(xs, ys)) for xs, ys in drawing["drawing"]]
                if sum(len(stroke) for stroke in strokes) >= 4:
                    bucket.append(strokes)
    return circles, arrows


def bounds(strokes):
    xs = [x for stroke in strokes for x, _ in stroke]
    ys = [y for stroke in strokes for _, y in stroke]
    return min(xs), min(ys), max(xs), max(ys)


def place_circle(strokes, center, radius):
    """A real circle scaled so its longer side is 2 * radius, centred on `center`."""
    x0, y0, x1, y1 = bounds(strokes)
    scale = 2 * radius / max(x1 - x0, y1 - y0, 1e-9)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return [[(center[0] + (x - cx) * scale, center[1] + (y - cy) * scale) for x, y in stroke] for stroke in strokes]


def path_length(stroke):
    return sum(math.dist(stroke[i], stroke[i - 1]) for i in range(1, len(stroke)))


def place_arrow(strokes, start, tip, head_size):
    """A real arrow turned, scaled and moved so that it runs from `start` to `tip`.
    The shaft is the long straight stroke (chord times straightness, so a big chevron of a
    head, bent at its tip, loses to it). With the head in strokes of its own, the shaft's end
    nearer to them points the way; the shaft alone then spans `start` to `tip`, and its head
    strokes are scaled about that end to `head_size` across: drawn between states, a head keeps
    the size a writer's heads have, while an arrow drawn on its own (as these were) has a head
    about as long as its shaft. In one stroke, the tail is the first point, the point farthest
    from it points the way, the tip is the ink farthest that way, and the arrow is scaled whole."""
    shaft = max(strokes, key=lambda stroke: math.dist(stroke[0], stroke[-1]) ** 2 / max(path_length(stroke), 1e-9))
    others = [point for stroke in strokes if stroke is not shaft for point in stroke]
    if others:
        middle = (sum(x for x, _ in others) / len(others), sum(y for _, y in others) / len(others))
        tail, head = sorted((shaft[0], shaft[-1]), key=lambda point: -math.dist(point, middle))
    else:
        tail = shaft[0]
        far = max(shaft, key=lambda point: math.dist(point, tail))
        # The tip is the ink farthest along the shaft: a head may reach beyond the point
        # farthest from the tail.
        axis = (far[0] - tail[0], far[1] - tail[1])
        head = max(shaft, key=lambda point: (point[0] - tail[0]) * axis[0] + (point[1] - tail[1]) * axis[1])
    source_angle = math.atan2(head[1] - tail[1], head[0] - tail[0])
    target_angle = math.atan2(tip[1] - start[1], tip[0] - start[0])
    scale = math.dist(start, tip) / max(math.dist(tail, head), 1e-9)
    turn = target_angle - source_angle
    cos_t, sin_t = math.cos(turn) * scale, math.sin(turn) * scale

    def move(point):
        dx, dy = point[0] - tail[0], point[1] - tail[1]
        return (start[0] + cos_t * dx - sin_t * dy, start[1] + sin_t * dx + cos_t * dy)

    moved = [[move(point) for point in stroke] for stroke in strokes]
    if not others:
        return moved
    end = move(head)
    head_points = [point for stroke, placed in zip(strokes, moved) if stroke is not shaft for point in placed]
    x0, y0, x1, y1 = bounds([head_points])
    factor = head_size / max(x1 - x0, y1 - y0, 1e-9)
    return [placed if stroke is shaft else [(end[0] + (x - end[0]) * factor, end[1] + (y - end[1]) * factor) for x, y in placed]
            for stroke, placed in zip(strokes, moved)]


def ink_radius(strokes, center, angle, fallback):
    """How far from `center` the circle's ink lies about `angle` (a real circle is no exact
    circle: scaled to its longer side, its ink can lie well inside the nominal radius)."""
    def off(point):
        turn = math.atan2(point[1] - center[1], point[0] - center[0]) - angle
        return abs(math.atan2(math.sin(turn), math.cos(turn)))
    near = sorted(math.dist(point, center) for stroke in strokes for point in stroke if off(point) < 0.3)
    return near[len(near) // 2] if near else fallback


def synthetic_loop(rng, center, radius, angle, rim_radius):
    """A self-loop: an arc leaving the rim (the state's ink, `rim_radius` from `center`) near
    `angle`, bulging outward, coming back to the rim with an arrowhead drawn in the same stroke
    (synthetic: the real strokes have none), as large as the self-loops of the 22 real
    diagrams of fa-diagrams (path 3.4-5.6 R, 10th-90th percentile)."""
    half_width, height = radius * rng.uniform(0.55, 0.9), radius * rng.uniform(1.0, 1.6)
    points = []
    for step in range(61):
        t = math.pi * step / 60  # from one foot over the top to the other
        u = -math.cos(t) * half_width * (1 + 0.15 * math.sin(t))
        v = math.sin(t) * height + rng.gauss(0, radius * 0.01)
        points.append((u, v))
    # Head at the end (pointing back into the rim), barbs back along the last direction.
    (ux, uy), (px, py) = points[-1], points[-8]
    direction = math.atan2(uy - py, ux - px)
    barb = radius * rng.uniform(0.3, 0.5)
    for sign in (1, -1):
        a = direction + math.pi + sign * rng.uniform(0.4, 0.7)
        if sign == 1:
            points.append((ux + barb * math.cos(a), uy + barb * math.sin(a)))
            points.append((ux, uy))
        else:
            points.append((ux + barb * math.cos(a), uy + barb * math.sin(a)))
    # u along the tangent at the rim (the state's ink), v out of it; the feet, off the tangent's
    # touching point, are pulled in onto the rim, less the higher up the loop.
    out = (math.cos(angle), math.sin(angle))
    side = (-out[1], out[0])
    base = rim_radius * 0.95

    def place(u, v):
        x, y = base * out[0] + u * side[0] + v * out[0], base * out[1] + u * side[1] + v * out[1]
        pull = (math.hypot(base, u) - base) * max(0.0, 1 - v / height)
        length = math.hypot(x, y)
        return (center[0] + x * (1 - pull / length), center[1] + y * (1 - pull / length))
    return [[place(u, v) for u, v in points]]


# ---------------------------------------------------------------------------------------------
# Sketches

def compose(automaton, rng, circles, arrows):
    """The sketch's drawings in drawing order: (strokes, symbols) pairs."""
    radius = math.exp(rng.uniform(math.log(25), math.log(70)))
    # States as far apart as in the 22 real diagrams of fa-diagrams: centres of states joined
    # by a transition 4.7-11.4 R apart (10th-90th percentile), median 7.0 R.
    spacing = radius * min(11.0, max(4.0, rng.lognormvariate(math.log(7.0), 0.3)))
    rotation = rng.uniform(-0.25, 0.25)
    origin = (rng.uniform(100, 500), rng.uniform(100, 500))

    def at(position):
        x, y = position[0] * spacing, position[1] * spacing
        return (origin[0] + x * math.cos(rotation) - y * math.sin(rotation) + rng.gauss(0, radius * 0.1),
                origin[1] + x * math.sin(rotation) + y * math.cos(rotation) + rng.gauss(0, radius * 0.1))

    centers = [at(position) for position in automaton["positions"]]
    rims = [radius * rng.uniform(0.9, 1.1) for _ in centers]
    drawings = []
    outermost = []  # each state's outer circle as drawn
    for index, center in enumerate(centers):
        drawings.append((place_circle(rng.choice(circles), center, rims[index]), None))
        outermost.append(drawings[-1][0])
        if index in automaton["finals"]:
            # A second circle round the state: larger, a little off-centre.
            outer = rims[index] * rng.uniform(1.2, 1.35)
            offset = rng.uniform(0, 0.1) * rims[index]
            direction = rng.uniform(0, 2 * math.pi)
            drawings.append((place_circle(rng.choice(circles), (center[0] + offset * math.cos(direction),
                                                                center[1] + offset * math.sin(direction)), outer),
                             None))
            rims[index] = outer
            outermost[index] = drawings[-1][0]

    def arrow(start, tip):
        # Head strokes as large as in the 22 real diagrams of fa-diagrams: 0.44-1.40 R across
        # (10th-90th percentile), median 0.75 R.
        head_size = radius * min(1.8, max(0.35, rng.lognormvariate(math.log(0.75), 0.49)))
        return place_arrow(rng.choice(arrows), start, tip, head_size)

    # The initial arrow comes from empty space.
    side = automaton["initial_side"] + rotation + rng.uniform(-0.2, 0.2)
    center, rim = centers[automaton["initial"]], rims[automaton["initial"]]
    # Its shaft as long as the real diagrams' initial arrows: 1.9-3.6 R (10th-90th), median 2.6 R.
    near = rim * rng.uniform(1.05, 1.25)
    far = near + radius * min(4.0, max(1.5, rng.lognormvariate(math.log(2.6), 0.25)))
    drawings.append((arrow((center[0] + far * math.cos(side), center[1] + far * math.sin(side)),
                           (center[0] + near * math.cos(side), center[1] + near * math.sin(side))), None))

    rest = []
    pairs = {(a, b) for a, b, _ in automaton["edges"]}
    for source, target, symbols in automaton["edges"]:
        (sx, sy), (tx, ty) = centers[source], centers[target]
        length = math.dist((sx, sy), (tx, ty))
        ux, uy = (tx - sx) / length, (ty - sy) / length
        # Opposite edges between two states run side by side (each to its own left).
        shift = 0.4 * radius if (target, source) in pairs else rng.gauss(0, 0.05 * radius)
        lx, ly = uy, -ux
        begin = rims[source] * rng.uniform(1.0, 1.25)
        end = rims[target] * rng.uniform(1.0, 1.25)
        start = (sx + ux * begin + lx * shift, sy + uy * begin + ly * shift)
        tip = (tx - ux * end + lx * shift, ty - uy * end + ly * shift)
        rest.append((arrow(start, tip), symbols.split(",")))
    for state, angle, symbols in automaton["loops"]:
        angle += rotation + rng.uniform(-0.3, 0.3)
        rim_radius = ink_radius(outermost[state], centers[state], angle, rims[state])
        rest.append((synthetic_loop(rng, centers[state], rims[state], angle, rim_radius), symbols.split(",")))
    rng.shuffle(rest)
    return drawings + rest


def ndjson(drawings, one_stroke_per_line):
    lines = []
    for strokes, symbols in drawings:
        groups = [[stroke] for stroke in strokes] if one_stroke_per_line else [strokes]
        for number, group in enumerate(groups):
            line = {"drawing": [[[round(x, 1) for x, _ in stroke], [round(y, 1) for _, y in stroke]]
                                for stroke in group]}
            if symbols and number == 0:
                line["symbols"] = symbols
            lines.append(json.dumps(line, separators=(",", ":")))
    return "\n".join(lines) + "\n"


def recognize(strokekit, model, path, word_list):
    command = [strokekit, "recognize", path, "--json", "--simulate", *word_list]
    if model:
        command[2:2] = ["--model", model]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        return None, result.stderr.strip()
    return json.loads(result.stdout), None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data")
    parser.add_argument("out")
    parser.add_argument("strokekit")
    parser.add_argument("--model")
    parser.add_argument("--per-automaton", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--writers", choices=["all", "dev", "test"], default="test")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--verbose", action="store_true")
    arguments = parser.parse_args()

    circles, arrows = load_real(arguments.data, arguments.writers)
    os.makedirs(arguments.out, exist_ok=True)
    rng = random.Random(arguments.seed)
    modes = {"drawing": False, "stroke": True}
    results = {mode: {"right": 0, "count": 0, "by_automaton": {}} for mode in modes}
    for automaton in AUTOMATA:
        word_list = list(words(automaton["alphabet"], 5))
        slug = "".join(c if c.isalnum() else "-" for c in automaton["name"]).strip("-")
        for number in range(arguments.per_automaton):
            drawings = compose(automaton, rng, circles, arrows)
            for mode, one_stroke_per_line in modes.items():
                path = os.path.join(arguments.out, "%s-%02d-per-%s.ndjson" % (slug, number, mode))
                with open(path + ".tmp", "w") as handle:
                    handle.write(ndjson(drawings, one_stroke_per_line))
                os.replace(path + ".tmp", path)
                report, error = recognize(arguments.strokekit, arguments.model, path, word_list)
                accepted = {run["input"]: run["accepted"] for run in report["simulations"]} if report else {}
                wrong = [w for w in word_list if accepted.get(w) != automaton["language"](w)]
                tally = results[mode]["by_automaton"].setdefault(automaton["name"], [0, 0])
                tally[0] += not wrong
                tally[1] += 1
                results[mode]["right"] += not wrong
                results[mode]["count"] += 1
                if arguments.verbose and wrong:
                    reason = error or "; ".join(
                        "line %d: %s" % (stroke["line"], stroke["outcome"]) for stroke in report["strokes"]
                        if stroke["rejected"] or stroke["rule"] is not None)
                    print("%s: %d words wrong (%s) %s" % (path, len(wrong), " ".join(repr(w) for w in wrong[:4]),
                                                          reason), file=sys.stderr)
    if arguments.json:
        print(json.dumps({"writers": arguments.writers, "modes": results}, sort_keys=True))
        return
    print("real sketches (circles and arrows from %s writers, synthetic self-loops), every word up to length 5 right:"
          % arguments.writers)
    for mode in modes:
        entry = results[mode]
        print("  one %s per line: %d/%d (%.3f)" % (mode, entry["right"], entry["count"],
                                                   entry["right"] / max(entry["count"], 1)))
        for name, (right, count) in entry["by_automaton"].items():
            print("    %-20s %d/%d" % (name, right, count))


if __name__ == "__main__":
    main()
