@testable import AutomataSketch
import Foundation
import StrokeImage
import StrokeKit
import Testing

/// Text or shape, decided in context (`TextFinder.textStrokes`): the cases where a
/// handwritten letter looks like part of the structure.
@Suite struct TextOrShapeTests {
    let labels = HandwrittenLabelTests()

    @Test func theRingOfALetterInsideAStateIsTextNotAFinalStatesCircle() throws {
        // A `Q` written inside state a: its ring is round and about a's centre, as a final
        // state's inner circle is (radius 0.42 of a's: concentric), but too small for a
        // state's circle (under `stateMinimumRadius` R) and well inside a's (under
        // `insideMaximumSize` of its radius): text, the state's name, and a stays plain.
        let a = labels.a, radius = labels.radius
        let ring = Pen.circle(a, 0.42 * radius, startAngle: -Double.pi / 2)
        let tail = Pen.through([a + SketchPoint(2, 6), a + SketchPoint(14, 18)])
        #expect(Geometry.areConcentric([(a, radius), (a, 0.42 * radius)]), "the case needs a ring concentric with a")
        let reading = try labels.read(labels.structure + [ring, tail], shapes: labels.shapes)
        #expect(reading.isText(stroke: 4) && reading.isText(stroke: 5))
        #expect(reading.sketch.states.count == 2 && reading.sketch.states.allSatisfy { !$0.isFinal })
        #expect(reading.labels.contains { $0.strokes == [4, 5] })
        // A ring state-sized inside a's circle is its final circle still.
        let final = try labels.read(labels.structure + [Pen.circle(a, 0.7 * radius)], shapes: labels.shapes)
        #expect(!final.isText(stroke: 4))
        #expect(final.sketch.states.contains { $0.isFinal })
    }
}

/// A self-loop drawn open with its head in one drawing, as `writer010_fa_005` draws them.
@Suite struct OpenLoopWithItsHeadTests {
    @Test func anOpenLoopWithAStraightHeadIsASelfLoopWhicheverStrokeLooksLikeTheShaft() throws {
        // State a; a loop of 0.7 of a circle on its top rim, its ends far apart (more
        // than half its extent: it counts as bent, not as a loop, when the shaft is chosen),
        // and a shallow V head at its end, in one drawing: the head spans more as a shaft than
        // the loop does, so the loop is taken for the head. The classifier rejects the
        // drawing; it is still a self-loop on a, whichever of its strokes is the loop.
        let a = SketchPoint(100, 100), b = SketchPoint(300, 100), radius = 30.0
        let loopCenter = a - SketchPoint(0, radius + 10)
        let loop = Stroke((0...30).map { index in
            let angle = 0.2 * Double.pi - 1.4 * Double.pi * Double(index) / 30
            return (loopCenter.x + 15 * cos(angle), loopCenter.y + 15 * sin(angle))
        })
        let end = try #require(loop.sketchPoints.last)
        let head = Pen.through([end + SketchPoint(-10, -6), end, end + SketchPoint(10, -6)])
        let loopMeasures = DrawingMeasures(loop.sketchPoints), headMeasures = DrawingMeasures(head.sketchPoints)
        #expect(SymbolGrouping.shaftSpan(headMeasures) > SymbolGrouping.shaftSpan(loopMeasures), "the case needs a head spanning more")
        var classifier = ScriptedClassifier()
        let strokes = [Pen.circle(a, radius), Pen.circle(b, radius), Pen.arrow(a + SketchPoint(radius, 0), b - SketchPoint(radius, 0)),
                       Pen.arrow(a - SketchPoint(110, 0), a - SketchPoint(radius, 0))]
        for (stroke, label) in zip(strokes, ["circle", "circle", "arrow", "arrow"]) { classifier.remember([stroke], as: label) }
        let ink = strokes.enumerated().map { InkStroke(stroke: $1, drawing: $0) }
            + [InkStroke(stroke: loop, drawing: 4), InkStroke(stroke: head, drawing: 4)]
        var cache = ClassificationCache()
        let reading = try SketchReader.read(ink, classifier: classifier, cache: &cache)
        let stateA = try #require(reading.sketch.states.first { Geometry.distance($0.center, a) < 5 })
        #expect(reading.sketch.transitions.contains { $0.kind == .selfLoop && $0.from == stateA.id })
        #expect(reading.symbols[reading.symbolOfStroke[4]].outcome.reading == StrokeReading(shape: .cycle, rule: .loopOnRim))
    }
}
