import StrokeKit

/// The shapes the sketch understands. The classifier names `arrow`, `circle` and `cycle`
/// (a self-loop); `line` is an arrow without a head, for front ends that tell them apart.
public enum StrokeShape: String, Codable, Hashable, Sendable, CaseIterable {
    case arrow, line, circle, cycle

    /// The shape for a classifier label, or nil when the label is not one of ours.
    public init?(classifierLabel: String) {
        self.init(rawValue: classifierLabel.lowercased())
    }
}

/// What one added stroke did to the sketch.
public enum StrokeOutcome: Hashable, Sendable, CustomStringConvertible {
    /// A new state; `isFinal` when it was drawn as a double circle in one go;
    /// `connected` describes transitions whose free end now attaches to it.
    case stateAdded(state: Int, name: String, isFinal: Bool, connected: [String])
    /// A circle around an existing state made it final.
    case madeFinal(state: Int, name: String)
    /// A new transition; `from` or `to` is nil where that end is free.
    case transitionAdded(transition: Int, from: String?, to: String?)
    /// A new self-loop on the named state.
    case selfLoopAdded(transition: Int, state: String)
    /// Nothing changed, for the reason given (written for the student).
    case rejected(reason: String)

    public var isRejected: Bool {
        if case .rejected = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case let .stateAdded(_, name, isFinal, connected):
            let kind = isFinal ? "final state" : "state"
            let links = connected.isEmpty ? "" : " and connected to " + connected.joined(separator: ", ")
            return "\(kind) \(name) added\(links)"
        case let .madeFinal(_, name):
            return "state \(name) made final"
        case let .transitionAdded(_, from?, to?):
            return "transition added and connected to \(from) → \(to)"
        case let .transitionAdded(_, nil, to?):
            return "initial arrow added: \(to) is now initial"
        case let .transitionAdded(_, from?, nil):
            return "transition added from \(from); its tip is not near a state (draw a state there or redraw the arrow closer)"
        case .transitionAdded(_, nil, nil):
            return "transition added but not near any state (draw states at its ends to connect it)"
        case let .selfLoopAdded(_, state):
            return "self-loop on \(state)"
        case let .rejected(reason):
            return "rejected: \(reason)"
        }
    }
}

/// Thresholds of the stroke rules, all relative to the radius R of the state concerned, so
/// the rules behave the same whatever the screen size or zoom. Values were chosen for
/// hand-drawn sketches, where arrows start inside or just outside a rim, stop short of or
/// overshoot the target rim, and second circles are drawn off-centre.
public enum StrokeRuleThresholds {
    /// An arrow end snaps to a state when it lies inside the circle or at most this many R
    /// outside its rim. 0.8 R: people stop an arrow short of the target by up to about half a
    /// radius; more would start grabbing the neighbouring state in dense sketches.
    public static let arrowSnap = 0.8
    /// When the whole sketch is read, an arrow end still in empty space attaches to the state
    /// straight ahead of it up to this many R beyond its rim (see `Sketch.resolveLooseEnds`):
    /// real arrows stop short of the target, or start away from the source, by up to 1.5 R.
    public static let looseEndReach = 2.0
    /// A circle around an existing centre makes that state final only when its radius is
    /// within these multiples of R; otherwise it is more likely a mistake than a double circle.
    public static let finalCircleRadiusRange = 0.5...2.5
    /// A self-loop belongs to a state when some point of the loop comes within this many R of
    /// its rim (loops are drawn on the rim, sometimes starting inside the circle)…
    public static let loopReach = 0.6
    /// …and the loop's centre lies within this many R of the state's centre.
    public static let loopCenterReach = 3.0
    /// A `circle` no larger than this many R (of the outer rim) whose centre sits within
    /// `loopOnRimBand` R of an existing (outer) rim is a self-loop drawn round: it cannot be a
    /// state (it would overlap).
    public static let loopAsCircleMaxRadius = 0.9
    /// An open loop on a rim (its ends apart: no circle) may be this many times the rim's
    /// radius (people draw self-loops as large as their state).
    public static let openLoopMaxRadius = 1.3
    /// A loop whose head was drawn apart curls back: its ends are at most this fraction of its
    /// extent apart (a straight stroke: 1).
    public static let loopCurl = 0.8
    public static let loopOnRimBand = 0.5
    /// A new circle is rejected when its centre is closer to an existing state's centre than
    /// this fraction of the two radii added: the circles would overlap heavily.
    public static let overlapFraction = 0.6
    /// A circle drawn in one go that winds around its centre at least this many turns, with
    /// two clearly different radii (`doubleCircleRadiusSpread`), is a double circle: a final state.
    public static let doubleCircleTurns = 1.6
    public static let doubleCircleRadiusSpread = 1.12
    /// A drawn circle with a radius below this fraction of the median state radius is too small
    /// to be a state (a dot or slip of the pen), unless the sketch has no states yet.
    public static let minimumStateRadius = 0.25
    /// An arrow shorter than this fraction of the median state radius is a slip of the pen.
    public static let minimumArrowLength = 0.3

    // MARK: Shapes in context (see `ContextRule`)

    /// A closed round stroke winds this many turns around its centre (a circle with a small
    /// gap is 0.9; one overshooting by a third of a turn 1.33)…
    public static let roundWinding = 0.8...1.4
    /// …and its points' distances from the centre vary by at most this fraction of the mean
    /// (an ellipse with axes 1 : 0.7 gives about 0.12; a loop with a tail, 0.3 and more).
    public static let roundSpread = 0.22
    /// A state may be drawn as an oval down to this ratio of its axes (a 2 : 1 oval is 0.5).
    public static let ovalAspect = 0.4
    /// Circles of a double circle drawn in one drawing have centres at most this many times
    /// the smaller radius apart.
    public static let concentricOffset = 0.35
    /// The tip of an open stroke is the first point at least `tipNearFarthest` of the largest
    /// distance from the start, or an earlier one at least `tipReach` of it after which the
    /// pen comes back toward the start by `tipTurnBack` of it (the first barb of the head).
    public static let tipNearFarthest = 0.95
    public static let tipReach = 0.8
    public static let tipTurnBack = 0.05
    /// Shafts are measured after simplifying them to this fraction of their chord (wobble and
    /// tremor below it vanish; a zig-zag or a bow stays).
    public static let shaftTolerance = 0.04
    /// An open stroke's last point is at least this fraction of the start–tip distance from
    /// its start (a self-loop comes back to where it began).
    public static let openEnds = 0.6
    /// A simple shaft is at most this much longer than the distance it spans (a back edge
    /// bowed by 0.3 of its length is 1.24; a zig-zag at 45° is 1.41)…
    public static let shaftStretch = 1.45
    /// …turns by at most this many radians in all (a bow of 0.3 turns about 1.75; a real
    /// curved back edge with the pen's wobble up to about 4; a zig-zag far more)…
    public static let shaftTurning = 4.0
    /// …and the head drawn after the tip stays within `headReach` of the span from the tip,
    /// with a path at most `headLength` spans long (three barb strokes of up to 0.36 of the
    /// span, plus the pen's wobble): a head, not a scribble at the end.
    public static let headReach = 0.5
    public static let headLength = 1.6
    /// A rejected stroke into a state is read as the initial arrow only when nearly straight.
    public static let initialArrowTurning = 0.8
    /// A stroke read as a self-loop winds this many turns around its own centre (loops are
    /// drawn with a gap of up to a third of a turn, or crossing a little)…
    public static let loopWinding = 0.5...1.4
    /// …is at most this much longer than the circle of its mean radius (no scribbling)…
    public static let loopStretch = 1.6
    /// …and reaches at least this many R beyond the rim.
    public static let loopMinimumBulge = 0.3
}

extension Sketch {
    /// The median radius of the states, the sketch's length scale (nil without states).
    var typicalRadius: Double? {
        let radii = states.map(\.radius).sorted()
        return radii.isEmpty ? nil : radii[radii.count / 2]
    }

    /// Reads a classified drawing in context (see `ContextRule`) and applies the rule for the
    /// shape it is read as; the reading is nil when the drawing was rejected.
    mutating func apply(
        _ strokes: [[SketchPoint]], classification: Classification,
        name: String? = nil, symbols: [String] = [], isEpsilon: Bool = false
    ) -> (outcome: StrokeOutcome, reading: StrokeReading?) {
        let (reading, rejection) = read(strokes, classification: classification)
        guard let reading else { return (.rejected(reason: rejection), nil) }
        return (apply(strokes, as: reading.shape, name: name, symbols: symbols, isEpsilon: isEpsilon), reading)
    }

    /// Applies the rule for `shape` to a drawing (one or more strokes, as points).
    /// `name` names a new state; `symbols` and `isEpsilon` label a new transition or self-loop.
    mutating func apply(
        _ strokes: [[SketchPoint]], as shape: StrokeShape,
        name: String? = nil, symbols: [String] = [], isEpsilon: Bool = false
    ) -> StrokeOutcome {
        let strokes = strokes.filter { !$0.isEmpty }
        guard !strokes.isEmpty else { return .rejected(reason: "the stroke has no points; draw it again") }
        switch shape {
        case .circle: return addCircle(strokes, name: name, symbols: symbols, isEpsilon: isEpsilon)
        case .arrow, .line: return addArrow(strokes, symbols: symbols, isEpsilon: isEpsilon)
        case .cycle: return addLoop(strokes.joined().map { $0 }, symbols: symbols, isEpsilon: isEpsilon)
        }
    }

    // MARK: - Circle: a state, a final state, or a connection

    private mutating func addCircle(
        _ strokes: [[SketchPoint]], name: String?, symbols: [String], isEpsilon: Bool
    ) -> StrokeOutcome {
        let points = Array(strokes.joined())
        let center = Geometry.centroid(points)
        let radius = Geometry.meanDistance(points, from: center)
        guard radius > 0 else { return .rejected(reason: "the circle has no size; draw it again") }

        // A circle around an existing state's centre: that state becomes final.
        let enclosed = states.filter { Geometry.distance($0.center, center) < radius }
            .min { Geometry.distance($0.center, center) < Geometry.distance($1.center, center) }
        if let target = enclosed {
            let ratio = radius / target.radius
            guard StrokeRuleThresholds.finalCircleRadiusRange.contains(ratio) else {
                return .rejected(reason: "this circle encloses \(target.name) but is \(ratio < 1 ? "much smaller" : "much larger") than it; to make \(target.name) final, draw a second circle just around it")
            }
            guard !target.isFinal else {
                return .rejected(reason: "\(target.name) is already final; the extra circle is ignored (erase the outer circle to make it non-final)")
            }
            let index = states.firstIndex { $0.id == target.id }!
            states[index].isFinal = true
            states[index].finalCircle = SketchCircle(center: center, radius: radius)
            return .madeFinal(state: target.id, name: target.name)
        }

        // A small circle sitting on a rim: a self-loop drawn round.
        for state in states {
            let distance = Geometry.distance(state.center, center)
            if radius <= StrokeRuleThresholds.loopAsCircleMaxRadius * state.outerRadius,
                abs(distance - state.outerRadius) <= StrokeRuleThresholds.loopOnRimBand * state.radius
            {
                return addSelfLoop(on: state, points: points, symbols: symbols, isEpsilon: isEpsilon)
            }
        }

        if let scale = typicalRadius, radius < StrokeRuleThresholds.minimumStateRadius * scale {
            return .rejected(reason: "this circle is much smaller than the other states; draw states about the same size")
        }
        if let overlapped = states.first(where: {
            Geometry.distance($0.center, center) < StrokeRuleThresholds.overlapFraction * ($0.radius + radius)
        }) {
            return .rejected(reason: "this circle overlaps \(overlapped.name); draw new states apart from existing ones, or a circle right around \(overlapped.name) to make it final")
        }

        let stateName = name ?? nextDefaultName()
        if let problem = SketchNames.problem(withStateName: stateName, in: self, excluding: nil) {
            return .rejected(reason: problem)
        }
        var state = SketchState(id: nextStateID, name: stateName, center: center, radius: radius)
        if let (inner, outer) = Self.doubleCircleRadii(strokes, center: center) {
            state.radius = inner
            state.isFinal = true
            state.finalCircle = SketchCircle(center: center, radius: outer)
        }
        nextStateID += 1
        states.append(state)
        let connected = connectFreeEnds(to: state)
        return .stateAdded(state: state.id, name: state.name, isFinal: state.isFinal, connected: connected)
    }

    /// Inner and outer radius when the drawing goes around its centre about twice at two
    /// clearly different distances (one stroke spiralling twice, or two concentric strokes).
    private static func doubleCircleRadii(_ strokes: [[SketchPoint]], center: SketchPoint) -> (Double, Double)? {
        let turns = strokes.reduce(0) { $0 + abs(Geometry.windingTurns($1, around: center)) }
        guard turns >= StrokeRuleThresholds.doubleCircleTurns else { return nil }
        let distances = strokes.joined().map { Geometry.distance($0, center) }.sorted()
        let half = distances.count / 2
        guard half > 0 else { return nil }
        let inner = distances[..<half].reduce(0, +) / Double(half)
        let outer = distances[half...].reduce(0, +) / Double(distances.count - half)
        guard inner > 0, outer / inner >= StrokeRuleThresholds.doubleCircleRadiusSpread else { return nil }
        return (inner, outer)
    }

    /// Attaches free transition ends lying near the new state's rim; returns what was connected.
    private mutating func connectFreeEnds(to state: SketchState) -> [String] {
        let reach = state.outerRadius + StrokeRuleThresholds.arrowSnap * state.radius
        var connected: [String] = []
        for index in transitions.indices where transitions[index].kind == .regular {
            var transition = transitions[index]
            let startDistance = Geometry.distance(transition.geometry.start, state.center)
            let tipDistance = Geometry.distance(transition.geometry.tip, state.center)
            let startFits = transition.from == nil && startDistance <= reach && transition.to != state.id
            let tipFits = transition.to == nil && tipDistance <= reach && transition.from != state.id
            if startFits && (!tipFits || startDistance <= tipDistance) {
                transition.from = state.id
            } else if tipFits {
                transition.to = state.id
            } else {
                continue
            }
            transitions[index] = transition
            connected.append(describe(transition))
        }
        return connected
    }

    // MARK: - Arrow: a transition between the states nearest its ends

    /// The tip of a shaft whose head was drawn apart: the point of its last quarter nearest
    /// to the head (its end, unless the pen hooked on past the head).
    static func tip(ofShaft shaft: [SketchPoint], heads: [SketchPoint]) -> SketchPoint {
        guard !heads.isEmpty else { return shaft[shaft.count - 1] }
        let head = Geometry.centroid(heads)
        return shaft[(shaft.count * 3 / 4)...].min { Geometry.distance($0, head) < Geometry.distance($1, head) }!
    }

    private mutating func addArrow(_ strokes: [[SketchPoint]], symbols: [String], isEpsilon: Bool) -> StrokeOutcome {
        let points = Array(strokes.joined())
        let start = points[0]
        // The tip is the point farthest from the start, so an arrowhead drawn in the same
        // stroke (which doubles back from the tip) does not move it. (A barb that reaches a
        // little past the tip moves it by less than the snap distance.)
        // A drawing of several strokes is a shaft and its head (the whole-sketch reader puts
        // the shaft first, ending at its head): the tip is the shaft's end, even where a
        // strongly curved shaft bulges farther from its start.
        let tip = strokes.count > 1 && strokes[0].count > 1
            ? Self.tip(ofShaft: strokes[0], heads: Array(strokes.dropFirst().joined()))
            : points.max { Geometry.distance($0, start) < Geometry.distance($1, start) }!
        let length = Geometry.distance(start, tip)
        if length == 0 || length < StrokeRuleThresholds.minimumArrowLength * (typicalRadius ?? 0) {
            return .rejected(reason: "this arrow is too short to tell where it starts and ends; draw it from one state to another")
        }

        var from = snap(start, excluding: nil)
        var to = snap(tip, excluding: nil)
        if let source = from, source.id == to?.id {
            // Both ends near one state. A stroke that leaves the state and comes back (its last
            // point near its start) is a self-loop drawn as an arrow; otherwise the deeper end
            // keeps the state, and the other end goes to the next state in reach (a short
            // arrow from a big state that stops short of a small one).
            let last = points[points.count - 1]
            // (With its head drawn apart, the loop's tip is back on the rim: its shaft bulges
            // out in its middle, where a short shaft leaving the state is farthest at its end.)
            let apex: Double
            if strokes.count > 1 {
                let distances = strokes[0].map { Geometry.distance($0, source.center) }
                let farthest = distances.indices.max { distances[$0] < distances[$1] }!
                let middle = distances.count / 5..<(distances.count - distances.count / 5)
                apex = middle.contains(farthest) ? distances[farthest] : 0
            } else {
                apex = Geometry.distance(tip, source.center)
            }
            if Geometry.distance(last, source.center) <= source.outerRadius + StrokeRuleThresholds.arrowSnap * source.radius,
                apex > source.outerRadius,
                strokes.count > 1 || Geometry.distance(last, start) < StrokeRuleThresholds.openEnds * length
            {
                return addSelfLoop(on: source, points: points, symbols: symbols, isEpsilon: isEpsilon)
            }
            if Geometry.distance(start, source.center) <= Geometry.distance(tip, source.center) {
                to = snap(tip, excluding: source.id)
            } else {
                from = snap(start, excluding: source.id)
            }
        }
        if let problem = SketchNames.problem(withSymbols: symbols) { return .rejected(reason: problem) }
        let transition = SketchTransition(
            id: nextTransitionID, from: from?.id, to: to?.id,
            symbols: SketchNames.normalized(symbols), isEpsilon: isEpsilon, kind: .regular,
            geometry: TransitionGeometry(points: points, start: start, tip: tip))
        nextTransitionID += 1
        transitions.append(transition)
        return .transitionAdded(transition: transition.id, from: from?.name, to: to?.name)
    }

    /// The state an arrow end at `point` attaches to: one containing the point (the one whose
    /// centre is relatively nearest), else the one whose rim is relatively nearest within
    /// `arrowSnap` R.
    func snap(_ point: SketchPoint, excluding excluded: Int?) -> SketchState? {
        var best: (state: SketchState, score: Double)?
        for state in states where state.id != excluded {
            let distance = Geometry.distance(point, state.center)
            let rim = state.outerRadius
            // Inside: scores in [0, 1) by depth; outside: 1 + gap in radii, up to 1 + arrowSnap.
            let score = distance <= rim ? distance / rim : 1 + (distance - rim) / state.radius
            guard score <= 1 + StrokeRuleThresholds.arrowSnap else { continue }
            if best == nil || score < best!.score { best = (state, score) }
        }
        return best?.state
    }

    // MARK: - Cycle: a self-loop on the nearest state

    private mutating func addLoop(_ points: [SketchPoint], symbols: [String], isEpsilon: Bool) -> StrokeOutcome {
        let center = Geometry.centroid(points)
        var best: (state: SketchState, score: Double)?
        for state in states {
            let closest = points.map { Geometry.distance($0, state.center) }.min()!
            let centerDistance = Geometry.distance(center, state.center)
            guard closest <= state.outerRadius + StrokeRuleThresholds.loopReach * state.radius,
                centerDistance <= StrokeRuleThresholds.loopCenterReach * state.radius
            else { continue }
            let score = centerDistance / state.radius
            if best == nil || score < best!.score { best = (state, score) }
        }
        guard let state = best?.state else {
            return .rejected(reason: states.isEmpty
                ? "a self-loop needs a state: draw the state first, then the loop on its rim"
                : "this self-loop is not on any state; draw it touching the rim of the state it belongs to")
        }
        return addSelfLoop(on: state, points: points, symbols: symbols, isEpsilon: isEpsilon)
    }

    private mutating func addSelfLoop(
        on state: SketchState, points: [SketchPoint], symbols: [String], isEpsilon: Bool
    ) -> StrokeOutcome {
        if let problem = SketchNames.problem(withSymbols: symbols) { return .rejected(reason: problem) }
        let apex = points.max { Geometry.distance($0, state.center) < Geometry.distance($1, state.center) }!
        let transition = SketchTransition(
            id: nextTransitionID, from: state.id, to: state.id,
            symbols: SketchNames.normalized(symbols), isEpsilon: isEpsilon, kind: .selfLoop,
            geometry: TransitionGeometry(points: points, start: points[0], tip: apex))
        nextTransitionID += 1
        transitions.append(transition)
        return .selfLoopAdded(transition: transition.id, state: state.name)
    }
}
