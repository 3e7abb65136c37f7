import AutomataSketch
import StrokeImage
import Testing

/// One test per stroke rule (issue 4, part 2), on exact hand-written strokes.
@Suite struct StrokeRuleTests {
    let left = SketchPoint(100, 100)
    let right = SketchPoint(300, 100)
    let radius = 40.0

    func twoStates() -> SketchEditor {
        var editor = SketchEditor()
        _ = editor.add(Pen.circle(left, radius), as: .circle)
        _ = editor.add(Pen.circle(right, radius), as: .circle)
        return editor
    }

    @Test func circleAddsStateAtMeanWithMeanRadiusNamedInCreationOrder() throws {
        var editor = SketchEditor()
        let first = editor.add(Pen.circle(left, radius), as: .circle)
        let second = editor.add(Pen.circle(right, 30), as: .circle)
        #expect(first.description == "state q0 added")
        #expect(second.description == "state q1 added")
        let state = try #require(editor.sketch.state(named: "q1"))
        // The centre is measured along the path, resampled every `pathStep` of the radius from
        // the first point: the circle's own, within 2% of its radius.
        #expect(abs(state.center.x - 300) < 0.02 * 30 && abs(state.center.y - 100) < 0.02 * 30, "centre \(state.center)")
        #expect(abs(state.radius - 30) < 0.1, "radius \(state.radius)")
        #expect(!state.isFinal)
    }

    @Test func circleWithNameUsesIt() {
        var editor = SketchEditor()
        _ = editor.add(Pen.circle(left, radius), as: .circle, name: "start")
        #expect(editor.sketch.states.map(\.name) == ["start"])
        _ = editor.add(Pen.circle(right, radius), as: .circle)
        #expect(editor.sketch.states.map(\.name) == ["start", "q0"])
    }

    @Test func circleWithNameInUseIsRejected() {
        var editor = twoStates()
        let outcome = editor.add(Pen.circle(SketchPoint(500, 100), radius), as: .circle, name: "q0")
        #expect(outcome.isRejected)
        #expect(outcome.description.contains("already exists"))
        #expect(editor.sketch.states.count == 2)
    }

    @Test func secondCircleAroundStateMakesItFinalEvenOffCentre() throws {
        var editor = twoStates()
        let outcome = editor.add(Pen.circle(right + SketchPoint(6, -5), radius * 1.25), as: .circle)
        #expect(outcome.description == "state q1 made final")
        #expect(try #require(editor.sketch.state(named: "q1")).isFinal)
        #expect(editor.sketch.states.count == 2)
    }

    @Test func innerCircleInsideStateAlsoMakesItFinal() throws {
        var editor = twoStates()
        let outcome = editor.add(Pen.circle(left, radius * 0.75), as: .circle)
        #expect(outcome.description == "state q0 made final")
    }

    @Test func thirdCircleOnFinalStateIsIgnoredWithReason() {
        var editor = twoStates()
        _ = editor.add(Pen.circle(right, radius * 1.2), as: .circle)
        let before = editor.sketch
        let outcome = editor.add(Pen.circle(right, radius * 1.4), as: .circle)
        #expect(outcome.isRejected)
        #expect(outcome.description.contains("already final"))
        #expect(editor.sketch == before)
    }

    @Test func hugeCircleAroundStateIsRejectedNotFinal() {
        var editor = twoStates()
        let outcome = editor.add(Pen.circle(left, radius * 4), as: .circle)
        #expect(outcome.isRejected)
        #expect(outcome.description.contains("much larger"))
    }

    @Test func doubleCircleInOneStrokeIsAFinalState() throws {
        var editor = SketchEditor()
        let inner = Pen.circle(left, radius, turns: 1).points
        let outer = Pen.circle(left, radius * 1.3, turns: 1).points
        let outcome = editor.add(Stroke(points: inner + outer), as: .circle)
        #expect(outcome.description == "final state q0 added")
        let state = try #require(editor.sketch.states.first)
        #expect(abs(state.radius - radius) < 3, "inner radius \(state.radius)")
    }

    @Test func overlappingCircleIsRejected() {
        var editor = twoStates()
        let outcome = editor.add(Pen.circle(left + SketchPoint(45, 0), radius), as: .circle)
        #expect(outcome.isRejected)
        #expect(outcome.description.contains("overlaps q0"))
    }

    @Test func arrowBetweenStatesConnectsThem() throws {
        var editor = twoStates()
        let outcome = editor.add(Pen.arrow(left + SketchPoint(45, 0), right - SketchPoint(45, 0)), as: .arrow, symbols: ["a", "b"])
        #expect(outcome.description == "transition added and connected to q0 → q1 (symbols a, b)")
        let transition = try #require(editor.sketch.transitions.first)
        #expect(transition.symbols == ["a", "b"])
        #expect(transition.kind == .regular)
    }

    @Test func arrowStartingInsideAndStoppingShortSnaps() throws {
        var editor = twoStates()
        // Starts inside q0 (20 from its centre), stops 25 short of q1's rim (0.63 R).
        let outcome = editor.add(Pen.arrow(left + SketchPoint(20, 0), right - SketchPoint(65, 0)), as: .arrow)
        #expect(outcome.description == "transition added and connected to q0 → q1")
    }

    @Test func arrowOvershootingIntoTargetSnaps() {
        var editor = twoStates()
        let outcome = editor.add(Pen.arrow(left + SketchPoint(50, 0), right + SketchPoint(10, 0)), as: .arrow)
        #expect(outcome.description == "transition added and connected to q0 → q1")
    }

    @Test func arrowheadDrawnInSameStrokeDoesNotMoveTheTip() throws {
        var editor = twoStates()
        _ = editor.add(Pen.arrow(left + SketchPoint(45, 0), right - SketchPoint(45, 0), head: true), as: .arrow)
        let geometry = try #require(editor.sketch.transitions.first).geometry
        #expect(abs(geometry.tip.x - 255) < 1e-9 && abs(geometry.tip.y - 100) < 1e-9, "tip \(geometry.tip)")
    }

    @Test func curvedBackEdgeUsesArcEndpoints() {
        var editor = twoStates()
        let outcome = editor.add(Pen.arc(right + SketchPoint(-30, 30), left + SketchPoint(30, 30), bulge: 60), as: .arrow)
        #expect(outcome.description == "transition added and connected to q1 → q0")
    }

    @Test func arrowFromEmptySpaceMarksStateInitial() throws {
        var editor = twoStates()
        let outcome = editor.add(Pen.arrow(left - SketchPoint(120, 0), left - SketchPoint(42, 0)), as: .arrow)
        #expect(outcome.description == "initial arrow added: q0 is now initial")
        #expect(editor.sketch.isInitial(try #require(editor.sketch.state(named: "q0")).id))
        #expect(editor.sketch.automaton().initialStates == [0])
    }

    @Test func lineIsATransitionToo() {
        var editor = twoStates()
        let outcome = editor.add(Pen.arrow(left + SketchPoint(45, 0), right - SketchPoint(45, 0), head: false), as: .line)
        #expect(outcome.description == "transition added and connected to q0 → q1")
    }

    @Test func arrowIntoEmptySpaceStaysFreeAndCircleAtItsTipConnects() {
        var editor = SketchEditor()
        _ = editor.add(Pen.circle(left, radius), as: .circle)
        let arrow = editor.add(Pen.arrow(left + SketchPoint(45, 0), right - SketchPoint(45, 0)), as: .arrow, symbols: ["1"])
        #expect(arrow.description.hasPrefix("transition added from q0 (symbols 1); its tip is not near a state"))
        let circle = editor.add(Pen.circle(right, radius), as: .circle)
        #expect(circle.description == "state q1 added and connected to transition q0 → q1")
        #expect(editor.sketch.automaton().moves[0]["1"] == [1])
    }

    @Test func circleNearFreeStartOfTransitionConnectsIt() {
        var editor = SketchEditor()
        _ = editor.add(Pen.circle(right, radius), as: .circle)
        _ = editor.add(Pen.arrow(left + SketchPoint(45, 0), right - SketchPoint(45, 0)), as: .arrow)
        let circle = editor.add(Pen.circle(left, radius), as: .circle)
        #expect(circle.description == "state q1 added and connected to transition q1 → q0")
    }

    @Test func cycleBecomesSelfLoopOnNearestState() throws {
        var editor = twoStates()
        let outcome = editor.add(Pen.loop(right, radius), as: .cycle, symbols: ["0"])
        #expect(outcome.description == "self-loop on q1 (symbols 0)")
        let loop = try #require(editor.sketch.transitions.first)
        #expect(loop.kind == .selfLoop && loop.from == loop.to)
        #expect(editor.sketch.automaton().moves[1]["0"] == [1])
    }

    @Test func cycleFarFromStatesIsRejectedWithReason() {
        var editor = twoStates()
        let outcome = editor.add(Pen.loop(SketchPoint(200, 400), radius), as: .cycle)
        #expect(outcome.isRejected)
        #expect(outcome.description.contains("not on any state"))
        #expect(editor.sketch.transitions.isEmpty)
    }

    @Test func cycleWithoutStatesIsRejectedWithReason() {
        var editor = SketchEditor()
        let outcome = editor.add(Pen.loop(left, radius), as: .cycle)
        #expect(outcome.description.contains("draw the state first"))
    }

    @Test func smallCircleOnRimIsTakenAsSelfLoop() {
        var editor = twoStates()
        let outcome = editor.add(Pen.circle(left + SketchPoint(0, -radius * 1.2), radius * 0.4), as: .circle)
        #expect(outcome.description == "self-loop on q0")
    }

    @Test func loopDrawnAsArrowLeavingAndReturningIsSelfLoop() {
        var editor = twoStates()
        let outcome = editor.add(Pen.loop(left, radius, angle: Double.pi / 2), as: .arrow)
        #expect(outcome.description == "self-loop on q0")
    }

    @Test func rejectedStrokesChangeNothing() throws {
        var editor = twoStates()
        var classifier = ScriptedClassifier()
        classifier.remember([Pen.circle(SketchPoint(500, 500), radius)], as: "circle")
        editor.classifier = classifier
        let before = editor.sketch
        // Unknown to the classifier: rejected by it. Shape-sized (under 1.6 R across it would
        // be handwriting: a `v` written apart).
        let scribble = try editor.add(Pen.through([SketchPoint(0, 0), SketchPoint(30, 150), SketchPoint(60, 0)]))
        #expect(scribble.isRejected)
        #expect(scribble.description.contains("does not look like an arrow, a circle or a self-loop"))
        #expect(editor.sketch == before)
        #expect(editor.canUndo)  // the two states, not the rejection
        _ = editor.undo()
        #expect(editor.sketch.states.count == 1)
    }

    @Test func invalidSymbolsRejectTheStroke() {
        var editor = twoStates()
        let outcome = editor.add(Pen.arrow(left + SketchPoint(45, 0), right - SketchPoint(45, 0)), as: .arrow, symbols: ["a b"])
        #expect(outcome.description.contains("separate entries"))
        #expect(editor.sketch.transitions.isEmpty)
    }

    @Test func addWithoutClassifierThrows() {
        var editor = SketchEditor()
        #expect(throws: SketchEditError.noClassifier) { try editor.add(Pen.circle(left, radius)) }
    }
}
