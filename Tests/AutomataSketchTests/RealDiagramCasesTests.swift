@testable import AutomataSketch
import Foundation
import StrokeImage
import StrokeKit
import Testing

/// Cases met in real hand-drawn automata (fa-diagrams, issue 15), drawn here by hand in the
/// same geometry: a shaft lengthened by a later stroke, a head whose barbs end at both circles
/// of a final state, a curved back edge arriving from the side, a loop as large as its state.
@Suite struct RealDiagramCasesTests {
    let a = SketchPoint(100, 100), b = SketchPoint(300, 100)
    let radius = 30.0

    func read(_ ink: [InkStroke], classifier: any StrokeClassifying = ClosedOrOpenClassifier()) throws -> SketchReading {
        var cache = ClassificationCache()
        return try SketchReader.read(ink, classifier: classifier, cache: &cache)
    }

    /// One drawing per stroke, or all the listed strokes in one drawing.
    func ink(_ strokes: [Stroke], oneDrawing: Set<Int> = [], symbols: [Int: [String]] = [:]) -> [InkStroke] {
        let first = oneDrawing.min() ?? -1
        return strokes.enumerated().map { index, stroke in
            InkStroke(stroke: stroke, drawing: oneDrawing.contains(index) ? first : index, symbols: symbols[index] ?? [])
        }
    }

    func transitions(_ sketch: Sketch) -> [String] {
        func place(_ id: Int?) -> String {
            guard let state = id.flatMap(sketch.state) else { return "?" }
            return distance(state.center, a) < distance(state.center, b) ? "a" : "b"
        }
        return sketch.transitions.filter { !$0.isInitialMarker }.map { "\(place($0.from))→\(place($0.to))" }.sorted()
    }

    @Test func shaftLengthenedByALaterStrokeKeepsItsDirection() throws {
        // a → b, the shaft stopping 1.2 R short of a; later the writer retraces its start and
        // carries it on to a's rim. The extension is no head: the arrow still points at b.
        let shaft = Hand.stroke([a + SketchPoint(66, 0), b - SketchPoint(34, 0)])
        let head = Hand.head(at: b - SketchPoint(33, 0), from: a, size: 14)
        let extended = Hand.stroke([a + SketchPoint(80, 1), a + SketchPoint(31, 0)])
        for oneDrawing in [Set<Int>(), [2, 3, 4]] {
            let strokes = [Hand.circle(a, radius), Hand.circle(b, radius), shaft, head, extended]
            let reading = try read(ink(strokes, oneDrawing: oneDrawing, symbols: [2: ["0"]]))
            #expect(transitions(reading.sketch) == ["a→b"], "one drawing: \(!oneDrawing.isEmpty)")
            #expect(reading.symbolOfStroke[2] == reading.symbolOfStroke[4], "the extension is part of the arrow")
            let arrow = reading.symbols[reading.symbolOfStroke[2]].group
            #expect(arrow.heads == [3] && !arrow.isReversed, "\(arrow.heads) \(arrow.isReversed)")
            #expect(!reading.sketch.states.contains { reading.sketch.isInitial($0.id) }, "no initial arrow was drawn")
        }
    }

    @Test func headWhoseBarbsEndAtBothCirclesOfAFinalStateJoinsItsShaft() throws {
        // b is final (circles of 30 and 40): one barb ends within reach of the inner circle,
        // the other only of the outer one; that is one state, so the stroke is no transition.
        let tip = b - SketchPoint(40, 0)
        let head = Hand.stroke([tip + SketchPoint(-14, -14), tip, tip + SketchPoint(-3, 12)], perSegment: 6)
        let strokes = [
            Hand.circle(a, radius), Hand.circle(b, radius), Hand.circle(b, radius * 4 / 3, startAngle: 2),
            Hand.stroke([a + SketchPoint(32, 0), tip]), head,
        ]
        let groups = SymbolGrouping.group(ink(strokes))
        #expect(groups.contains { $0.strokes == [3, 4] && $0.heads == [4] }, "\(groups.map(\.strokes))")
        let reading = try read(ink(strokes, symbols: [3: ["1"]]))
        #expect(transitions(reading.sketch) == ["a→b"], "\(transitions(reading.sketch))")
    }

    @Test func curvedBackEdgeStoppingShortArrivesFromTheSide() throws {
        // From b's underside round below both states and up toward a, stopping 1.2 R short of
        // a's rim: its chord points past a, the way it arrives points at a.
        let tip = a + SketchPoint(-25, 60)
        let back = Hand.stroke([b + SketchPoint(0, 31), b + SketchPoint(0, 120), a + SketchPoint(-25, 120), tip])
        let head = Hand.head(at: tip, from: tip + SketchPoint(0, 20), size: 14)
        let reading = try read(ink([Hand.circle(a, radius), Hand.circle(b, radius), back, head], symbols: [2: ["b"]]))
        #expect(transitions(reading.sketch) == ["b→a"], "\(transitions(reading.sketch))")
    }

    @Test func loopAsLargeAsItsStateWithItsHeadApartIsASelfLoop() throws {
        // The loop ends 1.8 R from a's centre; its head, drawn apart, comes back to the rim. The
        // classifier rejects the pair: the geometry reads it.
        let loop = Hand.stroke([
            a + SketchPoint(22, -21), a + SketchPoint(40, -70), a + SketchPoint(0, -100),
            a + SketchPoint(-40, -70), a + SketchPoint(-32, -48),
        ])
        let head = Hand.head(at: a + SketchPoint(-25, -36), from: a + SketchPoint(-36, -58), size: 10)
        var cache = ClassificationCache()
        let strokes = ink([Hand.circle(a, radius), loop, head], symbols: [1: ["a"]])
        let reading = try SketchReader.read(
            [InkStroke(stroke: strokes[0].stroke, drawing: 0, shape: .circle)] + strokes.dropFirst(),
            classifier: FixedClassifier(cycle: 0.3, none: 0.7), cache: &cache)
        #expect(reading.sketch.transitions.contains { $0.from == $0.to && $0.from != nil && $0.symbols == ["a"] },
                "\(reading.sketch.transitions)")
        #expect(reading.symbolOfStroke[1] == reading.symbolOfStroke[2])
    }
}

/// Reads a drawing of several strokes as rejected, a closed stroke as a circle and an open one
/// as an arrow: a head joining its shaft makes the arrow unreadable.
struct RejectsGroupsClassifier: StrokeClassifying {
    func classify(_ strokes: [Stroke]) throws -> Classification {
        if strokes.count > 1 {
            return Classification(label: "arrow", confidence: 0.1, probabilities: ["arrow": 0.1, "none": 0.9], isRejected: true)
        }
        return try ClosedOrOpenClassifier().classify(strokes)
    }
}

@Suite struct PendingInkTests {
    @Test func rejectedInkThatChangesAnEarlierReadingUpdatesTheSketch() throws {
        // The head joins the shaft drawn before it, and the pair is rejected: the open
        // transition the shaft alone made is gone from the reading, and so from the editor's
        // sketch. (Between two states the pair would be rescued as a transition.)
        let a = SketchPoint(100, 100), end = SketchPoint(260, 100)
        var editor = SketchEditor(classifier: RejectsGroupsClassifier())
        _ = try editor.add(Hand.circle(a, 30))
        _ = try editor.add(Hand.stroke([a + SketchPoint(32, 2), end + SketchPoint(0, 1)]))
        #expect(editor.sketch.transitions.count == 1)
        let outcome = try editor.add(Hand.head(at: end, from: a, size: 16))
        #expect(outcome.isRejected)
        #expect(editor.sketch == editor.reading.sketch)
        #expect(editor.sketch.transitions.isEmpty, "\(editor.sketch.transitions)")
    }
}

/// Grouping cases from real diagrams drawn one stroke per line (fa-diagrams, issue 15): heads
/// filled in by scribbling, a self-loop drawn as a closed circle with its head apart, a head
/// drawn long before near one end of a shaft whose own head follows it at the other end; and
/// from real people's strokes composed into sketches (issue 9): shaky circles, big heads drawn
/// right before or after their shaft.
@Suite struct StrokeGroupingCasesTests {
    let a = SketchPoint(100, 100), b = SketchPoint(300, 100)
    let radius = 30.0

    func groups(_ strokes: [Stroke]) -> [SymbolGroup] {
        SymbolGrouping.group(strokes.enumerated().map { InkStroke(stroke: $0.element, drawing: $0.offset) })
    }

    func group(of stroke: Int, in groups: [SymbolGroup]) -> SymbolGroup? {
        groups.first { $0.strokes.contains(stroke) }
    }

    @Test func scribbledHeadJoinsItsShaftAndIsNoShaft() throws {
        // a → b, its head drawn as an outline and then filled in with a zig-zag scribble.
        let tip = b - SketchPoint(32, 0)
        let outline = Hand.head(at: tip, from: a, size: 12)
        // Back and forth down the head and up again, ending where it began.
        let scribble = Hand.stroke((0...12).map { index in
            tip + SketchPoint(-2 - Double(index % 2) * 8, Double(min(index, 12 - index)) * 2 - 6)
        }, perSegment: 3, wobble: 0.3)
        let found = groups([Hand.circle(a, radius), Hand.circle(b, radius),
                            Hand.stroke([a + SketchPoint(32, 0), tip]), outline, scribble])
        let arrow = try #require(group(of: 2, in: found))
        #expect(arrow.strokes == [2, 3, 4], "\(found.map(\.strokes))")
        #expect(arrow.heads.sorted() == [3, 4])
    }

    @Test func roundSelfLoopOnARimTakesItsOwnHead() throws {
        // A self-loop drawn as a closed circle overlapping the state's rim, its head apart.
        let loopCenter = a + SketchPoint(0, -40)
        let loop = Hand.circle(loopCenter, 18, startAngle: 0)
        let end = try #require(loop.points.last)
        let head = Hand.head(at: SketchPoint(end.x, end.y), from: SketchPoint(end.x, end.y - 20), size: 9)
        let found = groups([Hand.circle(a, radius), loop, head])
        #expect(group(of: 1, in: found)?.strokes == [1, 2], "\(found.map(\.strokes))")
        #expect(group(of: 0, in: found)?.strokes == [0])
    }

    @Test func headDrawnRightAfterItsShaftWinsOverANearerOneDrawnLongBefore() throws {
        // A head drawn early touches the start of the shaft drawn later (it belongs to
        // nothing: a stray), the shaft's own head follows it at its end, a third of R away.
        let c = SketchPoint(200, 260)
        let shaftStart = a + SketchPoint(32, 0), tip = b - SketchPoint(32, 0)
        let stray = Hand.head(at: shaftStart, from: shaftStart - SketchPoint(40, 0), size: 10)
        let ownHead = Hand.head(at: tip + SketchPoint(10, 16), from: a + SketchPoint(10, 16), size: 10)
        let found = groups([Hand.circle(a, radius), Hand.circle(b, radius), stray, Hand.circle(c, radius),
                            Hand.stroke([shaftStart, tip]), ownHead])
        #expect(group(of: 4, in: found)?.strokes == [4, 5], "\(found.map(\.strokes))")
        #expect(group(of: 4, in: found)?.isReversed == false)
    }

    @Test func tickAtTheStartDrawnAfterTheHeadJoinsWithoutTurningTheArrow() throws {
        // a → b with its head at b, then a small tick at the shaft's start, by a.
        let shaftStart = a + SketchPoint(32, 0), tip = b - SketchPoint(32, 0)
        let tick = Hand.stroke([shaftStart + SketchPoint(2, -5), shaftStart + SketchPoint(6, 4)], perSegment: 5)
        let found = groups([Hand.circle(a, radius), Hand.circle(b, radius), Hand.stroke([shaftStart, tip]),
                            Hand.head(at: tip, from: a, size: 12), tick])
        let arrow = try #require(group(of: 2, in: found))
        #expect(arrow.strokes == [2, 3, 4], "\(found.map(\.strokes))")
        #expect(arrow.isReversed == false)
    }

    @Test func strokeAlongAStatesCircleReadsAsNothing() throws {
        // The upper half of a's circle drawn again over it, as a writer does before redrawing
        // a final state's outer circle whole.
        let arc = Hand.stroke((0...8).map { index in
            let angle = Double.pi + Double.pi * Double(index) / 8
            return a + SketchPoint(1.08 * radius * cos(angle), 0.94 * radius * sin(angle))
        }, perSegment: 4, wobble: 0.5)
        let found = groups([Hand.circle(a, radius), Hand.circle(b, radius), arc])
        #expect(group(of: 2, in: found)?.isRetracedCircle == true)
        #expect(group(of: 0, in: found)?.isRetracedCircle == false)
        var cache = ClassificationCache()
        let ink = [Hand.circle(a, radius), Hand.circle(b, radius), arc].enumerated().map { InkStroke(stroke: $0.element, drawing: $0.offset) }
        let reading = try SketchReader.read(ink, classifier: ClosedOrOpenClassifier(), cache: &cache)
        #expect(reading.sketch.transitions.isEmpty, "\(reading.sketch.transitions)")
        #expect(reading.symbols[reading.symbolOfStroke[2]].outcome.isRejected)
    }

    /// An arc of a hand-drawn circle round `center`, from `from` to `to` radians (either way).
    func arc(_ center: SketchPoint, from: Double, to: Double) -> Stroke {
        Hand.stroke((0...12).map { index in
            let angle = from + (to - from) * Double(index) / 12
            return center + SketchPoint(1.05 * radius * cos(angle), 0.95 * radius * sin(angle))
        }, perSegment: 3, wobble: 0.5)
    }

    @Test func circleDrawnInThreeGoesIsOneState() throws {
        // a's circle in three strokes, the second drawn the other way round (as some real
        // people's circles are), then b and an arrow from a to b.
        let pieces = [arc(a, from: 0, to: 2.3), arc(a, from: 4.5, to: 2.4), arc(a, from: 4.4, to: 6.35)]
        let strokes = pieces + [Hand.circle(b, radius), Hand.stroke([a + SketchPoint(32, 0), b - SketchPoint(32, 0)]),
                                Hand.head(at: b - SketchPoint(32, 0), from: a, size: 12)]
        let found = groups(strokes)
        let state = try #require(group(of: 0, in: found))
        #expect(state.strokes == [0, 1, 2], "\(found.map(\.strokes))")
        #expect(state.heads.isEmpty, "a circle has no head")
        #expect(group(of: 4, in: found)?.strokes == [4, 5])
        // One stroke per line reads as one drawing per line does.
        let oneDrawing = SymbolGrouping.group(strokes.enumerated().map { InkStroke(stroke: $0.element, drawing: max($0.offset, 2)) })
        #expect(oneDrawing.map(\.strokes) == found.map(\.strokes))
    }

    @Test func arcsOfTwoStatesOrALoopAndItsHeadAreNoCircle() throws {
        // Two half circles drawn one after the other round different centres, and a self-loop
        // on a's rim followed by its head (together nearly round): none is a circle in goes.
        let halves = [arc(a, from: 0, to: Double.pi), arc(b, from: Double.pi, to: 2 * Double.pi)]
        #expect(groups(halves).map(\.strokes) == [[0], [1]])
        let loop = Hand.stroke([a + SketchPoint(-12, -28), a + SketchPoint(-24, -70), a + SketchPoint(24, -70),
                                a + SketchPoint(12, -28)], perSegment: 8)
        let head = Hand.head(at: a + SketchPoint(12, -28), from: a + SketchPoint(18, -60), size: 10)
        let found = groups([Hand.circle(a, radius), loop, head])
        #expect(group(of: 0, in: found)?.strokes == [0], "\(found.map(\.strokes))")
        #expect(group(of: 1, in: found)?.strokes == [1, 2])
    }

    @Test func shortArrowWithABigHeadDrawnRightAfterIsOneArrow() throws {
        // An arrow drawn small: a shaft of 1.3 R and a head 1.4 R across drawn right after it
        // (as people draw arrows on their own). Drawn later, after another stroke, the same
        // head is too big for that shaft and stays apart.
        let start = a + SketchPoint(32, 0), end = start + SketchPoint(40, 0)
        let shaft = Hand.stroke([start, end])
        let head = Hand.head(at: end + SketchPoint(2, 0), from: start, size: 24)
        let rightAfter = groups([Hand.circle(a, radius), Hand.circle(b, radius), shaft, head])
        let arrow = try #require(group(of: 2, in: rightAfter))
        #expect(arrow.strokes == [2, 3] && arrow.heads == [3], "\(rightAfter.map(\.strokes))")
        #expect(!arrow.isReversed)
        let later = groups([Hand.circle(a, radius), shaft, Hand.circle(b, radius), head])
        #expect(group(of: 1, in: later)?.strokes == [1], "\(later.map(\.strokes))")
    }

    @Test func loopWithItsHeadDrawnOnIsNoHeadOfTheShaftBeforeIt() throws {
        // A short transition from b ends at a's rim; right after it, a self-loop on a whose
        // stroke ends in a barb pointing out past the loop's reach. The loop comes back to the
        // rim before its barb: it is a loop, not the shaft's head.
        let shaft = Hand.stroke([a + SketchPoint(85, 0), a + SketchPoint(35, 0)])
        let loop = Hand.stroke([a + SketchPoint(20, 22), a + SketchPoint(24, 56), a + SketchPoint(-24, 56),
                                a + SketchPoint(-20, 22), a + SketchPoint(-32, 40)], perSegment: 8)
        let found = groups([Hand.circle(a, radius), Hand.circle(b, radius), shaft, loop])
        #expect(group(of: 3, in: found)?.strokes == [3], "\(found.map(\.strokes))")
    }

    /// A state's circle drawn with a shaky hand, from `startAngle`: three bulges take it a
    /// quarter of R off round, more than `isClosedRound` allows, still going round once.
    func shakyCircle(_ center: SketchPoint, _ radius: Double, startAngle: Double = 0.3) -> Stroke {
        Hand.stroke((0...36).map { index in
            let angle = startAngle + 2.05 * Double.pi * Double(index) / 36
            return center + SketchPoint(cos(angle), sin(angle)) * radius * (1 + 0.36 * sin(3 * angle))
        }, perSegment: 2, wobble: 0.5)
    }

    @Test func shakyCircleOfAStateTakesNoShaftAsItsHead() throws {
        // c drawn shakily close to a, ending where a short transition from c to a starts: the
        // transition is no head of c's circle.
        let c = a + SketchPoint(100, 0)
        let circle = shakyCircle(c, radius, startAngle: 3.0)
        let measures = DrawingMeasures(circle.sketchPoints)
        #expect(!measures.isClosedRound && measures.isLooselyRound, "the case needs a shaky circle")
        let end = try #require(circle.sketchPoints.last)
        let start = end + SketchPoint(-6, 8), tip = a + SketchPoint(34, 4)
        #expect(Geometry.distance(start, tip) < tuned.connectors.shortArrow * radius, "the case needs a short transition")
        let found = groups([Hand.circle(a, radius), circle, Hand.stroke([start, tip]), Hand.circle(b + SketchPoint(0, 200), radius)])
        #expect(group(of: 1, in: found)?.strokes == [1], "\(found.map(\.strokes))")
        #expect(group(of: 2, in: found)?.strokes == [2])
    }

    @Test func loopOnAShakyStateIsNoHeadOfTheShaftBeforeIt() throws {
        // As `loopWithItsHeadDrawnOnIsNoHeadOfTheShaftBeforeIt`, with a's circle drawn shakily.
        let circle = shakyCircle(a, radius)
        #expect(!DrawingMeasures(circle.sketchPoints).isClosedRound, "the case needs a shaky circle")
        let shaft = Hand.stroke([a + SketchPoint(85, 0), a + SketchPoint(35, 0)])
        let loop = Hand.stroke([a + SketchPoint(20, 22), a + SketchPoint(24, 56), a + SketchPoint(-24, 56),
                                a + SketchPoint(-20, 22), a + SketchPoint(-32, 40)], perSegment: 8)
        let found = groups([circle, Hand.circle(b, radius), shaft, loop])
        #expect(group(of: 3, in: found)?.strokes == [3], "\(found.map(\.strokes))")
    }

    @Test func finalStateDrawnInGoesDoesNotMeasureRByItsOuterCircle() throws {
        // b is final, its inner circle drawn in two goes, its outer circle 1.35 R; a, plain,
        // has the loop of `loopWithItsHeadDrawnOnIsNoHeadOfTheShaftBeforeIt`. R is the states'
        // radius, not the outer circle's, so a is state-sized and its loop a loop.
        let strokes = [Hand.circle(a, radius), arc(b, from: 0, to: 3.6), arc(b, from: 3.4, to: 6.4),
                       Hand.circle(b, 1.35 * radius), Hand.stroke([a + SketchPoint(85, 0), a + SketchPoint(35, 0)]),
                       Hand.stroke([a + SketchPoint(20, 22), a + SketchPoint(24, 56), a + SketchPoint(-24, 56),
                                    a + SketchPoint(-20, 22), a + SketchPoint(-32, 40)], perSegment: 8)]
        let found = groups(strokes)
        #expect(group(of: 1, in: found)?.strokes.starts(with: [1, 2]) == true, "\(found.map(\.strokes))")
        #expect(group(of: 5, in: found)?.strokes == [5], "\(found.map(\.strokes))")
    }

    @Test func shakyOuterCircleOfAFinalStateTakesNoTickAsItsHead() throws {
        // a's inner circle, a tick closing it, then a shaky outer circle: a final state, with
        // no head (the tick is no head of the outer circle).
        let found = groups([Hand.circle(a, radius), Hand.stroke([a + SketchPoint(30, -8), a + SketchPoint(31, 10)], perSegment: 5),
                            shakyCircle(a, 1.3 * radius), Hand.circle(b, radius)])
        let final = try #require(group(of: 2, in: found))
        #expect(final.strokes == [0, 2] && final.heads.isEmpty, "\(found.map(\.strokes))")
    }

    /// A head `size` across the shaft's line, its apex `overshoot` past the shaft's end.
    func bigHead(atEndOf shaft: (start: SketchPoint, end: SketchPoint), size: Double, overshoot: Double) -> Stroke {
        let forward = (shaft.end - shaft.start) / ((shaft.end - shaft.start) * (shaft.end - shaft.start)).sum().squareRoot()
        let apex = shaft.end + forward * overshoot
        return Hand.head(at: apex, from: shaft.start, size: size)
    }

    @Test func bigHeadDrawnRightBeforeItsShaftJoinsItWhereItLies() throws {
        // A head 2.5 R across drawn first, its apex past the shaft's end (the shaft stops
        // short), then the shaft from a to b: one arrow, toward b. A line across the shaft's
        // end drawn first instead is no head: a head is bent.
        let shaft = (start: a + SketchPoint(32, 0), end: b - SketchPoint(40, 0))
        let head = bigHead(atEndOf: shaft, size: 42, overshoot: 8)
        #expect(Geometry.extent(head.sketchPoints) > tuned.connectors.headMaxExtent * radius, "the case needs a big head")
        let found = groups([Hand.circle(a, radius), Hand.circle(b, radius), head, Hand.stroke([shaft.start, shaft.end])])
        let arrow = try #require(group(of: 3, in: found))
        #expect(arrow.strokes == [2, 3] && arrow.heads == [2], "\(found.map(\.strokes))")
        #expect(!arrow.isReversed)
        let line = Hand.stroke([shaft.end + SketchPoint(-4, -40), shaft.end + SketchPoint(4, 40)])
        let crossed = groups([Hand.circle(a, radius), Hand.circle(b, radius), line, Hand.stroke([shaft.start, shaft.end])])
        #expect(group(of: 3, in: crossed)?.strokes == [3], "\(crossed.map(\.strokes))")
    }

    @Test func bigHeadDrawnRightAfterItsShaftAtTheStartReversesIt() throws {
        // A shaft drawn from b to a, then a head wider than any a shaft would carry
        // otherwise, drawn at the shaft's start: an arrow from a to b.
        let shaft = (start: b - SketchPoint(34, 0), end: a + SketchPoint(34, 0))
        let head = bigHead(atEndOf: (start: shaft.end, end: shaft.start), size: 52, overshoot: 6)
        #expect(Geometry.extent(head.sketchPoints) > tuned.connectors.headMaxExtent * radius, "the case needs a big head")
        let found = groups([Hand.circle(a, radius), Hand.circle(b, radius), Hand.stroke([shaft.start, shaft.end]), head])
        let arrow = try #require(group(of: 2, in: found))
        #expect(arrow.strokes == [2, 3] && arrow.isReversed, "\(found.map(\.strokes))")
    }
}
