#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StrokeImage
import StrokeKit

/// One symbol of a reading: its strokes and what they became (how the classifier saw them,
/// what the rules made of them).
public struct ReadSymbol: Hashable, Sendable {
    public var group: SymbolGroup
    public var outcome: DrawingOutcome
}

/// The whole sketch read from its ink: the automaton and every symbol's part in it.
public struct SketchReading: Sendable {
    public var sketch: Sketch
    /// The symbols in order of their first stroke.
    public var symbols: [ReadSymbol]
    /// For each ink stroke, the index of its symbol in `symbols` (a label's strokes are one
    /// symbol of kind `.text`).
    public var symbolOfStroke: [Int]
    /// The handwritten labels, in order of their first stroke: text read, what it belongs to.
    public var labels: [HandwrittenLabel] = []

    public init(sketch: Sketch, symbols: [ReadSymbol], symbolOfStroke: [Int], labels: [HandwrittenLabel] = []) {
        self.sketch = sketch
        self.symbols = symbols
        self.symbolOfStroke = symbolOfStroke
        self.labels = labels
    }

    /// The ink strokes of the symbol that made what a label belongs to (empty for nothing,
    /// or a state or transition of the opened document).
    public func strokes(of owner: LabelOwner) -> [Int] {
        symbols.first { symbol in
            switch owner {
            case let .state(id): return symbol.outcome.became.createdState == id
            case let .transition(id): return symbol.outcome.became.createdTransition == id
            case .nothing: return false
            }
        }?.group.strokes ?? []
    }

    /// What a label belongs to, as a person would say it: "transition q0 → q1",
    /// "self-loop on q1", "state q2", "nothing".
    public func describe(_ owner: LabelOwner) -> String {
        sketch.target(of: owner).name
    }

    /// True when the ink stroke is handwriting (part of a label).
    public func isText(stroke: Int) -> Bool {
        symbols.indices.contains(symbolOfStroke[stroke]) && symbols[symbolOfStroke[stroke]].outcome.kind == .text
    }
}

/// Remembers classifications of stroke groups, so re-reading the sketch after every stroke
/// classifies each new group once.
public struct ClassificationCache: Sendable {
    /// Keyed by the strokes themselves, not their positions in the ink: erasing shifts
    /// positions, and a stroke must never get the classification of another.
    /// At most `capacity` of each kind are kept (an editor session can be long), the least
    /// recently used dropped first.
    private var entries = RecentlyUsed<[Stroke], Classification>(capacity: Self.capacity)
    /// The character model's answers (`CharacterReading`), nil where it failed.
    var characters = RecentlyUsed<[Stroke], Classification?>(capacity: Self.capacity)
    /// Classifications kept of each kind: many times one diagram's groups and characters.
    static let capacity = 2048
    /// The last diagram's transition labels and their readings, and its names and theirs
    /// (`CharacterReading.read`).
    var transitionReadings: (key: CharacterReading.LabelReadingKey, readings: [CharacterReading.Reading])?
    var nameReadings: (key: CharacterReading.LabelReadingKey, readings: [CharacterReading.Reading])?
    /// The drawings' measures of the last reading (shared by copies of the cache).
    let measures = MeasuresCache()
    /// The last reading's shape stage (`SketchReader.ShapeStage`), and its second resolution
    /// with the names and written symbols it was given.
    var shapeStage: (key: SketchReader.ShapeStage.Key, stage: SketchReader.ShapeStage)?
    var namedShapes: (stage: SketchReader.ShapeStage.Key, key: SketchReader.ShapeStage.NamedKey, reading: SketchReading)?
    /// True when the last reading kept the shape stage of the one before.
    var keptShapeStage = false

    public init() {}

    /// A cache keeping at most `capacity` classifications of each kind (for tests of eviction).
    init(capacity: Int) {
        entries = RecentlyUsed(capacity: capacity)
        characters = RecentlyUsed(capacity: capacity)
    }

    /// Classifications of groups held (for tests).
    var entriesCount: Int { entries.count }

    /// Drops the readings kept of the last diagram (its shape stage and labels), keeping the
    /// classifications: the next reading works every stage out again (for tests of those).
    mutating func forgetReadings() {
        shapeStage = nil
        namedShapes = nil
        transitionReadings = nil
        nameReadings = nil
    }

    mutating func classification(
        of group: SymbolGroup, ink: [InkStroke], classifier: any StrokeClassifying
    ) throws -> Classification {
        let strokes = group.strokes.map { ink[$0].stroke }
        if let known = entries.value(for: strokes) { return known }
        let result = try classifier.classify(strokes)
        entries.insert(result, for: strokes)
        return result
    }
}

/// The whole-sketch reader. Its stages run top-down over all the ink whenever it changes, so
/// the automaton does not depend on the order the strokes arrived in (docs/recognition.md):
/// 1. states (`StateFinder`): the states' circles in the ink (one stroke or in goes, two
///    round one centre, shaky), round self-loops on a rim, and the scale R, measured once;
/// 2. connectors (`SymbolGrouping`): arrows and loops grouped against those states (heads of
///    one to three strokes before or after their shaft, extensions);
/// 3. text: handwritten labels. An empty slot for now: every stroke is a shape;
/// 4. each symbol classified by the CNN (or the front end's shape where it gave one);
/// 5. the resolver (`decide`): one decision per symbol, what it becomes and the rule that
///    decided, applied to the sketch states first (so every arrow sees every state);
/// 6. the initial arrow, one global pass (`Sketch.resolveLooseEnds`): of the arrows starting
///    in empty space, the one farthest from every state;
/// 7. names: states without a given name are named q0, q1, … in drawing order.
public enum SketchReader {
    /// Reads `ink` on top of `base` (the states and transitions of an opened document; empty
    /// for a new sketch). A symbol's state or transition id is the `drawing` of its first stroke.
    public static func read(
        _ ink: [InkStroke], on base: Sketch = Sketch(), classifier: (any StrokeClassifying)?,
        cache: inout ClassificationCache
    ) throws -> SketchReading {
        // Every drawing measured once per reading, and not again in the next one when its
        // points are the same (`MeasuresCache`).
        let measures = cache.measures
        measures.startReading(with: tuned)
        cache.keptShapeStage = false
        defer { measures.finishReading(partial: cache.keptShapeStage) }
        return try MeasuresCache.$current.withValue(measures) {
            try readMeasured(ink, on: base, classifier: classifier, cache: &cache)
        }
    }

    /// `read` with `MeasuresCache.current` as it is (nil: every drawing measured now).
    static func readMeasured(
        _ ink: [InkStroke], on base: Sketch, classifier: (any StrokeClassifying)?, cache: inout ClassificationCache
    ) throws -> SketchReading {
        let everything = StateFinder.find(ink)
        // Stage 3, text: the strokes of handwritten labels, decided against the states found
        // in all the ink (size against R, inside a state, beside a connector), taken out before
        // the shapes are read again without them: a text stroke never becomes a state, an
        // arrow or a loop.
        let isText = TextFinder.textStrokes(ink, states: everything)
        let shapeStrokes = ink.indices.filter { !isText[$0] }
        let shapeInk = shapeStrokes.map { ink[$0] }
        // Stages 1-2 and 4-5 on the shapes alone depend on the shape strokes and nothing else:
        // a stroke that is text leaves them as the reading before found them (`ShapeStage`).
        let stageKey = ShapeStage.Key(shapeInk: shapeInk, base: base, hasClassifier: classifier != nil, parameters: tuned)
        let stage: ShapeStage
        if let known = cache.shapeStage, known.key == stageKey {
            stage = known.stage
            cache.keptShapeStage = true
        } else {
            let states = shapeStrokes.count == ink.count ? everything : StateFinder.find(shapeInk)
            let groups = SymbolGrouping.group(shapeInk, states: states)
            let classified = try classify(groups, ink: shapeInk, classifier: classifier, cache: &cache)
            let order = resolutionOrder(classified.map { ($0.group, $0.classification) }, scale: states.scale)
            // Stage 7, names: the rules must see every state's name when they check a given one (a
            // name already used by a state drawn earlier is refused), so the structure is resolved
            // once with default names to learn which symbols become states, and once more with
            // those states named (by the name written inside them, or q0, q1, … in drawing order,
            // past the names given) and the transitions given the symbols written beside them.
            let first = resolve(classified, order: order, ink: shapeInk, base: base, scale: states.scale, names: [:], labelled: [:])
            stage = ShapeStage(scale: states.scale, classified: classified, order: order, first: first)
            cache.shapeStage = (stageKey, stage)
        }
        let (classified, order, first) = (stage.classified, stage.order, stage.first)
        let labels = readLabels(
            ink.indices.filter { isText[$0] }, ink: ink, sketch: first.sketch,
            circles: TextFinder.stateCircles(everything, parameters: tuned.text), cache: &cache)
        var labelNames: [Int: String] = [:]  // state id -> name written in it
        var written: [Int: (symbols: [String], isEpsilon: Bool)] = [:]  // transition id -> symbols
        for label in labels {
            switch label.owner {
            case let .state(id) where !label.text.isEmpty:
                labelNames[id] = labelNames[id] == nil ? label.text : nil
            case let .transition(id):
                written[id, default: ([], false)].symbols += label.symbols.filter { !(written[id]?.symbols.contains($0) ?? false) }
            default:
                break
            }
        }
        // With symbols written beside transitions, a transition between states left without
        // a label is an ε-move (as textbooks draw them).
        if !written.isEmpty {
            for transition in first.sketch.transitions where transition.isConnected && written[transition.id] == nil {
                written[transition.id] = ([], true)
            }
        }
        var names: [Int: String] = [:]
        var labelled: [Int: (symbols: [String], isEpsilon: Bool)] = [:]
        var used = Set(base.states.map(\.name))
        var named: [(index: Int, id: Int)] = []
        for (index, symbol) in first.symbols.enumerated() {
            switch symbol.outcome.became {
            case let .state(id, _, _, _):
                if let given = givenName(of: classified[index].group, ink: shapeInk) {
                    used.insert(given)
                } else {
                    named.append((index, id))
                }
            case let .transition(id, _, _, _, _), let .selfLoop(id, _, _, _), let .initialArrow(id, _), let .openArrow(id, _, _, _):
                labelled[index] = written[id]
            default:
                break
            }
        }
        for (index, id) in named {
            guard let name = labelNames[id], SketchNames.problem(withStateName: name, in: Sketch(), excluding: nil) == nil,
                !used.contains(name)
            else { continue }
            names[index] = name
            used.insert(name)
        }
        for (index, _) in named where names[index] == nil {
            var number = 0
            while used.contains("q\(number)") { number += 1 }
            names[index] = "q\(number)"
            used.insert("q\(number)")
        }
        // The second resolution, as the reading before made it when the shapes, the names and
        // the labels' symbols are the same (a stroke added to a label that reads as before).
        let namedKey = ShapeStage.NamedKey(
            names: names, labelled: labelled.mapValues { ShapeStage.Written(symbols: $0.symbols, isEpsilon: $0.isEpsilon) })
        let shapes: SketchReading
        if let known = cache.namedShapes, known.stage == stageKey, known.key == namedKey {
            shapes = known.reading
        } else {
            shapes = resolve(classified, order: order, ink: shapeInk, base: base, scale: stage.scale, names: names, labelled: labelled)
            cache.namedShapes = (stageKey, namedKey, shapes)
        }
        return merged(shapes, shapeStrokes: shapeStrokes, labels: labels, ink: ink)
    }

    /// What the shape strokes alone give (stages 1-2 and 4-5 with default names): the scale R,
    /// each symbol classified, the order they are resolved in, and the first resolution. A
    /// function of its `Key` alone, so `ClassificationCache` keeps the last one.
    struct ShapeStage: Sendable {
        /// Everything the stage reads: the shape strokes (their points, drawings, given names
        /// and symbols, shapes), the opened sketch, whether a classifier is set, the parameters.
        struct Key: Equatable, Sendable {
            var shapeInk: [InkStroke]
            var base: Sketch
            var hasClassifier: Bool
            var parameters: ReaderParameters
        }

        /// The names and written symbols the second resolution gives the symbols (by index).
        struct NamedKey: Equatable, Sendable {
            var names: [Int: String]
            var labelled: [Int: Written]
        }

        struct Written: Equatable, Sendable {
            var symbols: [String]
            var isEpsilon: Bool
        }

        var scale: Double?
        var classified: [Classified]
        var order: [Int]
        var first: SketchReading
    }

    /// Stage 3's labels: the text strokes grouped, attached to the states and transitions of
    /// `sketch`, and read with the diagram's context (`HandwrittenLabels.read`).
    static func readLabels(
        _ textStrokes: [Int], ink: [InkStroke], sketch: Sketch, circles: TextFinder.Circles, cache: inout ClassificationCache
    ) -> [HandwrittenLabel] {
        guard !textStrokes.isEmpty else { return [] }
        let middles = LabelAttachment.middles(of: sketch)
        let groups = LabelAttachment.split(
            LabelGrouping.group(textStrokes, ink: ink, circles: circles), ink: ink, sketch: sketch, middles: middles, scale: circles.scale)
        let owners = LabelAttachment.attach(groups, ink: ink, sketch: sketch, middles: middles, scale: circles.scale)
        // An initial arrow takes no symbols ("Start" written at it is text of its own).
        let takesSymbols = owners.map { owner in
            if case let .transition(id) = owner { sketch.transition(id).map { !$0.isInitialMarker } ?? false } else { false }
        }
        return HandwrittenLabels.read(groups, owners: owners, takesSymbols: takesSymbols, ink: ink, cache: &cache)
    }

    /// The reading of the shapes (indices into `shapeStrokes`) and the labels as one reading
    /// of the whole ink: each label one symbol of kind `.text`, symbols in order of their
    /// first stroke.
    static func merged(_ shapes: SketchReading, shapeStrokes: [Int], labels: [HandwrittenLabel], ink: [InkStroke]) -> SketchReading {
        var symbols: [ReadSymbol] = shapes.symbols.map { symbol in
            var symbol = symbol
            symbol.group.strokes = symbol.group.strokes.map { shapeStrokes[$0] }
            symbol.group.heads = symbol.group.heads.map { shapeStrokes[$0] }
            return symbol
        }
        for label in labels {
            let group = SymbolGroup(
                strokes: label.strokes, heads: [], drawing: label.strokes.map { ink[$0].stroke.sketchPoints },
                isReversed: false, isConcentricCircles: false)
            symbols.append(ReadSymbol(group: group, outcome: DrawingOutcome(
                became: .text(text: label.text, belongsTo: shapes.sketch.target(of: label.owner)),
                classification: Classification(label: label.text, confidence: label.confidence, probabilities: [:], isRejected: false))))
        }
        symbols.sort { $0.group.strokes[0] < $1.group.strokes[0] }
        var symbolOfStroke = [Int](repeating: 0, count: ink.count)
        for (index, symbol) in symbols.enumerated() {
            for stroke in symbol.group.strokes { symbolOfStroke[stroke] = index }
        }
        return SketchReading(sketch: shapes.sketch, symbols: symbols, symbolOfStroke: symbolOfStroke, labels: labels)
    }

    /// A symbol with the classifier's answer, and the shape it has whatever the classifier
    /// says (the front end's, or a circle for two circles round one centre).
    typealias Classified = (group: SymbolGroup, classification: Classification, shape: StrokeShape?)

    /// Stage 4: each symbol classified, once per group of strokes (`cache`).
    static func classify(
        _ groups: [SymbolGroup], ink: [InkStroke], classifier: (any StrokeClassifying)?, cache: inout ClassificationCache
    ) throws -> [Classified] {
        try groups.map { group in
            // A shape the front end gave needs no classifier.
            if let shape = group.strokes.lazy.compactMap({ ink[$0].shape }).first {
                return (group, Classification(label: shape.rawValue, confidence: 1, probabilities: [:], isRejected: false), shape)
            }
            guard let classifier else { throw SketchEditError.noClassifier }
            let classification = try cache.classification(of: group, ink: ink, classifier: classifier)
            // Two circles round one centre are a final state, whatever the CNN makes of the pair.
            return (group, classification, group.isConcentricCircles ? .circle : nil)
        }
    }

    /// What the resolver decided for one symbol.
    enum Decision: Equatable {
        /// Apply the rule for `shape`; `rule` is the context rule that chose the shape (nil
        /// when the classifier's accepted label, or the front end, did).
        case apply(StrokeShape, rule: ContextRule?)
        /// Two or more circles round one centre: a state and its final circle.
        case concentricCircles
        case reject(reason: DrawingOutcome.Rejection)
    }

    /// Stage 5's decision table: what a grouped symbol becomes, given its classification and
    /// the sketch resolved so far (every state is in place before any arrow or loop). The
    /// first row that holds decides, and its rule is the one reported.
    static func decide(_ symbol: Classified, in sketch: Sketch) -> Decision {
        let (group, classification, shape) = symbol
        let label = classification.isRejected ? nil : StrokeShape(classifierLabel: classification.label)
        if group.isRetracedCircle { return .reject(reason: .retracedCircle) }
        if group.isConcentricCircles { return .concentricCircles }
        if let shape { return .apply(shape, rule: nil) }
        if !group.heads.isEmpty {
            // A shaft from one state to another with its head drawn apart is a transition,
            // however the classifier reads shaft and head together (a big head can look like
            // a self-loop's curl).
            if sketch.joinsTwoStates(DrawingMeasures(shaftToHeadApex(group.drawing).nonEmptyOrOrigin), alongItsEnds: true) {
                return .apply(.arrow, rule: label == .arrow ? nil : .strokeBetweenStates)
            }
            // Likewise a loop on a state's rim with its head drawn apart is a self-loop,
            // whichever of the drawing's strokes is the loop: a loop drawn open (its ends far
            // apart) counts as bent and can span less as a shaft than a straight head.
            if label != .arrow, group.drawing.indices.contains(where: { loop in
                sketch.loopState(
                    DrawingMeasures(group.drawing[loop].nonEmptyOrOrigin),
                    heads: group.drawing.indices.filter { $0 != loop }.flatMap { group.drawing[$0] }) != nil
            }) {
                return .apply(.cycle, rule: label == .cycle ? nil : .loopOnRim)
            }
        }
        // The context rules for one drawing (`Sketch.read`).
        let (reading, rejection) = sketch.read(group.drawing, classification: classification)
        guard let reading else { return .reject(reason: rejection ?? .unreadable) }
        return .apply(reading.shape, rule: reading.rule)
    }

    /// States first, in drawing order: circles (and two circles round one centre) the
    /// classifier does not call self-loops or arrows; then small ones (below
    /// `smallCircle` R), which may be self-loops drawn round
    /// that need their state in place, and closed round strokes the classifier calls
    /// self-loops; then everything else in drawing order.
    static func resolutionOrder(_ symbols: [(group: SymbolGroup, classification: Classification)], scale: Double?) -> [Int] {
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
        let small = tuned.states.smallCircle * (scale ?? 0)
        let rank = ranks.map { $0.rank == 0 && $0.radius < small ? 1 : $0.rank }
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

    /// Stages 5 and 6: each symbol decided and applied in `order`, then the initial arrow;
    /// `names` names the states (by symbol) that have no given name.
    private static func resolve(
        _ classified: [Classified], order: [Int], ink: [InkStroke], base: Sketch, scale: Double?, names: [Int: String],
        labelled: [Int: (symbols: [String], isEpsilon: Bool)]
    ) -> SketchReading {
        var sketch = base
        let nextBaseIDs = (sketch.nextStateID, sketch.nextTransitionID)
        var outcomes: [Int: (DrawingOutcome.Became, StrokeReading?)] = [:]
        for index in order {
            let symbol = classified[index]
            let labels = symbol.group.strokes.map { ink[$0] }
            var symbols = labels.flatMap(\.symbols)
            var isEpsilon = labels.contains { $0.isEpsilon }
            // Symbols typed take precedence over symbols written beside the transition.
            if symbols.isEmpty && !isEpsilon, let written = labelled[index] {
                (symbols, isEpsilon) = written
            }
            let id = ink[symbol.group.strokes[0]].drawing
            let name = names[index] ?? givenName(of: symbol.group, ink: ink)
            (sketch.nextStateID, sketch.nextTransitionID) = (id, id)
            switch decide(symbol, in: sketch) {
            case let .reject(reason):
                outcomes[index] = (.rejected(reason: reason), nil)
            case .concentricCircles:
                let outcome = sketch.applyConcentricCircles(symbol.group.drawing, name: name, scale: scale)
                outcomes[index] = (outcome, outcome.isRejected ? nil : StrokeReading(shape: .circle, rule: .concentricCircles))
            case let .apply(shape, rule):
                let outcome = sketch.apply(
                    symbol.group.drawing, as: shape, name: name, symbols: symbols, isEpsilon: isEpsilon, scale: scale)
                outcomes[index] = (outcome, outcome.isRejected ? nil : StrokeReading(shape: shape, rule: rule))
            }
        }
        sketch.resolveLooseEnds()
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
            let (became, reading) = outcomes[index]!
            symbols.append(ReadSymbol(group: entry.group, outcome: DrawingOutcome(
                became: became.finished(on: sketch), classification: entry.classification, reading: reading)))
            for stroke in entry.group.strokes { symbolOfStroke[stroke] = index }
        }
        return SketchReading(sketch: sketch, symbols: symbols, symbolOfStroke: symbolOfStroke)
    }
}

extension Sketch {
    /// A final state drawn as separate circles round one centre: the smallest circle is the
    /// state, the next one round it makes it final (however close their radii are).
    mutating func applyConcentricCircles(_ circles: [[SketchPoint]], name: String?, scale: Double? = nil) -> DrawingOutcome.Became {
        let bySize = circles.sorted { DrawingMeasures.roundness($0).meanRadius < DrawingMeasures.roundness($1).meanRadius }
        let inner = apply([bySize[0]], as: .circle, name: name, scale: scale)
        guard case let .state(id, stateName, _, connected) = inner else { return inner }
        for outer in bySize.dropFirst() { _ = apply([outer], as: .circle, scale: scale) }
        return .state(id: id, name: stateName, final: state(id)?.isFinal == true, connected: connected)
    }

    /// Stage 6: arrow ends the stroke rules left in empty space, judged on the
    /// whole sketch. A tip that stops short of a state further than `arrowSnap` (but within
    /// `looseEndReach`, the state ahead of the arrow along its chord or, for an arrow leaving a
    /// state, along the direction it arrives in: a curved back edge arrives from the side)
    /// enters it. Of the arrows whose start is
    /// free, the one starting farthest from any state is the initial arrow; the others start
    /// at the state behind them within `looseEndReach` (people start a transition a little
    /// away from its state; only the initial arrow comes from empty space). Returns the ids
    /// of the transitions it changed.
    @discardableResult
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

    /// The state an arrow running from `start` through `end` meets just beyond `end`: the one
    /// whose rim is relatively nearest to `end`, within `looseEndReach` radii, ahead of the
    /// arrow (its centre in front of the end, less than a right angle off the arrow's direction).
    func stateInLine(from start: SketchPoint, through end: SketchPoint, excluding excluded: Int?) -> SketchState? {
        let length = Geometry.distance(start, end)
        guard length > 0 else { return nil }
        let direction = (end - start) / length
        var best: (state: SketchState, gap: Double)?
        for state in states where state.id != excluded {
            let offset = state.center - end
            let distance = Geometry.distance(state.center, end)
            guard distance > 0, (offset * direction).sum() > 0 else { continue }
            let gap = (distance - state.outerRadius) / state.radius
            guard gap <= tuned.rules.looseEndReach else { continue }
            if best == nil || gap < best!.gap { best = (state, gap) }
        }
        return best?.state
    }
}
