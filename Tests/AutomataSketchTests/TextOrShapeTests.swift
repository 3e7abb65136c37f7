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
