import AutomataSketch
import Foundation
import StrokeImage
import StrokeKit
import Testing

/// A classifier that gives every drawing the same answer, to test how the rules read a
/// given classification in context.
struct FixedClassifier: StrokeClassifying {
    var classification: Classification

    /// `probabilities` over arrow, circle, cycle and none; rejected when `none` wins.
    init(arrow: Float = 0, circle: Float = 0, cycle: Float = 0, none: Float = 0) {
        let shapes = ["arrow": arrow, "circle": circle, "cycle": cycle]
        let best = shapes.max { $0.value < $1.value }!
        classification = Classification(
            label: best.key, confidence: best.value,
            probabilities: shapes.merging(["none": none]) { first, _ in first }, isRejected: none > best.value)
    }

    func classify(_ strokes: [Stroke]) throws -> Classification { classification }
}

/// One test per `ContextRule`, and one per scribble it must not accept.
@Suite struct ContextRuleTests {
    let left = SketchPoint(100, 100)
    let right = SketchPoint(300, 100)
    let radius = 40.0

    func twoStates(finalRight: Bool = false) -> SketchEditor {
        var editor = SketchEditor()
        _ = editor.add(Pen.circle(left, radius), as: .circle)
        _ = editor.add(Pen.circle(right, radius), as: .circle)
        if finalRight { _ = editor.add(Pen.circle(right, radius * 1.3), as: .circle) }
        return editor
    }

    func add(_ strokes: [Stroke], to editor: inout SketchEditor, as classifier: FixedClassifier) throws -> DrawingOutcome {
        editor.classifier = classifier
        return try editor.add(strokes)
    }

    /// A curved arrow with a head drawn in the same stroke.
    func curvedArrow(_ start: SketchPoint, _ end: SketchPoint, bulge: Double) -> Stroke {
        let shaft = Pen.arc(start, end, bulge: bulge).points
        let back = shaft[shaft.count - 3]
        let direction = (SketchPoint(back.x, back.y) - end) / ((SketchPoint(back.x, back.y) - end) * (SketchPoint(back.x, back.y) - end)).sum().squareRoot()
        let normal = SketchPoint(-direction.y, direction.x)
        let head = [end + direction * 15 + normal * 8, end, end + direction * 15 - normal * 8]
        return Stroke(points: shaft + head.map { StrokePoint(x: $0.x, y: $0.y) })
    }

    @Test func curvedBackEdgeClassifiedAsCycleIsATransition() throws {
        var editor = twoStates()
        let back = curvedArrow(right + SketchPoint(-30, 30), left + SketchPoint(30, 30), bulge: 50)
        let result = try add([back], to: &editor, as: FixedClassifier(arrow: 0.01, cycle: 0.99))
        #expect(result.description == "transition added and connected to q1 → q0")
        #expect(result.reading == StrokeReading(shape: .arrow, rule: .strokeBetweenStates))
    }

    @Test func rejectedHeadlessArcBetweenStatesIsATransition() throws {
        var editor = twoStates()
        let arc = Pen.arc(left + SketchPoint(30, -30), right + SketchPoint(-30, -30), bulge: -40)
        let result = try add([arc], to: &editor, as: FixedClassifier(arrow: 0.01, cycle: 0.01, none: 0.98))
        #expect(result.description == "transition added and connected to q0 → q1")
        #expect(result.reading?.rule == .strokeBetweenStates)
    }

    @Test func rejectedZigZagBetweenStatesStaysRejected() throws {
        var editor = twoStates()
        let zigZag = Pen.through((0...8).map { index in
            SketchPoint(145 + Double(index) * 13.75, 100 + (index % 2 == 0 ? -25 : 25))
        })
        let result = try add([zigZag], to: &editor, as: FixedClassifier(arrow: 0.2, none: 0.8))
        #expect(result.isRejected, "\(result)")
        #expect(result.description.contains("does not look like an arrow"))
        #expect(editor.sketch.transitions.isEmpty)
    }

    @Test func arrowWithScribbledEndBetweenStatesStaysRejected() throws {
        var editor = twoStates()
        let tip = right - SketchPoint(45, 0)
        let scribble = (0..<30).map { index -> SketchPoint in
            let angle = Double(index) * 1.3
            return tip + SketchPoint(cos(angle), sin(angle)) * 30 * Double(index % 5) / 4 - SketchPoint(40, 0)
        }
        let stroke = Pen.through([left + SketchPoint(45, 0), tip] + scribble)
        let result = try add([stroke], to: &editor, as: FixedClassifier(cycle: 0.1, none: 0.9))
        #expect(result.isRejected, "\(result)")
    }

    @Test func loopOnFinalStateClassifiedAsCircleIsASelfLoop() throws {
        var editor = twoStates(finalRight: true)
        // A loop on the outer circle of the final state, reaching 0.9 R out.
        let loop = Pen.loop(right, radius * 1.3, angle: -Double.pi / 2)
        let result = try add([loop], to: &editor, as: FixedClassifier(circle: 0.9, cycle: 0.1))
        #expect(result.description == "self-loop on q1")
        #expect(result.reading == StrokeReading(shape: .cycle, rule: .loopOnRim))
    }

    @Test func rejectedLoopOnRimIsASelfLoop() throws {
        var editor = twoStates()
        let result = try add([Pen.loop(left, radius, angle: Double.pi / 2)], to: &editor, as: FixedClassifier(cycle: 0.3, none: 0.7))
        #expect(result.description == "self-loop on q0")
        #expect(result.reading?.rule == .loopOnRim)
    }

    @Test func rejectedSpiralOnRimStaysRejected() throws {
        var editor = twoStates()
        let spiral = Pen.through((0...90).map { index in
            let angle = Double(index) * 0.25
            return left + SketchPoint(0, -radius * 1.5) + SketchPoint(cos(angle), sin(angle)) * (4 + Double(index) * 0.25)
        })
        let before = editor.sketch
        let result = try add([spiral], to: &editor, as: FixedClassifier(cycle: 0.2, none: 0.8))
        // Rejected, or read as handwriting belonging to nothing: no shape either way.
        #expect(result.isRejected || result.became == .text(text: result.classification.label, belongsTo: .nothing), "\(result)")
        #expect(editor.sketch == before)
    }

    @Test func rejectedDoubleCircleInOneDrawingIsAFinalState() throws {
        var editor = SketchEditor()
        let drawing = [Pen.circle(left, radius), Pen.circle(left + SketchPoint(3, -2), radius * 1.25)]
        let result = try add(drawing, to: &editor, as: FixedClassifier(cycle: 0.3, none: 0.7))
        #expect(result.description == "final state q0 added")
        #expect(result.reading == StrokeReading(shape: .circle, rule: .concentricCircles))
    }

    @Test func twoCirclesApartInOneDrawingStayRejected() throws {
        var editor = SketchEditor()
        let drawing = [Pen.circle(left, radius), Pen.circle(right, radius)]
        let result = try add(drawing, to: &editor, as: FixedClassifier(cycle: 0.3, none: 0.7))
        #expect(result.isRejected)
    }

    @Test func circleClassifiedAsCycleAwayFromStatesIsAState() throws {
        var editor = twoStates()
        let result = try add([Pen.circle(SketchPoint(200, 300), radius)], to: &editor, as: FixedClassifier(circle: 0.2, cycle: 0.8))
        #expect(result.description == "state q2 added")
        #expect(result.reading == StrokeReading(shape: .circle, rule: .roundStroke))
    }

    @Test func secondCircleClassifiedAsCycleMakesTheStateFinal() throws {
        var editor = twoStates()
        let outer = Pen.circle(right + SketchPoint(4, -3), radius * 1.25)
        let result = try add([outer], to: &editor, as: FixedClassifier(circle: 0.45, cycle: 0.55))
        #expect(result.description == "state q1 made final")
        // The whole-sketch reader groups the two circles round one centre before the rules.
        #expect(result.reading == StrokeReading(shape: .circle, rule: .concentricCircles))
    }

    @Test func outerCircleDrawnInGoesAsOneDrawingMakesTheStateFinal() throws {
        // A second circle round q1 drawn in overlapping arcs and a tick as one drawing, the way
        // a low-vision writer of `real-strokes` draws one: three quarters round from the bottom,
        // the bottom again, the right side upward. The straightest arc, the right side, alone
        // leaves q1's rim and comes back to it, like a self-loop.
        var editor = twoStates()
        func arc(_ from: Double, _ to: Double, steps: Int = 16) -> Stroke {
            Stroke((0...steps).map { step in
                let angle = from + (to - from) * Double(step) / Double(steps)
                return (right.x + 1.35 * radius * cos(angle), right.y + 1.35 * radius * sin(angle))
            })
        }
        let drawing = [arc(1.75, 5.5), arc(0.7, 2.4), arc(0.6, -0.9), arc(0.75, 0.7, steps: 3)]
        let result = try add(drawing, to: &editor, as: FixedClassifier(circle: 0.99))
        #expect(result.description == "state q1 made final", "\(result)")
        #expect(result.reading?.shape == .circle)
    }

    @Test func rejectedStraightArrowFromEmptySpaceIsTheInitialArrow() throws {
        var editor = twoStates()
        let arrow = Pen.arrow(left - SketchPoint(120, 0), left - SketchPoint(45, 0))
        let result = try add([arrow], to: &editor, as: FixedClassifier(arrow: 0.4, none: 0.6))
        #expect(result.description == "initial arrow added: q0 is now initial")
        #expect(result.reading?.rule == .arrowIntoState)
    }

    @Test func rejectedStrokeWhoseBestShapeIsNotAnArrowIsNotTheInitialArrow() throws {
        var editor = twoStates()
        let arrow = Pen.arrow(left - SketchPoint(120, 0), left - SketchPoint(45, 0))
        let result = try add([arrow], to: &editor, as: FixedClassifier(arrow: 0.1, cycle: 0.2, none: 0.7))
        #expect(result.isRejected)
    }

    @Test func openStrokeClassifiedAsCycleLeavingItsStateIsATransitionWithFreeTip() throws {
        var editor = SketchEditor()
        _ = editor.add(Pen.circle(left, radius), as: .circle)
        let arc = curvedArrow(left + SketchPoint(40, -10), left + SketchPoint(200, -20), bulge: 30)
        let result = try add([arc], to: &editor, as: FixedClassifier(cycle: 0.95, none: 0.05))
        #expect(result.description.hasPrefix("transition added from q0; its tip is not near a state"))
        #expect(result.reading?.rule == .strokeLeavingState)
    }

    @Test func acceptedShapesInPlaceAreNotOverruled() throws {
        var editor = twoStates()
        let arrow = try add([Pen.arrow(left + SketchPoint(45, 0), right - SketchPoint(45, 0))], to: &editor, as: FixedClassifier(arrow: 0.9))
        #expect(arrow.reading == StrokeReading(shape: .arrow, rule: nil))
        let loop = try add([Pen.loop(left, radius)], to: &editor, as: FixedClassifier(cycle: 0.9))
        #expect(loop.reading == StrokeReading(shape: .cycle, rule: nil))
        let circle = try add([Pen.circle(SketchPoint(200, 300), radius)], to: &editor, as: FixedClassifier(circle: 0.9))
        #expect(circle.reading == StrokeReading(shape: .circle, rule: nil))
    }
}
