import Foundation
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

extension Sketch {
    /// The median radius of the states, the sketch's length scale (nil without states).
    var typicalRadius: Double? {
        Geometry.typicalRadius(states.map(\.radius))
    }

    /// Applies the rule for `shape` to a drawing (one or more strokes, as points).
    /// `name` names a new state; `symbols` and `isEpsilon` label a new transition or self-loop.
    /// `scale` is R, the sketch's scale (the whole-sketch reader measures it once, from the
    /// ink's states); nil for the median radius of the states in the sketch.
    mutating func apply(
        _ strokes: [[SketchPoint]], as shape: StrokeShape,
        name: String? = nil, symbols: [String] = [], isEpsilon: Bool = false, scale: Double? = nil
    ) -> DrawingOutcome.Became {
        let strokes = strokes.filter { !$0.isEmpty }
        guard !strokes.isEmpty else { return .rejected(reason: .noPoints) }
        let scale = scale ?? typicalRadius
        switch shape {
        case .circle: return addCircle(strokes, name: name, symbols: symbols, isEpsilon: isEpsilon, scale: scale)
        case .arrow, .line: return addArrow(strokes, symbols: symbols, isEpsilon: isEpsilon, scale: scale)
        case .cycle: return addLoop(strokes.joined().map { $0 }, symbols: symbols, isEpsilon: isEpsilon)
        }
    }

    // MARK: - Circle: a state, a final state, or a connection

    private mutating func addCircle(
        _ strokes: [[SketchPoint]], name: String?, symbols: [String], isEpsilon: Bool, scale: Double?
    ) -> DrawingOutcome.Became {
        let points = Array(strokes.joined())
        // Centre and radius by path length, as the states stage measured them.
        let (center, radius, _) = DrawingMeasures.roundness(strokes: strokes)
        guard radius > 0 else { return .rejected(reason: .circleWithoutSize) }

        // A circle around an existing state's centre: that state becomes final.
        let enclosed = states.filter { Geometry.distance($0.center, center) < radius }
            .min { Geometry.distance($0.center, center) < Geometry.distance($1.center, center) }
        if let target = enclosed {
            guard Geometry.areConcentric([(target.center, target.radius), (center, radius)]) else {
                let ratio = radius / target.radius
                let fit: DrawingOutcome.Rejection.Enclosure = ratio < 1 ? .muchSmaller : ratio > 1.5 ? .muchLarger : .notCentred
                return .rejected(reason: .enclosesState(name: target.name, fit: fit))
            }
            guard !target.isFinal else {
                return .rejected(reason: .alreadyFinal(name: target.name))
            }
            let index = states.firstIndex { $0.id == target.id }!
            states[index].isFinal = true
            states[index].finalCircle = SketchCircle(center: center, radius: radius)
            return .finalCircle(state: target.id, name: target.name)
        }

        // A small circle sitting on a rim: a self-loop drawn round (`StateFinder.liesOnRim`).
        let round = SketchCircle(center: center, radius: radius)
        if let state = states.first(where: {
            radius <= tuned.states.smallCircle * $0.outerRadius
                && StateFinder.liesOnRim(of: SketchCircle(center: $0.center, radius: $0.outerRadius), round)
        }) {
            return addSelfLoop(on: state, points: points, symbols: symbols, isEpsilon: isEpsilon)
        }

        if let scale, radius < tuned.rules.slipOfThePen * scale {
            return .rejected(reason: .circleTooSmall)
        }
        if let overlapped = states.first(where: {
            Geometry.distance($0.center, center) < tuned.rules.overlapFraction * ($0.radius + radius)
        }) {
            return .rejected(reason: .overlapsState(name: overlapped.name))
        }

        let stateName = name ?? nextDefaultName()
        if let problem = SketchNames.problem(withStateName: stateName, in: self, excluding: nil) {
            return .rejected(reason: .invalidName(problem: problem))
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
        return .state(id: state.id, name: state.name, final: state.isFinal, connected: connected)
    }

    /// Inner and outer radius when the drawing goes around its centre about twice at two
    /// clearly different distances (one stroke spiralling twice, or two concentric strokes).
    private static func doubleCircleRadii(_ strokes: [[SketchPoint]], center: SketchPoint) -> (Double, Double)? {
        let turns = strokes.reduce(0) { $0 + abs(Geometry.windingTurns($1, around: center)) }
        guard turns >= tuned.shapes.roundWinding.upperBound else { return nil }
        // Halves by path length: the strokes resampled evenly along their path.
        let step = tuned.shapes.pathStep * Geometry.meanDistance(Array(strokes.joined()), from: center)
        let distances = strokes.flatMap { Geometry.resampled($0, step: step) }.map { Geometry.distance($0, center) }.sorted()
        let half = distances.count / 2
        guard half > 0 else { return nil }
        let inner = distances[..<half].reduce(0, +) / Double(half)
        let outer = distances[half...].reduce(0, +) / Double(distances.count - half)
        guard inner > 0 else { return nil }
        return (inner, outer)
    }

    /// Attaches free transition ends lying near the new state's rim; returns what was connected.
    private mutating func connectFreeEnds(to state: SketchState) -> [String] {
        let reach = state.outerRadius * (1 + tuned.rules.arrowSnap)  // as `snap`
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

    private mutating func addArrow(_ strokes: [[SketchPoint]], symbols: [String], isEpsilon: Bool, scale: Double?) -> DrawingOutcome.Became {
        let points = Array(strokes.joined())
        let start = points[0]
        // The tip is where the shaft ends (`Geometry.arrowTip`), so an arrowhead drawn in the
        // same stroke (which doubles back from the tip) does not move it.
        // A drawing of several strokes is a shaft and its head (the whole-sketch reader puts
        // the shaft first, ending at its head): the tip is the shaft's end, even where a
        // strongly curved shaft bulges farther from its start.
        let tip = strokes.count > 1
            ? Geometry.arrowTip(shaft: strokes[0], heads: Array(strokes.dropFirst().joined()))
            : Geometry.arrowTip(shaft: points, heads: [])
        let length = Geometry.distance(start, tip)
        if length == 0 || length < tuned.rules.slipOfThePen * (scale ?? 0) {
            return .rejected(reason: .arrowTooShort)
        }

        var from = snap(start, excluding: nil)
        var to = snap(tip, excluding: nil)
        if let source = from, source.id == to?.id {
            // Both ends near one state. A stroke that leaves the state and comes back is a
            // self-loop drawn as an arrow (`loopState`, its head drawn apart counting as its
            // return); otherwise the deeper end keeps the state, and the other end goes to the
            // next state in reach (a short arrow from a big state that stops short of a small one).
            if loopState(DrawingMeasures(strokes[0]), heads: Array(strokes.dropFirst().joined()))?.id == source.id {
                return addSelfLoop(on: source, points: points, symbols: symbols, isEpsilon: isEpsilon)
            }
            if Geometry.distance(start, source.center) <= Geometry.distance(tip, source.center) {
                to = snap(tip, excluding: source.id)
            } else {
                from = snap(start, excluding: source.id)
            }
        }
        if let problem = SketchNames.problem(withSymbols: symbols) { return .rejected(reason: .invalidSymbols(problem: problem)) }
        let transition = SketchTransition(
            id: nextTransitionID, from: from?.id, to: to?.id,
            symbols: SketchNames.normalized(symbols), isEpsilon: isEpsilon, kind: .regular,
            geometry: TransitionGeometry(points: points, start: start, tip: tip))
        nextTransitionID += 1
        transitions.append(transition)
        return outcome(ofTransition: transition.id)!
    }

    /// The state an arrow end at `point` attaches to: one containing the point (the one whose
    /// centre is relatively nearest), else the one whose rim is relatively nearest within
    /// `arrowSnap` of its radius (a final state's outer circle: rim and radius as drawn).
    func snap(_ point: SketchPoint, excluding excluded: Int?) -> SketchState? {
        var best: (state: SketchState, score: Double)?
        for state in states where state.id != excluded {
            let distance = Geometry.distance(point, state.center)
            let rim = state.outerRadius
            // Inside: scores in [0, 1) by depth; outside: 1 + gap in radii of the rim (a final
            // state's outer circle), up to 1 + arrowSnap.
            let score = distance <= rim ? distance / rim : 1 + (distance - rim) / rim
            guard score <= 1 + tuned.rules.arrowSnap else { continue }
            if best == nil || score < best!.score { best = (state, score) }
        }
        return best?.state
    }

    // MARK: - Cycle: a self-loop on the nearest state

    private mutating func addLoop(_ points: [SketchPoint], symbols: [String], isEpsilon: Bool) -> DrawingOutcome.Became {
        let center = Geometry.centroid(points)
        var best: (state: SketchState, score: Double)?
        for state in states {
            let closest = points.map { Geometry.distance($0, state.center) }.min()!
            let centerDistance = Geometry.distance(center, state.center)
            guard closest <= state.outerRadius + tuned.rules.arrowSnap * state.radius else { continue }
            let score = centerDistance / state.radius
            if best == nil || score < best!.score { best = (state, score) }
        }
        guard let state = best?.state else {
            return .rejected(reason: states.isEmpty ? .loopWithoutStates : .loopOffStates)
        }
        return addSelfLoop(on: state, points: points, symbols: symbols, isEpsilon: isEpsilon)
    }

    private mutating func addSelfLoop(
        on state: SketchState, points: [SketchPoint], symbols: [String], isEpsilon: Bool
    ) -> DrawingOutcome.Became {
        if let problem = SketchNames.problem(withSymbols: symbols) { return .rejected(reason: .invalidSymbols(problem: problem)) }
        let apex = points.max { Geometry.distance($0, state.center) < Geometry.distance($1, state.center) }!
        let transition = SketchTransition(
            id: nextTransitionID, from: state.id, to: state.id,
            symbols: SketchNames.normalized(symbols), isEpsilon: isEpsilon, kind: .selfLoop,
            geometry: TransitionGeometry(points: points, start: points[0], tip: apex))
        nextTransitionID += 1
        transitions.append(transition)
        return outcome(ofTransition: transition.id)!
    }
}
