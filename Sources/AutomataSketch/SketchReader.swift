import StrokeImage
import StrokeKit

/// What one symbol of the sketch became, as a person would name it.
public enum SymbolKind: String, Codable, Hashable, Sendable {
    case state
    case finalState = "final state"
    case transition
    case selfLoop = "self-loop"
    case initialArrow = "initial arrow"
    /// An arrow with an end (or both) in empty space: resolved when a state appears there.
    case openArrow = "open arrow"
    case rejected
}

/// One symbol of a reading: its strokes, how the classifier saw them, what the rules made of it.
public struct ReadSymbol: Hashable, Sendable {
    public var group: SymbolGroup
    public var classification: Classification
    /// The shape the rules read the symbol as (nil when rejected); see `ContextRule`.
    public var reading: StrokeReading?
    public var outcome: StrokeOutcome
    public var kind: SymbolKind
}

/// The whole sketch read from its ink: the automaton and every symbol's part in it.
public struct SketchReading: Sendable {
    public var sketch: Sketch
    /// The symbols in order of their first stroke.
    public var symbols: [ReadSymbol]
    /// For each ink stroke, the index of its symbol in `symbols`.
    public var symbolOfStroke: [Int]
}

/// Remembers classifications of stroke groups, so re-reading the sketch after every stroke
/// classifies each new group once.
public struct ClassificationCache: Sendable {
    /// Keyed by the strokes themselves, not their positions in the ink: erasing shifts
    /// positions, and a stroke must never get the classification of another.
    private var entries: [[Stroke]: Classification] = [:]

    public init() {}

    mutating func classification(
        of group: SymbolGroup, ink: [InkStroke], classifier: any StrokeClassifying
    ) throws -> Classification {
        let strokes = group.strokes.map { ink[$0].stroke }
        if let known = entries[strokes] { return known }
        let result = try classifier.classify(strokes)
        entries[strokes] = result
        return result
    }
}

/// The whole-sketch reader, in three stages re-run over all the ink whenever it changes, so
/// the automaton does not depend on the order the strokes arrived in:
/// 1. `SymbolGrouping`: strokes grouped into symbols (heads joined to their shafts, the two
///    circles of a final state joined);
/// 2. each symbol classified by the CNN (and the front end's shape where it gave one);
/// 3. structure resolved: the symbols applied to an empty sketch by the stroke rules, states
///    first (largest first, so a self-loop drawn round meets its state), then arrows and loops
///    in drawing order, so every arrow sees every state: an arrow is an initial arrow only when
///    no state lies at its start in the whole sketch. States without a given name are named
///    q0, q1, … in the order they were drawn.
public enum SketchReader {
    /// Reads `ink` on top of `base` (the states and transitions of an opened document; empty
    /// for a new sketch). A symbol's state or transition id is the `drawing` of its first stroke.
    public static func read(
        _ ink: [InkStroke], on base: Sketch = Sketch(), classifier: (any StrokeClassifying)?,
        cache: inout ClassificationCache
    ) throws -> SketchReading {
        let groups = SymbolGrouping.group(ink)
        var classified: [(group: SymbolGroup, classification: Classification, shape: StrokeShape?)] = []
        for group in groups {
            // A shape the front end gave needs no classifier.
            if let shape = group.strokes.lazy.compactMap({ ink[$0].shape }).first {
                classified.append((group, Classification(label: shape.rawValue, confidence: 1, probabilities: [:], isRejected: false), shape))
                continue
            }
            guard let classifier else { throw SketchEditError.noClassifier }
            let classification = try cache.classification(of: group, ink: ink, classifier: classifier)
            // Two circles round one centre are a final state, whatever the CNN makes of the pair.
            classified.append((group, classification, group.isConcentricCircles ? .circle : nil))
        }
        let order = resolutionOrder(classified.map { ($0.group, $0.classification) })

        // Pass one with default names, to learn which groups become states; pass two names
        // them in drawing order, as they would have been named had they been drawn in that
        // order (a given name already used by an earlier state is rejected by the rules).
        var names: [Int: String] = [:]
        var result = resolve(classified, order: order, ink: ink, base: base, names: names)
        var used = Set(base.states.map(\.name))
        for (index, symbol) in result.symbols.enumerated() {
            guard case .stateAdded = symbol.outcome else { continue }
            if let given = givenName(of: classified[index].group, ink: ink) {
                used.insert(given)
                continue
            }
            var number = 0
            while used.contains("q\(number)") { number += 1 }
            names[index] = "q\(number)"
            used.insert("q\(number)")
        }
        result = resolve(classified, order: order, ink: ink, base: base, names: names)
        return result
    }

    /// States first, in drawing order: circles (and two circles round one centre) the
    /// classifier does not call self-loops or arrows; then small ones (below
    /// `GroupingThresholds.smallCircle` of the median), which may be self-loops drawn round
    /// that need their state in place, and closed round strokes the classifier calls
    /// self-loops; then everything else in drawing order.
    static func resolutionOrder(_ symbols: [(group: SymbolGroup, classification: Classification)]) -> [Int] {
        let ranks = symbols.map { symbol -> (rank: Int, radius: Double) in
            let measures = symbol.group.drawing.map { DrawingMeasures($0.nonEmptyOrOrigin) }
            let radius = measures.map(\.meanRadius).min() ?? 0
            if symbol.group.isConcentricCircles { return (0, radius) }
            let label = symbol.classification.isRejected ? nil : StrokeShape(classifierLabel: symbol.classification.label)
            let round = measures.allSatisfy { $0.isClosedRound || $0.isDoubleRound }
            if label == .circle || (round && label != .cycle && label != .arrow) { return (0, radius) }
            if round && label == .cycle { return (1, radius) }
            return (2, 0)
        }
        let circleRadii = ranks.filter { $0.rank == 0 }.map(\.radius).sorted()
        let median = circleRadii.isEmpty ? 0 : circleRadii[circleRadii.count / 2]
        let rank = ranks.map { $0.rank == 0 && $0.radius < GroupingThresholds.smallCircle * median ? 1 : $0.rank }
        return symbols.indices.sorted { (rank[$0], $0) < (rank[$1], $1) }
    }

    /// The shaft of an arrow drawing (shaft first, then its head strokes), carried on to the
    /// head's point farthest from the shaft's start when that lies beyond the shaft's end: a
    /// big head drawn apart reaches further than its shaft.
    static func shaftToHeadApex(_ drawing: [[SketchPoint]]) -> [SketchPoint] {
        guard let shaft = drawing.first, let start = shaft.first, let end = shaft.last else { return drawing.first ?? [] }
        let heads = drawing.dropFirst().joined()
        guard let apex = heads.max(by: { Geometry.distance($0, start) < Geometry.distance($1, start) }),
            Geometry.distance(apex, start) > Geometry.distance(end, start)
        else { return shaft }
        return shaft + [apex]
    }

    private static func givenName(of group: SymbolGroup, ink: [InkStroke]) -> String? {
        group.strokes.lazy.compactMap { ink[$0].name }.first
    }

    private static func resolve(
        _ classified: [(group: SymbolGroup, classification: Classification, shape: StrokeShape?)],
        order: [Int], ink: [InkStroke], base: Sketch, names: [Int: String]
    ) -> SketchReading {
        var sketch = base
        let nextBaseIDs = (sketch.nextStateID, sketch.nextTransitionID)
        var outcomes: [Int: (StrokeOutcome, StrokeReading?)] = [:]
        for index in order {
            let (group, classification, shape) = classified[index]
            let labels = group.strokes.map { ink[$0] }
            let symbols = labels.flatMap(\.symbols)
            let isEpsilon = labels.contains { $0.isEpsilon }
            let name = names[index] ?? givenName(of: group, ink: ink)
            let id = ink[group.strokes[0]].drawing
            (sketch.nextStateID, sketch.nextTransitionID) = (id, id)
            if group.isRetracedCircle {
                outcomes[index] = (.rejected(reason: "this stroke runs along a state's circle; it changes nothing"), nil)
            } else if group.isConcentricCircles {
                let outcome = sketch.applyConcentricCircles(group.drawing, name: name)
                outcomes[index] = (outcome, outcome.isRejected ? nil : StrokeReading(shape: .circle, rule: .concentricCircles))
            } else if shape == nil, !group.heads.isEmpty,
                sketch.shaftJoinsTwoStates(DrawingMeasures(Self.shaftToHeadApex(group.drawing).nonEmptyOrOrigin))
            {
                // A shaft from one state to another with its head drawn apart is a transition,
                // however the classifier reads shaft and head together (a big head can look
                // like a self-loop's curl).
                let outcome = sketch.apply(group.drawing, as: .arrow, symbols: symbols, isEpsilon: isEpsilon)
                let rule: ContextRule? = StrokeShape(classifierLabel: classification.label) == .arrow && !classification.isRejected ? nil : .strokeBetweenStates
                outcomes[index] = (outcome, outcome.isRejected ? nil : StrokeReading(shape: .arrow, rule: rule))
            } else if shape == nil, !group.heads.isEmpty, classification.isRejected || StrokeShape(classifierLabel: classification.label) != .arrow,
                sketch.loopState(DrawingMeasures(group.drawing[0].nonEmptyOrOrigin), heads: Array(group.drawing.dropFirst().joined())) != nil
            {
                // Likewise a loop on a state's rim with its head drawn apart is a self-loop.
                let outcome = sketch.apply(group.drawing, as: .cycle, symbols: symbols, isEpsilon: isEpsilon)
                let rule: ContextRule? = StrokeShape(classifierLabel: classification.label) == .cycle && !classification.isRejected ? nil : .loopOnRim
                outcomes[index] = (outcome, outcome.isRejected ? nil : StrokeReading(shape: .cycle, rule: rule))
            } else if let shape {
                let outcome = sketch.apply(group.drawing, as: shape, name: name, symbols: symbols, isEpsilon: isEpsilon)
                outcomes[index] = (outcome, outcome.isRejected ? nil : StrokeReading(shape: shape, rule: nil))
            } else {
                outcomes[index] = sketch.apply(
                    group.drawing, classification: classification, name: name, symbols: symbols, isEpsilon: isEpsilon)
            }
        }
        let loosened = Set(sketch.resolveLooseEnds())
        // States and transitions listed in drawing order (their ids), whatever order resolved them.
        sketch.states.sort { $0.id < $1.id }
        sketch.transitions.sort { $0.id < $1.id }
        // Past the last id in use, so ink that reads as nothing (pending, rejected) leaves the
        // sketch as it was.
        let lastID = (sketch.states.map(\.id) + sketch.transitions.map(\.id)).max() ?? -1
        sketch.nextStateID = max(nextBaseIDs.0, lastID + 1)
        sketch.nextTransitionID = max(nextBaseIDs.1, lastID + 1)
        var symbols: [ReadSymbol] = []
        var symbolOfStroke = [Int](repeating: 0, count: ink.count)
        for (index, entry) in classified.enumerated() {
            var (outcome, reading) = outcomes[index]!
            if case let .transitionAdded(id, _, _) = outcome, loosened.contains(id), let transition = sketch.transition(id) {
                outcome = .transitionAdded(transition: id, from: sketch.name(of: transition.from), to: sketch.name(of: transition.to))
            }
            symbols.append(ReadSymbol(
                group: entry.group, classification: entry.classification, reading: reading, outcome: outcome,
                kind: kind(of: outcome, in: sketch)))
            for stroke in entry.group.strokes { symbolOfStroke[stroke] = index }
        }
        return SketchReading(sketch: sketch, symbols: symbols, symbolOfStroke: symbolOfStroke)
    }

    /// What an outcome made, judged on the finished sketch (a state made final by a circle
    /// drawn later is a final state; an arrow's ends as they are at the end).
    private static func kind(of outcome: StrokeOutcome, in sketch: Sketch) -> SymbolKind {
        switch outcome {
        case let .stateAdded(id, _, _, _), let .madeFinal(id, _):
            return sketch.state(id)?.isFinal == true ? .finalState : .state
        case let .transitionAdded(id, _, _):
            guard let transition = sketch.transition(id) else { return .rejected }
            if transition.isConnected { return .transition }
            return transition.isInitialMarker ? .initialArrow : .openArrow
        case .selfLoopAdded:
            return .selfLoop
        case .rejected:
            return .rejected
        }
    }
}

extension Sketch {
    /// A final state drawn as separate circles round one centre: the smallest circle is the
    /// state, the next one round it makes it final (however close their radii are).
    mutating func applyConcentricCircles(_ circles: [[SketchPoint]], name: String?) -> StrokeOutcome {
        let bySize = circles.sorted {
            Geometry.meanDistance($0, from: Geometry.centroid($0)) < Geometry.meanDistance($1, from: Geometry.centroid($1))
        }
        let inner = apply([bySize[0]], as: .circle, name: name)
        guard case let .stateAdded(id, stateName, _, connected) = inner else { return inner }
        for outer in bySize.dropFirst() { _ = apply([outer], as: .circle) }
        return .stateAdded(state: id, name: stateName, isFinal: state(id)?.isFinal == true, connected: connected)
    }

    /// True when a shaft drawn apart from its head runs from one state to another: a simple
    /// open stroke whose ends are at two states, or in line with them within `looseEndReach`
    /// (people start arrows off the rim and stop them short of it).
    func shaftJoinsTwoStates(_ shaft: DrawingMeasures) -> Bool {
        guard shaft.isSimpleOpenStroke else { return false }
        let (nearStart, nearEnd) = Self.endDirections(shaft.points, tipIndex: shaft.points.count - 1)
        guard let target = snap(shaft.last, excluding: nil) ?? stateInLine(from: nearEnd, through: shaft.last, excluding: nil)
        else { return false }
        let source = snap(shaft.start, excluding: target.id) ?? stateInLine(from: nearStart, through: shaft.start, excluding: target.id)
        return connectsTwoStates(shaft) || source != nil
    }

    /// The last step of stage 3: arrow ends the stroke rules left in empty space, judged on the
    /// whole sketch. A tip that stops short of a state further than `arrowSnap` (but within
    /// `looseEndReach`, the state ahead of the arrow along its chord or, for an arrow leaving a
    /// state, along the direction it arrives in: a curved back edge arrives from the side)
    /// enters it. Of the arrows whose start is
    /// free, the one starting farthest from any state is the initial arrow; the others start
    /// at the state behind them within `looseEndReach` (people start a transition a little
    /// away from its state; only the initial arrow comes from empty space). Returns the ids
    /// of the transitions it changed.
    mutating func resolveLooseEnds() -> [Int] {
        var changed: [Int] = []
        for index in transitions.indices where transitions[index].kind == .regular && transitions[index].to == nil {
            let geometry = transitions[index].geometry
            // Along the way it arrives only for an arrow leaving a state: a lone head, read
            // as a tiny arrow, must not be carried into a state by its barb's direction.
            let arriving = transitions[index].from == nil
                ? nil : stateInLine(from: geometry.nearEnds.tip, through: geometry.tip, excluding: transitions[index].from)
            if let state = stateInLine(from: geometry.start, through: geometry.tip, excluding: transitions[index].from) ?? arriving {
                transitions[index].to = state.id
                changed.append(transitions[index].id)
            }
        }
        let freeStarts = transitions.indices.filter { transitions[$0].kind == .regular && transitions[$0].from == nil && transitions[$0].to != nil }
        guard freeStarts.count > 1 else { return changed }
        let candidates = freeStarts.map { index -> (index: Int, source: SketchState?, gap: Double) in
            let geometry = transitions[index].geometry
            let source = stateInLine(from: geometry.tip, through: geometry.start, excluding: transitions[index].to)
            let gap = states.filter { $0.id != transitions[index].to }
                .map { (Geometry.distance(geometry.start, $0.center) - $0.outerRadius) / $0.radius }.min() ?? .infinity
            return (index, source, gap)
        }
        let initial = candidates.max { $0.gap < $1.gap }!.index
        for candidate in candidates where candidate.index != initial {
            guard let source = candidate.source else { continue }
            transitions[candidate.index].from = source.id
            changed.append(transitions[candidate.index].id)
        }
        return changed
    }

    /// Points a fifth of the way in from each end of the shaft `points[...tipIndex]`: with the
    /// end they give the direction the shaft leaves and arrives in (a curved arrow arrives
    /// at its state from the side, not along its chord).
    static func endDirections(_ points: [SketchPoint], tipIndex: Int) -> (nearStart: SketchPoint, nearEnd: SketchPoint) {
        (points[tipIndex / 5], points[tipIndex - tipIndex / 5])
    }

    /// The state an arrow running from `start` through `end` meets just beyond `end`: the one
    /// whose rim is relatively nearest to `end`, within `looseEndReach` radii, ahead of the
    /// arrow (its centre at most 60° off the arrow's direction).
    func stateInLine(from start: SketchPoint, through end: SketchPoint, excluding excluded: Int?) -> SketchState? {
        let length = Geometry.distance(start, end)
        guard length > 0 else { return nil }
        let direction = (end - start) / length
        var best: (state: SketchState, gap: Double)?
        for state in states where state.id != excluded {
            let offset = state.center - end
            let distance = Geometry.distance(state.center, end)
            guard distance > 0, (offset * direction).sum() / distance >= 0.5 else { continue }
            let gap = (distance - state.outerRadius) / state.radius
            guard gap <= StrokeRuleThresholds.looseEndReach else { continue }
            if best == nil || gap < best!.gap { best = (state, gap) }
        }
        return best?.state
    }
}
