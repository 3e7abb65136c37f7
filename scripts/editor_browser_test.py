"""End-to-end tests of the automata editor in headless Chromium.

Run by scripts/editor-browser-test.sh, which makes the virtual environment, installs Chromium
and builds `strokekit`. Each test drives the page as a person would: strokes are WebDriver pen
input (pointer events) on the canvas, symbols are typed into the box that opens, buttons are
clicked; the checks read what the page shows (the transition table, the trace, the verdict).

Real diagrams come from ../shared/datasets/fa-diagrams (evaluation data: read in place, never
copied). REAL_DIAGRAMS lists the ones replayed with symbols typed; INK_DIAGRAMS the ones of
ink/ written with the pen, labels included, with nothing typed (HandwrittenInkTests).
"""

import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

ROOT = Path(__file__).resolve().parent.parent
STROKEKIT = Path(os.environ.get("STROKEKIT", ROOT / ".build" / "release" / "strokekit"))
FA_DIAGRAMS = ROOT.parent / "shared" / "datasets" / "fa-diagrams"
SCREENSHOTS = os.environ.get("EDITOR_SCREENSHOTS")  # a folder: write the README's screenshots there

# Diagrams the current recognizer reads right when the page sends one symbol at a time (the
# strokes of an arrow's shaft and head together, with "Several strokes"); see the README.
REAL_DIAGRAMS = os.environ.get(
    "EDITOR_REAL_DIAGRAMS", "writer000_fa_004 writer004_fa_007 writer006_fa_004 writer009_fa_007"
).split()


class Page:
    """The editor page in one browser tab, with the gestures a user makes."""

    def __init__(self, driver, url, pointer="mouse"):
        self.driver = driver
        # Mouse (or touch) users type symbols in the box that opens after an arrow; pen users
        # write them beside it (the page opens no box for a pen).
        self.pointer = pointer
        driver.get(url)
        self.wait_idle()
        self.canvas = driver.find_element(By.ID, "canvas")

    def wait_idle(self):
        for _ in range(200):
            if self.driver.execute_script("return typeof window.editorIdle === 'function' && !!document.body.dataset.session"):
                break
            time.sleep(0.05)
        self.driver.execute_async_script("const done = arguments[0]; window.editorIdle().then(done);")

    def canvas_box(self):
        return self.driver.execute_script(
            "const r = document.getElementById('canvas').getBoundingClientRect();"
            "return [r.left, r.top, r.width, r.height];")

    def stroke(self, points, pressure=0.6):
        """One stroke through canvas points (x, y), with the page's pointer (pen or mouse)."""
        left, top, _, _ = self.canvas_box()
        kind = interaction.POINTER_PEN if self.pointer == "pen" else interaction.POINTER_MOUSE
        builder = ActionBuilder(self.driver, mouse=PointerInput(kind, self.pointer), duration=0)
        pen = builder.pointer_action
        first = points[0]
        pen.move_to_location(round(left + first[0]), round(top + first[1]))
        if self.pointer == "pen":
            pen.pointer_down(pressure=pressure)
        else:
            pen.pointer_down()
        for x, y in points[1:]:
            pen.move_to_location(round(left + x), round(top + y))
        pen.pointer_up()
        builder.perform()

    def tap(self, x, y):
        self.stroke([(x, y)])
        self.wait_idle()

    def click(self, element_id):
        self.driver.find_element(By.ID, element_id).click()
        self.wait_idle()

    def draw_symbol(self, strokes):
        """Draws one symbol: one stroke, or several inside "Several strokes" … "Done"."""
        if len(strokes) > 1:
            self.click("group-strokes")
        for stroke in strokes:
            self.stroke(stroke)
        if len(strokes) > 1:
            self.click("group-strokes")
        self.wait_idle()

    def label_editor_open(self):
        return self.driver.execute_script("return !document.getElementById('label-editor').hidden")

    def type_symbols(self, symbols, epsilon=False):
        field = self.driver.find_element(By.ID, "label-input")
        field.clear()
        field.send_keys(", ".join(symbols))
        if epsilon:
            self.driver.find_element(By.ID, "epsilon").click()
            field = self.driver.find_element(By.ID, "label-input")
        field.send_keys(Keys.ENTER)
        self.wait_idle()

    def status(self):
        return self.driver.find_element(By.ID, "status").text

    def automaton(self):
        """The automaton the page holds (what it draws), as the server sent it."""
        return self.driver.execute_script("return editor.automaton")

    def table(self):
        """The transition table as shown: {state: (marker, {column: cell})}, read in one go."""
        rows = self.driver.execute_script(
            "return [...document.querySelectorAll('#table tr')]"
            ".map((row) => [...row.children].map((cell) => cell.textContent));")
        header = rows[0][2:]
        return {cells[1]: (cells[0], dict(zip(header, cells[2:]))) for cells in rows[1:]}

    def open_panel(self):
        if self.driver.execute_script("return document.getElementById('panel').hidden"):
            self.click("show-panel")

    def run_word(self, word):
        """Types a word, presses Run, returns (accepted, verdict text)."""
        self.open_panel()
        field = self.driver.find_element(By.ID, "word")
        field.clear()
        if word:
            field.send_keys(word)
        self.click("run")
        verdict = self.driver.find_element(By.ID, "verdict")
        return "accepted" in verdict.get_attribute("class").split(), verdict.text

    def trace(self):
        return [item.text for item in self.driver.find_elements(By.CSS_SELECTOR, "#trace li")]

    def current_trace_line(self):
        items = self.driver.find_elements(By.CSS_SELECTOR, "#trace li.current")
        return items[0].text if items else None


def circle(cx, cy, r, turns=1.0, start=0.0, wobble=0.0, n=48):
    count = max(8, int(n * turns))
    return [
        (cx + (r + wobble * math.sin(5 * i / count * 2 * math.pi)) * math.cos(start + 2 * math.pi * turns * i / count),
         cy + (r + wobble * math.sin(5 * i / count * 2 * math.pi)) * math.sin(start + 2 * math.pi * turns * i / count))
        for i in range(count + 1)
    ]


def arrow(start, tip, bow=0.0):
    """An arrow with its head in the same stroke; `bow` bends the shaft sideways (canvas units)."""
    (sx, sy), (tx, ty) = start, tip
    dx, dy = tx - sx, ty - sy
    length = math.hypot(dx, dy)
    nx, ny = -dy / length, dx / length
    points = [(sx + dx * t + nx * bow * 4 * t * (1 - t), sy + dy * t + ny * bow * 4 * t * (1 - t))
              for t in (i / 16 for i in range(17))]
    # The head follows the shaft's last direction.
    (px, py), (qx, qy) = points[-2], points[-1]
    ux, uy = (qx - px) / math.hypot(qx - px, qy - py), (qy - py) / math.hypot(qx - px, qy - py)
    size = min(14, 0.2 * length)
    points += [(tx - ux * size - uy * size * 0.6, ty - uy * size + ux * size * 0.6), (tx, ty),
               (tx - ux * size + uy * size * 0.6, ty - uy * size - ux * size * 0.6)]
    return points


def loop_above(cx, cy, r):
    """A small loop standing on the top of a state's rim (a self-loop)."""
    return circle(cx, cy - r * 1.3, r * 0.5, start=math.pi / 2)


class EditorTestCase(unittest.TestCase):
    server = None
    url = None
    driver = None

    @classmethod
    def setUpClass(cls):
        cls.store = tempfile.mkdtemp(prefix="strokekit-editor-test-")
        cls.server = subprocess.Popen(
            [str(STROKEKIT), "serve", "--port", "0", "--store", f"sqlite:{cls.store}/sessions.sqlite"],
            stdout=subprocess.PIPE, stderr=sys.stderr, text=True)
        line = cls.server.stdout.readline()
        match = re.search(r"(http://\S+)", line)
        if not match:
            cls.server.kill()
            raise RuntimeError(f"strokekit serve did not print its address: {line!r}")
        cls.url = match.group(1)
        options = webdriver.ChromeOptions()
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1100,800"):
            options.add_argument(argument)
        service = webdriver.ChromeService(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        cls.driver = webdriver.Chrome(options=options, service=service)
        cls.driver.set_script_timeout(30)

    @classmethod
    def tearDownClass(cls):
        if cls.driver:
            cls.driver.quit()
        if cls.server:
            cls.server.terminate()
            cls.server.wait(timeout=10)
        shutil.rmtree(cls.store, ignore_errors=True)

    def new_page(self, pointer="mouse"):
        return Page(self.driver, self.url, pointer)

    def draw_two_states(self, page, size=1.0):
        """q0 (initial) at (150, 200), q1 at (350, 200), and a transition q0 -> q1 labelled a;
        `size` scales the drawing (a phone's canvas is narrower)."""
        def at(points):
            return [(x * size, y * size) for x, y in points]
        page.draw_symbol([at(circle(150, 200, 40, wobble=1.5))])
        page.draw_symbol([at(circle(350, 200, 40, start=1.0, wobble=1.5))])
        page.draw_symbol([at(arrow((40, 200), (106, 200)))])
        page.draw_symbol([at(arrow((193, 195), (305, 195), bow=-6))])
        self.assertTrue(page.label_editor_open(), f"no symbols box after the arrow: {page.status()}")
        page.type_symbols(["a"])


class EditingTests(EditorTestCase):
    def test_drawn_states_and_typed_symbols_show_in_the_table(self):
        page = self.new_page()
        self.draw_two_states(page)
        table = page.table()
        self.assertEqual(set(table), {"q0", "q1"}, page.status())
        self.assertEqual(table["q0"], ("→", {"a": "{q1}"}))

    def test_a_reload_brings_the_drawing_and_its_history_back(self):
        page = self.new_page()
        self.draw_two_states(page)
        before = page.automaton()
        self.assertIn("#session=", self.driver.current_url)
        self.driver.refresh()
        page.wait_idle()
        self.assertEqual(page.automaton(), before)
        self.assertEqual(set(page.table()), {"q0", "q1"}, page.status())
        page.click("undo")  # the symbols, typed before the reload
        self.assertEqual(page.table()["q0"][1], {})

    def test_undo_and_redo_step_through_changes(self):
        page = self.new_page()
        self.draw_two_states(page)
        page.click("undo")  # the symbols
        self.assertEqual(page.table()["q0"][1], {})
        page.click("undo")  # the transition
        self.assertEqual(len([e for e in page.automaton()["edges"] if e["kind"] == "regular"]), 0)
        page.click("redo")
        page.click("redo")
        self.assertEqual(page.table()["q0"], ("→", {"a": "{q1}"}))
        self.assertTrue(page.driver.find_element(By.ID, "redo").get_attribute("disabled"))

    def test_erase_removes_the_transition_then_the_state(self):
        page = self.new_page()
        self.draw_two_states(page)
        page.click("tool-erase")
        page.stroke([(250, 170), (252, 220)])  # across the arrow, between the states
        page.wait_idle()
        self.assertEqual(page.table()["q0"][1], {}, page.status())
        self.assertIn("removed transitions", page.status())
        page.stroke([(340, 190), (360, 210)])  # a scribble over q1
        page.wait_idle()
        self.assertEqual(set(page.table()), {"q0"}, page.status())

    def test_toggle_final_makes_a_state_final_and_non_final(self):
        page = self.new_page()
        self.draw_two_states(page)
        page.click("tool-final")
        page.tap(350, 200)
        self.assertEqual(page.table()["q1"][0], "←", page.status())
        self.assertEqual(page.run_word("a")[0], True)
        page.tap(350, 200)
        self.assertEqual(page.table()["q1"][0], "", page.status())
        accepted, verdict = page.run_word("a")
        self.assertFalse(accepted)
        self.assertIn("none of these states is final", verdict)

    def test_step_by_step_simulation_highlights_each_set_and_says_when_nothing_changes(self):
        page = self.new_page()
        self.draw_two_states(page)
        page.draw_symbol([loop_above(350, 200, 40)])
        self.assertTrue(page.label_editor_open(), f"no symbols box after the self-loop: {page.status()}")
        page.type_symbols(["b"])
        page.click("tool-final")
        page.tap(350, 200)
        page.open_panel()
        page.driver.find_element(By.ID, "word").send_keys("abb")
        expected = ["start: {q0}", "read a: {q1}", "read b: {q1} (no change: the same states as before)"]
        for step, line in enumerate(expected):
            page.click("step")
            self.assertEqual(page.current_trace_line(), line)
            highlighted = page.driver.execute_script("return [...activeStates()]")
            self.assertEqual(highlighted, [re.search(r"\{(.*)\}", line).group(1)])
            self.assertIn("next symbol", page.driver.find_element(By.ID, "verdict").text)
        page.click("step")
        self.assertIn('"abb" accepted', page.driver.find_element(By.ID, "verdict").text)
        if SCREENSHOTS:
            page.click("step")
            page.driver.save_screenshot(str(Path(SCREENSHOTS) / "editor-simulation.png"))

    def test_clear_asks_first_and_undo_brings_it_back(self):
        page = self.new_page()
        self.draw_two_states(page)
        page.click("clear")
        page.click("confirm-clear-no")
        self.assertEqual(set(page.table()), {"q0", "q1"})
        page.click("clear")
        page.click("confirm-clear-yes")
        self.assertEqual(page.automaton()["states"], [])
        page.click("undo")
        self.assertEqual(set(page.table()), {"q0", "q1"})

    def test_a_phone_sized_screen_shows_the_canvas_and_every_control(self):
        self.driver.set_window_size(390, 760)
        try:
            page = self.new_page()
            _, _, width, height = page.canvas_box()
            self.assertGreaterEqual(width, 360)
            self.assertGreaterEqual(height, 300)
            for control in ("tool-draw", "tool-erase", "tool-final", "undo", "redo", "show-panel", "clear", "help-button"):
                box = self.driver.execute_script(
                    f"const r = document.getElementById('{control}').getBoundingClientRect(); return [r.right, r.bottom];")
                self.assertLessEqual(box[0], 390, control)
            self.draw_two_states(page, size=0.85)
            self.assertEqual(page.table()["q0"], ("→", {"a": "{q1}"}))
            if SCREENSHOTS:
                page.driver.save_screenshot(str(Path(SCREENSHOTS) / "editor-phone.png"))
        finally:
            self.driver.set_window_size(1100, 800)

    def test_screenshot_of_a_recognized_diagram(self):
        if not SCREENSHOTS:
            self.skipTest("EDITOR_SCREENSHOTS not set")
        page = self.new_page()
        self.draw_two_states(page)
        page.draw_symbol([loop_above(350, 200, 40)])
        page.type_symbols(["b"])
        page.draw_symbol([circle(550, 200, 40, wobble=1.5)])
        page.draw_symbol([arrow((393, 205), (505, 205), bow=8)])
        page.type_symbols(["a", "b"])
        page.draw_symbol([circle(550, 200, 52, start=2.0)])
        page.draw_symbol([arrow((530, 245), (170, 243), bow=-70)])
        page.type_symbols([], epsilon=True)
        page.driver.save_screenshot(str(Path(SCREENSHOTS) / "editor-diagram.png"))


@unittest.skipUnless(FA_DIAGRAMS.is_dir(), f"{FA_DIAGRAMS} is absent: the real-diagram tests are skipped")
class RealDiagramTests(EditorTestCase):
    """Real diagrams drawn stroke by stroke, in the order the writer drew the symbols."""

    def replay(self, name):
        text = (FA_DIAGRAMS / "sketches_per_stroke" / f"{name}.ndjson").read_text()
        lines = [json.loads(line) for line in text.splitlines() if line.strip()]
        truth = json.loads((FA_DIAGRAMS / "truth" / f"{name}.json").read_text())
        expected = json.loads((FA_DIAGRAMS / "expected.json").read_text())[f"{name}.ndjson"]
        # Group the per-stroke lines into symbols, in the order the writer began the symbols.
        symbol_of_line = {entry["line"]: entry["symbol"] for entry in truth["stroke_lines"]}
        groups = {}
        for index, line in enumerate(lines):
            groups.setdefault(symbol_of_line[index], []).append(line)
        labels = {t["arrow"]: t for t in truth["transitions"]}

        page = self.new_page()
        _, _, width, height = page.canvas_box()
        xs = [x for line in lines for stroke in line["drawing"] for x in stroke[0]]
        ys = [y for line in lines for stroke in line["drawing"] for y in stroke[1]]
        margin = 30
        scale = min((width - 2 * margin) / (max(xs) - min(xs)), (height - 2 * margin) / (max(ys) - min(ys)), 1.5)

        def to_canvas(x, y):
            return (margin + (x - min(xs)) * scale, margin + (y - min(ys)) * scale)

        for symbol, symbol_lines in groups.items():
            strokes = [[to_canvas(x, y) for x, y in zip(*stroke)] for line in symbol_lines for stroke in line["drawing"]]
            page.draw_symbol(strokes)
            label = labels.get(symbol)
            if label and (label["symbols"] or label["epsilon"]):
                self.assertTrue(page.label_editor_open(),
                                f"{name}: symbol {symbol} did not become a transition: {page.status()}")
                page.type_symbols(label["symbols"], epsilon=label["epsilon"])

        # The automaton on the page: states, finals, initial, and every transition, with page
        # states matched to the true ones by position.
        automaton = page.automaton()
        table = page.table()
        self.assertEqual(len(table), len(truth["states"]), f"{name}: states {sorted(table)}")
        centre = {s["id"]: to_canvas(*s["center"]) for s in truth["states"]}
        page_name = {}
        for state_id, (x, y) in centre.items():
            nearest = min(automaton["states"], key=lambda s: math.hypot(s["x"] - x, s["y"] - y))
            page_name[state_id] = nearest["name"]
        self.assertEqual(len(set(page_name.values())), len(truth["states"]), f"{name}: two true states on one page state")
        for state in truth["states"]:
            marker = table[page_name[state["id"]]][0]
            self.assertEqual("←" in marker, state["final"], f"{name}: final mark of {page_name[state['id']]}")
            self.assertEqual("→" in marker, state["id"] in truth["initial"], f"{name}: initial mark of {page_name[state['id']]}")
        shown = {(s, column, target) for s, (_, cells) in table.items() for column, cell in cells.items()
                 for target in re.findall(r"[^{}, ∅]+", cell)}
        true_moves = {(page_name[t["from"]], symbol, page_name[t["to"]]) for t in truth["transitions"]
                      for symbol in t["symbols"] + (["ε"] if t["epsilon"] else [])}
        self.assertEqual(shown, true_moves, f"{name}: transitions on the page differ from the truth")

        wrong = [(word, accepted) for word, accepted in expected.items() if page.run_word(word)[0] != accepted]
        self.assertEqual(wrong[:5], [], f"{name}: {len(wrong)} of {len(expected)} verdicts wrong")
        return len(lines), len(expected)


# Diagrams of ink/ replayed with nothing typed (default: all of them).
INK_DIAGRAMS = os.environ.get("EDITOR_INK_DIAGRAMS", "").split() or sorted(
    path.stem for path in (FA_DIAGRAMS / "ink").glob("*.ndjson"))
# The diagram whose page is saved as docs/editor-labels.png when EDITOR_SCREENSHOTS is set.
LABELS_SCREENSHOT = os.environ.get("EDITOR_LABELS_SCREENSHOT", "writer000_fa_004")


def recognize(ink_file, words):
    """`strokekit recognize --json --simulate WORDS` on an ndjson file: the report."""
    result = subprocess.run([str(STROKEKIT), "recognize", str(ink_file), "--json", "--simulate", *words],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{ink_file}: strokekit recognize failed: {result.stderr.strip()}")
    return json.loads(result.stdout)


@unittest.skipUnless((FA_DIAGRAMS / "ink").is_dir(), f"{FA_DIAGRAMS / 'ink'} is absent: the handwritten-ink tests are skipped")
class HandwrittenInkTests(EditorTestCase):
    """Whole diagrams written with the pen, labels included and nothing typed (ink/), one
    stroke at a time in the writer's order. The page must show what `strokekit recognize`
    reads from the same ink (the strokes the page sent): the same transition table, initial
    and final marks, labels, and the same verdict on every word of expected.json. Where the
    reader gets the diagram right (every verdict as expected.json says), so must the page."""

    replayed = []
    right = []

    @classmethod
    def tearDownClass(cls):
        if cls.replayed:
            print(f"\n  ink/, nothing typed: the page agrees with `strokekit recognize` on {len(cls.replayed)} diagrams; "
                  f"{len(cls.right)} of them with every word right ({' '.join(cls.right)})", file=sys.stderr)
        super().tearDownClass()

    def replay_ink(self, name):
        lines = [json.loads(line) for line in (FA_DIAGRAMS / "ink" / f"{name}.ndjson").read_text().splitlines() if line.strip()]
        expected = json.loads((FA_DIAGRAMS / "expected.json").read_text())[f"{name}.ndjson"]
        page = self.new_page(pointer="pen")
        _, _, width, height = page.canvas_box()
        xs = [x for line in lines for stroke in line["drawing"] for x in stroke[0]]
        ys = [y for line in lines for stroke in line["drawing"] for y in stroke[1]]
        margin = 30
        scale = min((width - 2 * margin) / (max(xs) - min(xs)), (height - 2 * margin) / (max(ys) - min(ys)), 1.5)
        strokes = [[(margin + (x - min(xs)) * scale, margin + (y - min(ys)) * scale) for x, y in zip(*stroke[:2])]
                   for line in lines for stroke in line["drawing"]]
        for stroke in strokes:
            page.stroke(stroke)
            page.wait_idle()
            self.assertFalse(page.label_editor_open(), f"{name}: a box opened for the pen: {page.status()}")
        automaton = page.automaton()
        self.assertEqual(automaton["strokesReceived"], len(strokes),
                         f"{name}: the page sent {automaton['strokesReceived']} of {len(strokes)} strokes (a dot taken for a tap?)")

        # What the CLI reads from the very strokes the page sent.
        sent = self.driver.execute_script("return editor.ink.map((s) => [s.map((p) => p[0]), s.map((p) => p[1])])")
        with tempfile.TemporaryDirectory() as folder:
            ink_file = Path(folder) / f"{name}.ndjson"
            ink_file.write_text("".join(json.dumps({"drawing": [stroke]}) + "\n" for stroke in sent))
            report = recognize(ink_file, list(expected))

        table = page.table()
        self.assertEqual(set(table), {s["name"] for s in report["states"]}, f"{name}: states")
        for state in report["states"]:
            marker = table[state["name"]][0]
            self.assertEqual(("→" in marker, "←" in marker), (state["initial"], state["final"]), f"{name}: marks of {state['name']}")
        shown = {(s, column, target) for s, (_, cells) in table.items() for column, cell in cells.items()
                 for target in re.findall(r"[^{}, ∅]+", cell)}
        read = {(t["from"], symbol, t["to"]) for t in report["transitions"] if t["from"] is not None and t["to"] is not None
                for symbol in t["symbols"] + (["ε"] if t["epsilon"] else [])}
        self.assertEqual(shown, read, f"{name}: the page's table differs from `strokekit recognize`")
        self.assertEqual(sorted((tuple(l["strokes"]), l["text"], l["belongsTo"]) for l in automaton["labels"]),
                         sorted((tuple(l["strokes"]), l["text"], l["belongsTo"]) for l in report["labels"]),
                         f"{name}: the labels on the page differ from `strokekit recognize`")

        # Every word through the page's own simulation request; the first few through the Run button.
        verdicts = self.driver.execute_async_script(
            "const [words, done] = arguments; (async () => { const out = {};"
            " for (const word of words) out[word] = JSON.parse(await api('POST', '/simulate', { word })).accepted;"
            " done(out); })();", list(expected))
        cli = {entry["input"]: entry["accepted"] for entry in report["simulations"]}
        self.assertEqual({w for w in expected if verdicts[w] != cli[w]}, set(), f"{name}: verdicts differ from `strokekit recognize`")
        for word in list(expected)[:3]:
            self.assertEqual(page.run_word(word)[0], cli[word], f"{name}: Run on \"{word}\"")
        type(self).replayed.append(name)
        if all(cli[word] == accepted for word, accepted in expected.items()):
            type(self).right.append(name)
        if SCREENSHOTS and name == LABELS_SCREENSHOT:
            self.driver.save_screenshot(str(Path(SCREENSHOTS) / "editor-labels.png"))
        if name == INK_DIAGRAMS[0]:
            self.correct_a_label(page, name)
        return len(strokes), len(automaton["labels"])

    def correct_a_label(self, page, name):
        """A tap on a transition's label opens its symbols box prefilled with what was read; a
        symbol typed there wins over the writing; undo takes the correction back."""
        automaton = page.automaton()
        label = next((l for l in automaton["labels"] if l["belongsTo"] == "transition"
                      and any(e["id"] == l["owner"] and e["kind"] != "initial" for e in automaton["edges"])), None)
        self.assertIsNotNone(label, f"{name}: no transition label to correct")
        edge = next(e for e in automaton["edges"] if e["id"] == label["owner"])
        min_x, min_y, max_x, _ = label["box"]
        page.tap((min_x + max_x) / 2, min_y - 11)  # its tag
        self.assertTrue(page.label_editor_open(), f"{name}: no box after a tap on the label: {page.status()}")
        shown = self.driver.find_element(By.ID, "label-input").get_attribute("value")
        self.assertEqual(shown, ", ".join(edge["symbols"]), f"{name}: the box is not prefilled with what was read")
        before = page.table()
        page.type_symbols(["z"])
        corrected = next(e for e in page.automaton()["edges"] if e["id"] == edge["id"])
        self.assertEqual(corrected["symbols"], ["z"], f"{name}: the typed symbols did not win")
        self.assertTrue(any("z" in cells for _, cells in page.table().values()), f"{name}: no column z in the table")
        page.click("undo")
        self.assertEqual(page.table(), before, f"{name}: undo did not take the correction back")


def _add_diagram_tests(case, names, replay, suffix, say):
    """One test per diagram on `case`: `replay(self, name)` and a line on what it found."""
    def make(name):
        def test(self):
            print(f"\n  {name}: " + say(*replay(self, name)), file=sys.stderr)
        test.__name__ = f"test_{name}_{suffix}"
        return test
    for name in names:
        setattr(case, f"test_{name}_{suffix}", make(name))


_add_diagram_tests(HandwrittenInkTests, INK_DIAGRAMS, HandwrittenInkTests.replay_ink, "ink_reads_as_the_cli_reads_it",
                   lambda strokes, labels: f"{strokes} strokes written, {labels} labels read, page = recognize")
_add_diagram_tests(RealDiagramTests, REAL_DIAGRAMS, RealDiagramTests.replay, "comes_out_right",
                   lambda strokes, words: f"{strokes} strokes drawn, {words} words right")


if __name__ == "__main__":
    unittest.main(verbosity=2)
