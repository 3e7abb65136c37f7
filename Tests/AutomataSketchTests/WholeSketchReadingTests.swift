import StrokeSupport
import AutomataSketch
import Foundation
import StrokeImage
import StrokeKit
import StrokeTensor
import Testing

/// Strokes the way people draw automata (issue 15, issue 9 items 3-4), written here by hand:
/// pen wobble, arrows whose heads are strokes of their own (before or after the shaft, at
/// either end), second circles drawn later and off-centre, arrows drawn before their states.
enum Hand {
    /// A slightly wobbly polyline through `points`, `perSegment` samples per segment.
    static func stroke(_ points: [SketchPoint], perSegment: Int = 10, wobble: Double = 0.8) -> Stroke {
        var samples: [SketchPoint] = []
        for index in 1..<points.count {
            for step in 0..<perSegment {
                let t = Double(step) / Double(perSegment)
                samples.append(points[index - 1] + (points[index] - points[index - 1]) * t)
            }
        }
        samples.append(points[points.count - 1])
        return Stroke(samples.enumerated().map { index, point in
            (point.x + wobble * sin(Double(index) * 1.7), point.y + wobble * cos(Double(index) * 2.3))
        })
    }

    /// A circle drawn by hand: a little oval, starting at `startAngle`, overshooting its start.
    static func circle(_ center: SketchPoint, _ radius: Double, startAngle: Double = 0.3) -> Stroke {
        stroke((0...36).map { index in
            let angle = startAngle + 2.1 * Double.pi * Double(index) / 36
            return center + SketchPoint(1.08 * radius * cos(angle), 0.94 * radius * sin(angle))
        }, perSegment: 2, wobble: 0.5)
    }

    /// A V head with its apex at `tip`, opening back toward `from`, barbs `size` long.
    static func head(at tip: SketchPoint, from: SketchPoint, size: Double) -> Stroke {
        let back = (from - tip) / length(from - tip)
        let normal = SketchPoint(-back.y, back.x)
        return stroke([tip + (back + normal * 0.7) * size, tip, tip + (back - normal * 0.7) * size], perSegment: 6)
    }

    /// One barb of a head drawn as two strokes.
    static func barb(at tip: SketchPoint, from: SketchPoint, size: Double, side: Double) -> Stroke {
        let back = (from - tip) / length(from - tip)
        let normal = SketchPoint(-back.y, back.x)
        return stroke([tip, tip + (back + normal * 0.7 * side) * size], perSegment: 6)
    }
}

/// The length of a vector.
func length(_ vector: SketchPoint) -> Double { (vector * vector).sum().squareRoot() }
/// The distance between two points.
func distance(_ first: SketchPoint, _ second: SketchPoint) -> Double { length(first - second) }

/// Circles for closed strokes, arrows for open ones: a stand-in for the CNN that reads every
/// drawing by its shape, so these tests check the grouping and the structure, not the model.
struct ClosedOrOpenClassifier: StrokeClassifying {
    func classify(_ strokes: [Stroke]) throws -> Classification {
        let first = strokes[0].points[0], last = strokes[0].points[strokes[0].points.count - 1]
        let xs = strokes.flatMap { $0.points.map(\.x) }, ys = strokes.flatMap { $0.points.map(\.y) }
        let extent = max(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
        let gap = ((first.x - last.x) * (first.x - last.x) + (first.y - last.y) * (first.y - last.y)).squareRoot()
        let label = gap < 0.3 * extent ? "circle" : "arrow"
        return Classification(label: label, confidence: 0.9, probabilities: [label: 0.9], isRejected: false)
    }
}

@Suite struct WholeSketchReadingTests {
    let a = SketchPoint(100, 100), b = SketchPoint(300, 100), c = SketchPoint(200, 260)
    let radius = 30.0

    func ink(_ strokes: [Stroke], symbols: [Int: [String]] = [:]) -> [InkStroke] {
        strokes.enumerated().map { InkStroke(stroke: $0.element, drawing: $0.offset, symbols: symbols[$0.offset] ?? []) }
    }

    func read(_ strokes: [Stroke], symbols: [Int: [String]] = [:]) throws -> SketchReading {
        var cache = ClassificationCache()
        return try SketchReader.read(ink(strokes, symbols: symbols), classifier: ClosedOrOpenClassifier(), cache: &cache)
    }

    /// The automaton with states named by where they are (a, b, c), so orders can be compared.
    func described(_ sketch: Sketch) -> [String] {
        func place(_ id: Int?) -> String {
            guard let state = id.flatMap(sketch.state) else { return "?" }
            return [("a", a), ("b", b), ("c", c)].min { distance($0.1, state.center) < distance($1.1, state.center) }!.0
        }
        let states = sketch.states.map { "\(place($0.id))\($0.isFinal ? " final" : "")\(sketch.isInitial($0.id) ? " initial" : "")" }
        let transitions = sketch.transitions.filter { !$0.isInitialMarker }.map { "\(place($0.from))→\(place($0.to)) \($0.symbols)" }
        return states.sorted() + transitions.sorted()
    }

    // MARK: - Stage 1: grouping

    @Test func headDrawnAfterItsShaftJoinsIt() throws {
        let shaft = Hand.stroke([a + SketchPoint(32, 2), b - SketchPoint(34, -1)])
        let head = Hand.head(at: b - SketchPoint(33, 0), from: a, size: 16)
        let groups = SymbolGrouping.group(ink([Hand.circle(a, radius), Hand.circle(b, radius), shaft, head]))
        let arrow = try #require(groups.first { $0.strokes.contains(2) })
        #expect(arrow.strokes == [2, 3] && arrow.heads == [3] && !arrow.isReversed, "\(groups.map(\.strokes))")
    }

    @Test func headDrawnBeforeItsShaftJoinsIt() throws {
        let head = Hand.head(at: b - SketchPoint(33, 0), from: a, size: 16)
        let shaft = Hand.stroke([a + SketchPoint(32, 2), b - SketchPoint(34, -1)])
        let reading = try read([Hand.circle(a, radius), Hand.circle(b, radius), head, shaft], symbols: [2: ["0"]])
        #expect(described(reading.sketch) == ["a", "b", "a→b [\"0\"]"].sorted { $0 < $1 } || described(reading.sketch).contains("a→b [\"0\"]"),
                "\(described(reading.sketch))")
        #expect(reading.symbolOfStroke[2] == reading.symbolOfStroke[3], "head and shaft are one symbol")
    }

    @Test func headAtTheShaftsStartReversesIt() throws {
        // The shaft is drawn from a to b, then the head is put at a: the arrow goes b → a.
        let shaft = Hand.stroke([a + SketchPoint(32, 2), b - SketchPoint(34, -1)])
        let head = Hand.head(at: a + SketchPoint(33, 0), from: b, size: 16)
        let reading = try read([Hand.circle(a, radius), Hand.circle(b, radius), shaft, head], symbols: [2: ["1"]])
        #expect(described(reading.sketch).contains("b→a [\"1\"]"), "\(described(reading.sketch))")
        #expect(reading.symbols[reading.symbolOfStroke[2]].group.isReversed)
    }

    @Test func headOfTwoBarbsJoinsTheShaft() throws {
        let tip = b - SketchPoint(33, 0)
        let strokes = [
            Hand.circle(a, radius), Hand.circle(b, radius), Hand.stroke([a + SketchPoint(32, 2), tip]),
            Hand.barb(at: tip, from: a, size: 15, side: 1), Hand.barb(at: tip, from: a, size: 15, side: -1),
        ]
        let groups = SymbolGrouping.group(ink(strokes))
        #expect(groups.contains { $0.strokes == [2, 3, 4] && $0.heads == [3, 4] }, "\(groups.map(\.strokes))")
    }

    @Test func bigHeadOnAShortArrowDoesNotTakeTheShaftsPlace() throws {
        // Two states close together; the arrow between them drawn in one go (one drawing),
        // head first, the head a wide V that spans more than the short shaft.
        let near = a + SketchPoint(130, 0)
        let tip = near - SketchPoint(33, 0)
        let head = Hand.head(at: tip, from: a, size: 40)
        let shaft = Hand.stroke([a + SketchPoint(32, 1), tip])
        let ink = [
            InkStroke(stroke: Hand.circle(a, radius), drawing: 0), InkStroke(stroke: Hand.circle(near, radius), drawing: 1),
            InkStroke(stroke: head, drawing: 2, symbols: ["0"]), InkStroke(stroke: shaft, drawing: 2),
        ]
        let extents = [head, shaft].map { stroke in
            let xs = stroke.points.map(\.x), ys = stroke.points.map(\.y)
            return distance(SketchPoint(xs.min()!, ys.min()!), SketchPoint(xs.max()!, ys.max()!))
        }
        #expect(extents[0] > extents[1], "the head must span more than the shaft for this test to mean anything")
        let arrow = try #require(SymbolGrouping.group(ink).first { $0.strokes == [2, 3] })
        #expect(arrow.heads == [2] && !arrow.isReversed)
        var cache = ClassificationCache()
        let sketch = try SketchReader.read(ink, classifier: ClosedOrOpenClassifier(), cache: &cache).sketch
        let transition = try #require(sketch.transitions.first { $0.symbols == ["0"] })
        let from = try #require(sketch.states.first { $0.id == transition.from })
        let to = try #require(sketch.states.first { $0.id == transition.to })
        #expect(distance(from.center, a) < radius && distance(to.center, near) < radius, "\(sketch.transitions)")
    }

    @Test func secondCircleDrawnMuchLaterAndOffCentreMakesTheStateFinal() throws {
        let strokes = [
            Hand.circle(a, radius), Hand.circle(b, radius), Hand.stroke([a + SketchPoint(32, 2), b - SketchPoint(40, 0)]),
            Hand.head(at: b - SketchPoint(40, 0), from: a, size: 15),
            Hand.circle(b + SketchPoint(5, -4), radius * 1.35, startAngle: 2),
        ]
        let reading = try read(strokes)
        #expect(described(reading.sketch).contains("b final"), "\(described(reading.sketch))")
        #expect(reading.sketch.states.count == 2)
    }

    @Test func loopWithItsHeadDrawnApartIsASelfLoop() throws {
        let loop = Pen.loop(a, radius)
        let end = SketchPoint(loop.points.last!.x, loop.points.last!.y)
        let before = SketchPoint(loop.points[loop.points.count - 4].x, loop.points[loop.points.count - 4].y)
        let reading = try read([Hand.circle(a, radius), loop, Hand.head(at: end, from: before, size: 10)], symbols: [1: ["a"]])
        #expect(described(reading.sketch).contains("a→a [\"a\"]"), "\(described(reading.sketch))")
        #expect(reading.symbolOfStroke[1] == reading.symbolOfStroke[2])
    }

    @Test func strayHeadFarFromAnyArrowIsRejectedWithAReason() throws {
        let strokes = [
            Hand.circle(a, radius), Hand.circle(b, radius), Hand.stroke([a + SketchPoint(32, 2), b - SketchPoint(34, -1)]),
            Hand.head(at: SketchPoint(200, 300), from: SketchPoint(150, 300), size: 14),
        ]
        var editor = SketchEditor(classifier: FixedClassifier(arrow: 0.3, none: 0.7))
        for stroke in strokes.prefix(2) { _ = editor.add(stroke, as: .circle) }
        _ = editor.add(strokes[2], as: .arrow)
        let outcome = try editor.add(strokes[3])
        // Small, far from every arrow and state: handwriting belonging to nothing (the text
        // stage), which changes nothing.
        #expect(outcome.kind == .text, "\(outcome)")
        guard case .text(_, .nothing) = outcome.became else { Issue.record("not text belonging to nothing: \(outcome)"); return }
        #expect(outcome.description.contains("belonging to nothing"), "\(outcome)")
        #expect(editor.sketch.transitions.count == 1)
    }

    // MARK: - Stage 3: structure on the whole sketch

    @Test func arrowDrawnBeforeItsTargetStateAttachesWhenTheStateAppears() throws {
        var script = ScriptedSketch()
        script.draw(Hand.circle(a, radius), as: "circle")
        script.draw(Hand.stroke([a + SketchPoint(32, 2), b - SketchPoint(34, -1)]), as: "arrow", symbols: ["0"])
        script.draw(Hand.head(at: b - SketchPoint(34, 0), from: a, size: 15), as: "arrow")
        script.draw(Hand.circle(b, radius), as: "circle")
        let recognition = try script.recognize()
        #expect(recognition.sketch.transitions.map { "\($0.from.flatMap(recognition.sketch.state)?.name ?? "?")→\($0.to.flatMap(recognition.sketch.state)?.name ?? "?")" } == ["q0→q1"])
        #expect(!recognition.sketch.states.contains { recognition.sketch.isInitial($0.id) }, "no initial arrow was drawn")
        // The editor is told that line 2's open arrow now ends at q1.
        #expect(recognition.revisions.contains { $0.line == 2 && $0.changedBy == 4 && $0.after == .transition(id: 1, from: "q0", to: "q1", symbols: ["0"], epsilon: false) },
                "\(recognition.revisions)")
    }

    @Test func initialArrowIsTheOneFromEmptySpaceNotAShortStart() throws {
        // Two arrows with a free start: a transition starting 1.2 R away from b (people start
        // arrows off the rim), and the initial arrow with a big head from far away into a.
        let strokes = [
            Hand.circle(a, radius), Hand.circle(b, radius),
            Hand.stroke([b - SketchPoint(30 + 36, 0), a + SketchPoint(34, 0)]), Hand.head(at: a + SketchPoint(34, 0), from: b, size: 14),
            Hand.stroke([a - SketchPoint(130, 10), a - SketchPoint(33, 0)]), Hand.head(at: a - SketchPoint(33, 0), from: a - SketchPoint(130, 10), size: 26),
        ]
        let reading = try read(strokes, symbols: [2: ["x"]])
        #expect(described(reading.sketch) == ["a initial", "b", "b→a [\"x\"]"], "\(described(reading.sketch))")
    }

    @Test func transitionStoppingShortOfTheRimOrOvershootingIntoTheStateAttaches() throws {
        let strokes = [
            Hand.circle(a, radius), Hand.circle(b, radius), Hand.circle(c, radius),
            // Stops 1.5 R short of b's rim.
            Hand.stroke([a + SketchPoint(32, 0), b - SketchPoint(30 + 45, 0)]), Hand.head(at: b - SketchPoint(75, 0), from: a, size: 14),
            // Overshoots deep into c.
            Hand.stroke([b + SketchPoint(-10, 32), c + SketchPoint(8, -5)]), Hand.head(at: c + SketchPoint(8, -5), from: b, size: 14),
        ]
        let reading = try read(strokes, symbols: [3: ["0"], 5: ["1"]])
        #expect(described(reading.sketch).contains("a→b [\"0\"]") && described(reading.sketch).contains("b→c [\"1\"]"),
                "\(described(reading.sketch))")
    }

    @Test func curvedBackEdgeWithItsHeadApartIsATransition() throws {
        let back = Pen.arc(b + SketchPoint(-20, 25), a + SketchPoint(20, 25), bulge: -70, steps: 24)
        let end = SketchPoint(back.points.last!.x, back.points.last!.y)
        let before = SketchPoint(back.points[back.points.count - 3].x, back.points[back.points.count - 3].y)
        let reading = try read([Hand.circle(a, radius), Hand.circle(b, radius), back, Hand.head(at: end, from: before, size: 14)], symbols: [2: ["b"]])
        #expect(described(reading.sketch).contains("b→a [\"b\"]"), "\(described(reading.sketch))")
    }

    // MARK: - Order independence

    /// A small diagram, one symbol per entry (heads as their own strokes), every symbol order
    /// of a seeded sample gives the same automaton.
    @Test func symbolOrderDoesNotChangeTheAutomaton() throws {
        let symbols: [[Stroke]] = [
            [Hand.circle(a, radius)],
            [Hand.circle(b, radius), Hand.circle(b + SketchPoint(2, 3), radius * 1.3, startAngle: 1)],
            [Hand.circle(c, radius)],
            [Hand.stroke([a - SketchPoint(120, 0), a - SketchPoint(33, 0)]), Hand.head(at: a - SketchPoint(33, 0), from: a - SketchPoint(120, 0), size: 20)],
            [Hand.stroke([a + SketchPoint(32, 2), b - SketchPoint(42, -1)]), Hand.head(at: b - SketchPoint(42, 0), from: a, size: 15)],
            [Hand.stroke([b + SketchPoint(-12, 40), c + SketchPoint(15, -28)]), Hand.head(at: c + SketchPoint(15, -28), from: b, size: 15)],
            // Drawn from a toward c, the head then put at the start: c → a.
            [Hand.stroke([a + SketchPoint(14, 30), c + SketchPoint(-25, -18)]), Hand.head(at: a + SketchPoint(14, 30), from: c, size: 15)],
        ]
        let labels: [Int: [String]] = [4: ["0"], 5: ["1"], 6: ["0", "1"]]
        func automaton(order: [Int], perStroke: Bool) throws -> [String] {
            var ink: [InkStroke] = []
            for (drawing, symbol) in order.enumerated() {
                for (index, stroke) in symbols[symbol].enumerated() {
                    ink.append(InkStroke(
                        stroke: stroke, drawing: perStroke ? ink.count : drawing,
                        symbols: index == 0 ? labels[symbol] ?? [] : []))
                }
            }
            var cache = ClassificationCache()
            return described(try SketchReader.read(ink, classifier: ClosedOrOpenClassifier(), cache: &cache).sketch)
        }
        let expected = try automaton(order: Array(symbols.indices), perStroke: false)
        #expect(expected == ["a initial", "b final", "c", "a→b [\"0\"]", "b→c [\"1\"]", "c→a [\"0\", \"1\"]"],
                "the writer's order: \(expected)")
        var generator = SeededGenerator(seed: 15)
        for _ in 0..<8 {
            let order = Array(symbols.indices).shuffled(using: &generator)
            #expect(try automaton(order: order, perStroke: false) == expected, "symbol order \(order)")
            #expect(try automaton(order: order, perStroke: true) == expected, "symbol order \(order), one stroke per drawing")
        }
    }

    // MARK: - Overlay

    @Test func overlayDrawsEveryStrokeAndTheAutomaton() throws {
        var script = ScriptedSketch()
        script.draw(Hand.circle(a, radius), as: "circle")
        script.draw(Hand.circle(b, radius), as: "circle", name: "end")
        script.draw(Hand.stroke([a + SketchPoint(32, 2), b - SketchPoint(34, -1)]), as: "arrow", symbols: ["0"])
        let recognition = try script.recognize()
        let svg = SketchOverlay.svg(recognition.editor.reading, ink: recognition.editor.ink, lineNumbers: [1, 2, 3])
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 3, "one polyline per stroke")
        #expect(svg.contains(">q0</text>") && svg.contains(">end</text>"), "state names")
        #expect(svg.contains("marker-end"), "the transition's arrow")
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>\n"))
    }
}

/// Erasing shifts the remaining strokes' positions in the ink: their classifications must
/// follow the strokes, not the positions (an initial arrow once became a state this way).
@Suite struct EraseKeepsClassificationsTests {
    @Test func strokesKeepTheirShapesAfterAnEraseBeforeThem() throws {
        var script = ScriptedSketch()
        let q0 = SketchPoint(100, 100), q1 = SketchPoint(260, 100)
        script.draw(Pen.circle(q0, 30), as: "circle")
        script.draw(Pen.circle(q1, 30), as: "circle")
        script.draw(Pen.arrow(SketchPoint(20, 100), SketchPoint(68, 100)), as: "arrow")
        script.draw(Pen.arrow(SketchPoint(132, 100), SketchPoint(226, 100)), as: "arrow", symbols: ["a"])
        var editor = try script.recognize().editor
        let outcome = editor.erase(Stroke([(250, 90), (270, 110)]))
        #expect(outcome.removedStates == ["q1"])
        #expect(editor.sketch.states.map(\.name) == ["q0"], "\(editor.sketch.states)")
        #expect(editor.sketch.isInitial(editor.sketch.states[0].id), "the initial arrow is still an arrow")
    }
}
