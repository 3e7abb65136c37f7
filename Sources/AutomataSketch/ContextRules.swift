import StrokeKit

/// Why the stroke rules read a drawing as another shape than the classifier's first choice,
/// or accepted a drawing the classifier rejected.
///
/// The classifier sees one drawing alone, squeezed into 28x28 pixels: a curved back edge with
/// its head looks exactly like a self-loop's arch, a loop drawn round like a small circle, a
/// headless arc like a bracket (rejected). The sketch around the drawing settles most of
/// these: where its ends are, which state it touches, whether it closes. Each rule asks for
/// geometry a scribble does not have (one simple shaft, one turn, a round closed outline), so
/// the classifier's reject option still stops scribbles.
public enum ContextRule: String, Codable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Closed round strokes around one centre in one drawing: a double circle (final state).
    case concentricCircles
    /// A simple open stroke from one state to another: a transition, whatever it was classified as.
    case strokeBetweenStates
    /// A simple open stroke classified as a self-loop or a circle that leaves a state and does
    /// not come back to it: a transition whose tip is still free (the sketch then warns that
    /// it ends in empty space), not a self-loop the student never drew.
    case strokeLeavingState
    /// A stroke leaving a state's rim, turning once outward and coming back to the same rim,
    /// smaller than the state: a self-loop, whatever it was classified as.
    case loopOnRim
    /// A closed round stroke: a circle (a state, or the second circle of a final state) when
    /// the classifier rejected it, or called it a self-loop but it touches no state or goes
    /// round one (a self-loop sits on the rim; it never encloses the state).
    case roundStroke
    /// A rejected stroke whose best shape is an arrow, a simple open stroke, from empty space to a
    /// state: the initial arrow.
    case arrowIntoState
    /// A stroke the classifier rejected, its best guess a self-loop at `timidConfidence` or
    /// more, whose both ends lie on one state's rim with its ink bulging out of it: a
    /// self-loop, however it is shaped (context over a timid classifier).
    case endsOnOneRim
    /// A stroke the classifier rejected, its best guess an arrow at `timidConfidence` or more,
    /// running from one state's rim to another's: a transition, however it is shaped.
    case endsOnTwoRims

    public var description: String {
        switch self {
        case .concentricCircles: return "two circles round one centre"
        case .strokeBetweenStates: return "drawn from one state to another"
        case .strokeLeavingState: return "leaves a state and does not come back"
        case .loopOnRim: return "leaves and returns to one state's rim"
        case .roundStroke: return "a closed round stroke"
        case .arrowIntoState: return "a straight stroke from empty space into a state"
        case .endsOnOneRim: return "a rejected stroke guessed a self-loop, both ends on one state's rim"
        case .endsOnTwoRims: return "a rejected stroke guessed an arrow, from one state's rim to another's"
        }
    }
}

/// What the stroke rules made of a classified drawing: the shape they apply, and the context
/// rule when that shape is not the classifier's accepted first choice.
public struct StrokeReading: Hashable, Sendable, Codable {
    public var shape: StrokeShape
    public var rule: ContextRule?

    public init(shape: StrokeShape, rule: ContextRule?) {
        self.shape = shape
        self.rule = rule
    }
}

extension Sketch {
    /// Reads a classified drawing in the context of the sketch: the classifier's shape, or
    /// another one when a `ContextRule` says so; nil when the drawing is rejected (then
    /// `rejection` says why, for the student).
    func read(
        _ strokes: [[SketchPoint]], classification: Classification
    ) -> (reading: StrokeReading?, rejection: DrawingOutcome.Rejection?) {
        let classified = classification.isRejected ? nil : StrokeShape(classifierLabel: classification.label)
        if !classification.isRejected && classified == nil {
            return (nil, .notASketchShape(label: classification.label))
        }
        func reading(_ shape: StrokeShape, _ rule: ContextRule) -> (StrokeReading?, DrawingOutcome.Rejection?) {
            (StrokeReading(shape: shape, rule: shape == classified ? nil : rule), nil)
        }
        let strokes = strokes.filter { !$0.isEmpty }
        guard !strokes.isEmpty else { return (nil, .noPoints) }
        let drawing = DrawingMeasures(strokes: strokes)

        if strokes.count > 1, isDoubleCircle(strokes) { return reading(.circle, .concentricCircles) }
        // A circle drawn in goes, as one drawing (see `StateFinder.formsOneCircle`; a dot
        // of ink among them counts too), is no self-loop, though its first arc may leave and
        // come back to a state's rim.
        if classified == .circle, strokes.count > 1, StateFinder.formsOneCircle(strokes) {
            return (StrokeReading(shape: .circle, rule: nil), nil)
        }
        if classified == .arrow || classified == .line { return (StrokeReading(shape: classified!, rule: nil), nil) }
        if joinsTwoStates(drawing) { return reading(.arrow, .strokeBetweenStates) }
        if classified != nil, leavesAStateForGood(drawing) { return reading(.arrow, .strokeLeavingState) }
        if classified != .cycle,
            loopState(strokes.count > 1 ? DrawingMeasures(strokes[0]) : drawing, heads: Array(strokes.dropFirst().joined())) != nil
        {
            return reading(.cycle, .loopOnRim)
        }
        if drawing.isClosedRound,
            classified == nil || (classified == .cycle && (!touchesAState(drawing) || goesRoundAState(drawing)))
        {
            return reading(.circle, .roundStroke)
        }
        if let classified { return (StrokeReading(shape: classified, rule: nil), nil) }
        if classification.label == "arrow", drawing.isSimpleOpenStroke,
            snap(drawing.start, excluding: nil) == nil, snap(drawing.tip, excluding: nil) != nil
        {
            return reading(.arrow, .arrowIntoState)
        }
        // Context over a timid classifier: its rejected best guess, where the stroke's ends
        // leave no doubt.
        if classification.isRejected, Double(classification.confidence) >= tuned.rules.timidConfidence {
            if classification.label == "cycle", endsOnOneRim(drawing) { return reading(.cycle, .endsOnOneRim) }
            if classification.label == "arrow", endsAtTwoStates(drawing) { return reading(.arrow, .endsOnTwoRims) }
        }
        let percent = Int((classification.confidence * 100).rounded())
        let closest = classification.label == "cycle" ? "self-loop" : classification.label
        return (nil, .noShape(closest: closest, percent: percent))
    }

    /// True when every stroke is closed and round and all share about one centre.
    private func isDoubleCircle(_ strokes: [[SketchPoint]]) -> Bool {
        let circles = strokes.map(DrawingMeasures.init(_:))
        return circles.allSatisfy(\.isClosedRound) && StateFinder.concentric(circles)
    }

    /// True when the drawing's start attaches to one state (`snap`) and its end, its tip
    /// (`Geometry.arrowTip`) or its last point, to another (an end in reach of both takes the
    /// other one, as `addArrow` does, when it lies outside the start's state). The one test of
    /// a stroke joining two states, whatever its shape, whether the states are found
    /// (`StateSet.sketch`: such a stroke is never a head) or resolved.
    func endsAtTwoStates(_ drawing: DrawingMeasures) -> Bool {
        guard let source = snap(drawing.start, excluding: nil) else { return false }
        return [drawing.tip, drawing.last].contains { end in
            snap(end, excluding: source.id) != nil
                && (snap(end, excluding: nil)?.id != source.id || Geometry.distance(end, source.center) > source.outerRadius)
        }
    }

    /// True when the drawing is a simple open stroke running from one state to another
    /// (`endsAtTwoStates`); or, `alongItsEnds`, its ends are at two states or in line with
    /// them within `looseEndReach` (people start arrows off the rim and stop them short of it;
    /// a shaft whose head was drawn apart is judged so).
    func joinsTwoStates(_ drawing: DrawingMeasures, alongItsEnds: Bool = false) -> Bool {
        guard drawing.isSimpleOpenStroke else { return false }
        guard alongItsEnds else { return endsAtTwoStates(drawing) }
        let nearStart = Geometry.endDirection(drawing.points, atStart: true).inner
        let nearEnd = Geometry.endDirection(drawing.points, atStart: false).inner
        guard let target = snap(drawing.last, excluding: nil) ?? stateInLine(from: nearEnd, through: drawing.last, excluding: nil)
        else { return false }
        return endsAtTwoStates(drawing)
            || (snap(drawing.start, excluding: target.id) ?? stateInLine(from: nearStart, through: drawing.start, excluding: target.id)) != nil
    }

    /// The state the drawing is a self-loop on: its start and its return (the closest point
    /// of the last part of its path, `endPart`) within `arrowSnap` of the rim, the apex outside it, one
    /// turn, not around the state's centre, its path at least `loopMinimumPath` radii (a barb
    /// at a rim may also leave it and come back), and smaller than the state (an open loop,
    /// whose ends show it is no circle, at most `openLoopMaxRadius` of the rim; a closed one at
    /// most `smallCircle`). The one
    /// self-loop test: the states stage asks it of the states found (`StateSet.sketch`), the
    /// resolver and the arrow rule of the sketch; a round loop drawn on a rim is found by
    /// `StateFinder.liesOnRim`, which the circle rule asks too.
    /// `heads`: the points of a head drawn apart from the loop: the loop may come back to the
    /// rim at its head.
    func loopState(_ drawing: DrawingMeasures, heads: [SketchPoint] = []) -> SketchState? {
        guard tuned.shapes.loopWinding.contains(abs(drawing.winding)) else { return nil }
        // A head drawn apart counts only on a loop that curls back: a straight shaft with a
        // far-flung head is no loop.
        let curled = drawing.curlsBack
        func headDistances(_ state: SketchState) -> [Double] {
            curled ? heads.map { Geometry.distance($0, state.center) } : []
        }
        let lastQuarter = Geometry.portion(drawing.points, Geometry.lastPart)
        // Its middle: all but its ends' parts that give its end directions (`endPart`).
        let middle = Geometry.portion(drawing.points, tuned.shapes.endPart...(1 - tuned.shapes.endPart))
        var best: (state: SketchState, score: Double)?
        for state in states {
            let rim = state.outerRadius
            let reach = rim + tuned.rules.arrowSnap * state.radius
            let distances = drawing.points.map { Geometry.distance($0, state.center) }
            // The loop ends where it comes back closest to the state in its last part (of
            // its path): an arrowhead's last barb may point away from the rim.
            let end = (distances[lastQuarter] + headDistances(state)).min()!
            // Its farthest point from the state lies in the middle of its path (a
            // head at a rim is the other way round: its apex, in the middle, is nearest).
            let farthest = distances.indices.max { distances[$0] < distances[$1] }!
            guard Geometry.distance(drawing.start, state.center) <= reach, end <= reach,
                middle.contains(farthest), farthest > 0, farthest < distances.count - 1,
                drawing.pathLength >= tuned.states.loopMinimumPath * state.radius,
                distances[farthest] >= max(distances[0], end, state.radius) + tuned.rules.loopMinimumBulge * state.radius,
                drawing.meanRadius <= (drawing.isClosedRound ? tuned.states.smallCircle : tuned.rules.openLoopMaxRadius) * rim,
                abs(Geometry.windingTurns(drawing.points, around: state.center)) < tuned.shapes.roundWinding.lowerBound
            else { continue }
            let score = Geometry.distance(drawing.centroid, state.center) / state.radius
            if best == nil || score < best!.score { best = (state, score) }
        }
        return best?.state
    }

    /// True when the drawing is a simple open stroke starting at a state whose end (the closest
    /// point of the last part of its path) stays out of that state's reach.
    private func leavesAStateForGood(_ drawing: DrawingMeasures) -> Bool {
        guard drawing.isSimpleOpenStroke, let source = snap(drawing.start, excluding: nil) else { return false }
        let end = drawing.points[Geometry.portion(drawing.points, Geometry.lastPart)].map { Geometry.distance($0, source.center) }.min()!
        return end > source.outerRadius + tuned.rules.arrowSnap * source.radius
    }

    /// True when the drawing's first and last points lie on one state's rim (within `arrowSnap`
    /// of it, inside or out), its ink reaching `loopMinimumBulge` beyond the rim, not winding
    /// round the state.
    private func endsOnOneRim(_ drawing: DrawingMeasures) -> Bool {
        states.contains { state in
            let reach = tuned.rules.arrowSnap * state.radius
            func onRim(_ point: SketchPoint) -> Bool {
                abs(Geometry.distance(point, state.center) - state.outerRadius) <= reach
            }
            return onRim(drawing.start) && onRim(drawing.last)
                && drawing.points.contains { Geometry.distance($0, state.center) >= state.outerRadius + tuned.rules.loopMinimumBulge * state.radius }
                && abs(Geometry.windingTurns(drawing.points, around: state.center)) < tuned.shapes.roundWinding.lowerBound
        }
    }

    /// True when the drawing winds round some state's centre (a circle drawn around it).
    private func goesRoundAState(_ drawing: DrawingMeasures) -> Bool {
        states.contains { abs(Geometry.windingTurns(drawing.points, around: $0.center)) >= tuned.shapes.roundWinding.lowerBound }
    }

    /// True when some point of the drawing lies within `arrowSnap` of a state's rim.
    private func touchesAState(_ drawing: DrawingMeasures) -> Bool {
        states.contains { state in
            let reach = state.outerRadius + tuned.rules.arrowSnap * state.radius
            return drawing.points.contains { Geometry.distance($0, state.center) <= reach }
        }
    }
}
