import Foundation

/// Every tunable of the diagram reader, grouped by the stage that uses it (see
/// docs/recognition.md, which lists them all with their evidence).
///
/// Each parameter's comment opens with its unit in brackets:
/// - `[R]`: multiples of the sketch's scale R, the median radius of its states' circles (a
///   final state's outer circle left out; `StateFinder` measures it once);
/// - `[× X]`: a fraction or multiple of another length X named there (a radius, a path, a chord);
/// - `[turns]`, `[radians]`, `[degrees]`, `[strokes]`: as named.
///
/// Values were chosen on the tuning half of `fa-diagrams` (writers with even numbers) and on
/// the shapes of `real-strokes`, never on the check half. `ReaderParameters.current` is the
/// set in effect: the defaults, unless a sweep binds another set for the work it runs
/// (`ReaderParameters.$current.withValue(changed) { … }`), or the environment variable
/// `STROKEKIT_READER_PARAMETERS` holds a JSON object of changed values for a whole process
/// (`{"connectors": {"headMaxExtent": 2.0}}`; the benchmark scripts sweep this way).
struct ReaderParameters: Codable, Hashable, Sendable {
    var shapes = ShapeParameters()
    var states = StateParameters()
    var connectors = ConnectorParameters()
    var rules = RuleParameters()
    var text = TextParameters()

    /// The parameters in effect.
    @TaskLocal static var current = ReaderParameters.fromEnvironment()

    /// The defaults with the values of `STROKEKIT_READER_PARAMETERS` (a JSON object of stages
    /// and names, as the type encodes) put in; the defaults when it is unset, and when it is
    /// unreadable or names an unknown stage or parameter, with a warning on standard error that
    /// says why (a sweep with a misspelt name must not pass for a run of its changed value).
    static func fromEnvironment() -> ReaderParameters {
        guard let text = ProcessInfo.processInfo.environment["STROKEKIT_READER_PARAMETERS"] else { return ReaderParameters() }
        do {
            return try changed(by: text)
        } catch {
            var reason = "\(error)"
            if case DecodingError.dataCorrupted(let context) = error { reason = context.debugDescription }
            FileHandle.standardError.write(Data(
                "warning: STROKEKIT_READER_PARAMETERS ignored, the reader runs with its defaults: \(reason)\n".utf8))
            return ReaderParameters()
        }
    }

    /// The defaults with the values of `json` put in (stages and names as the type encodes).
    static func changed(by json: String) throws -> ReaderParameters {
        let defaults = try JSONSerialization.jsonObject(with: JSONEncoder().encode(ReaderParameters())) as? [String: Any] ?? [:]
        guard let changes = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not a JSON object"))
        }
        var merged = defaults
        for (stage, values) in changes {
            guard var known = merged[stage] as? [String: Any], let values = values as? [String: Any] else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no stage \(stage)"))
            }
            for (name, value) in values {
                guard known[name] != nil else {
                    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no parameter \(stage).\(name)"))
                }
                known[name] = value
            }
            merged[stage] = known
        }
        return try JSONDecoder().decode(ReaderParameters.self, from: JSONSerialization.data(withJSONObject: merged))
    }
}

/// The parameters in effect (`ReaderParameters.current`); read once per stage or per call of
/// a measure, not in inner loops.
var tuned: ReaderParameters { ReaderParameters.current }

/// Measures of one drawing alone (`DrawingMeasures`): round, oval, a simple open stroke with
/// a tip, a loop. Relative to the drawing's own size, never to R.
struct ShapeParameters: Codable, Hashable, Sendable {
    /// [turns] A closed round stroke winds this many turns around its centre (a circle with a
    /// small gap is 0.9; one overshooting by a third of a turn 1.33)… A drawing winding less
    /// than the lower bound round a point does not go round it: a self-loop round its state's
    /// centre, an arc of a circle drawn in goes. One winding at least the upper bound is a
    /// double circle drawn in one go: a final state (its inner and outer halves of points give
    /// the two radii). Measured round the centre by path length, an open arc of 0.8 turns (a
    /// self-loop's, a `c`) winds about 0.81: the lower bound keeps it out.
    var roundWinding = 0.85...1.4
    /// [× mean radius] …and its points' distances from the centre vary by at most this much
    /// (standard deviation; an ellipse with axes 1 : 0.7 gives about 0.12; a loop with a tail,
    /// 0.3 and more). A double circle drawn in one go has two rings, each allowed this: its
    /// points vary by at most twice this.
    var roundSpread = 0.22
    /// [× long axis] A state may be drawn as an oval down to this ratio of its axes (a 2 : 1
    /// oval is 0.5; a flat stroke, a Λ, is no oval).
    var ovalAspect = 0.4
    /// [× mean radius] Each of two concentric circles may stray this much from its circle or
    /// oval (a state alone: `roundSpread`): the shared centre is the stronger sign.
    var looseRoundSpread = 0.6
    /// [× farthest distance from the start] The tip of an open stroke is the first point at
    /// least this far from its start.
    var tipNearFarthest = 0.95
    /// [× chord] A simple shaft's path is at most this long (a back edge bowed by 0.3 of its
    /// length is 1.24; a zig-zag at 45° is 1.41, a steeper one or a wavy line more)…
    var shaftStretch = 1.45
    /// [× chord] …and the head drawn on after the tip stays within this distance of the tip
    /// (so its last point is at least `1 - headSpread` of the chord from its start: a
    /// self-loop, which comes back to where it began, is no simple open stroke)…
    var headSpread = 0.5
    /// [× chord] …with a path at most this long (three barbs of up to 0.36 of the chord, plus
    /// the pen's wobble): a head, not a scribble at the end.
    var headLength = 1.6
    /// [turns] A stroke read as a self-loop winds this much around its own centre (loops are
    /// drawn with a gap of up to a third of a turn, or crossing a little).
    var loopWinding = 0.5...1.4
    /// [× extent] A stroke curls back, as a loop does, when its ends come back within this of
    /// its extent (a straight stroke: 1; `DrawingMeasures.curlsBack`): a self-loop's arc or a
    /// narrow head is no shaft (the shaft of a group is the widest of its strokes, weighted by
    /// straightness except for strokes that curl back, `SymbolGrouping.shaftSpan`), and only a
    /// loop that curls back may have its head drawn apart.
    var loopEndsGap = 0.6
    /// [× path] A stroke's end part, "its last fifth" (`Geometry.lastPart`): the direction
    /// a stroke leaves or arrives in runs from its end to the point this share of its path in
    /// (`Geometry.endDirection`: a curved arrow arrives from the side); an arrow's tip is
    /// looked for in it next to a head drawn apart, and a loop comes back to its rim in it; a
    /// loop's middle is all but its end parts.
    var endPart = 0.2
    /// [× mean radius] Path lengths of a drawing are measured on points resampled every this
    /// much, so that the pen's tremor and sampling rate do not lengthen them.
    var pathStep = 0.2
}

/// The states stage (`StateFinder`): circles drawn in one stroke or in goes, final states,
/// shaky circles, round self-loops on a rim, and R.
struct StateParameters: Codable, Hashable, Sendable {
    /// [× second largest circle] Only circles at least this share of the second largest one
    /// measure R, the one scale of a reading (the states' circles, not a `0` or an `o` written
    /// in a label, nor one huge circle drawn round a state).
    var scaleShare = 0.5
    /// [strokes] How long a writer stays at one symbol: a circle may be drawn in up to this
    /// many strokes one after another (low-vision writers draw some in three or four), and a
    /// small stroke at the other end of a shaft with a head joins it when drawn at most this
    /// many strokes after the shaft (while the writer is still at that arrow).
    var symbolMaxStrokes = 6
    /// [sectors] Strokes drawn in goes make one circle when together they put ink in each of
    /// this many equal sectors round their centre (all the way round).
    var circleSectors = 12
    /// [× smaller radius] Round strokes are one final state's circles when their centres are
    /// at most this far apart (`Geometry.areConcentric`)…
    var concentricOffset = 0.8
    /// [× smaller radius] …and the larger radius is at most this.
    var concentricRatio = 2.5
    /// [× a state's radius] A round stroke smaller than this is small: alone, smaller than
    /// this in R, it may be a self-loop drawn round or a closed head, not a state (it is
    /// resolved after the states, and may join a shaft as its head); on a circle's rim, at
    /// most this of that circle's radius, it is a self-loop drawn round (for the circles found,
    /// `StateFinder`, as for the circle rule), and a closed round loop is at most this large.
    var smallCircle = 0.85
    /// [× the two radii added] A round stroke on a circle's rim, at most `smallCircle` of that
    /// circle's radius, is a self-loop drawn round when their centres are nearer than this (and
    /// further apart than concentric circles').
    var loopRoundReach = 1.2
    /// [× the circle's radius] A stroke leaving a circle's rim and coming back is a self-loop
    /// when its path is at least this long (real ones: 2.8–6.4; a barb drawn at a rim, which
    /// can also leave it and come back, is shorter).
    var loopMinimumPath = 2.0
}

/// The connectors stage (`SymbolGrouping`): heads of one to three strokes joined to their
/// shafts, before or after them; shafts lengthened by a later stroke.
struct ConnectorParameters: Codable, Hashable, Sendable {
    /// [R] A head stroke is at most this across (real heads are 0.5–1.5 R, 10th–90th
    /// percentile of their largest side, 7% above 1.8 R; a short transition between
    /// neighbouring states is longer), unless drawn right after its shaft, or right before it
    /// lying at its end as a head does (`SymbolGrouping.liesAsHead`; a big head: the FA
    /// database has them up to 2 R): those are bounded by their shaft
    /// (`headMaxShaftFraction`, `rightAfterHeadMaxShaftFraction`).
    var headMaxExtent = 1.8
    /// [R] A head drawn closed (a small triangle or curl) is at most this across: no state is
    /// so small (a loosely round stroke standing alone, off every circle's rim, is a state
    /// drawn shakily when its mean radius is at least half this). A shaft is wider than this.
    var closedHeadMaxExtent = 1.0
    /// [× the shaft's path] A stroke that joins a shaft is smaller than it: a head at most this
    /// across (real heads: mostly below 0.4), a stroke continuing the shaft at most this long
    /// (`extensionEnd`: a second arrow drawn alongside the first is about as long)…
    var headMaxShaftFraction = 0.7
    /// [× the shaft's path] …or this for one drawn right after its shaft: an arrow drawn small
    /// with a big head (arrows drawn on their own, as in `real-strokes`, have heads 0.56–0.82
    /// of the shaft, quartiles), on a shaft shorter than `shortArrow` too, and no wider than a
    /// closed head when the shaft is straight (`straightness`).
    var rightAfterHeadMaxShaftFraction = 1.6
    /// [× the head's extent] A head lies about its shaft's end: at most this far beyond it (a
    /// shaft may stop short of the head's apex)…
    var headMaxBeyond = 0.5
    /// [× the head's extent] …reaching out to each side of the shaft's line at least this…
    var headMinimumSpread = 0.15
    /// [× path] A stroke is straight when its ends are at least this far apart: a head lying
    /// at a shaft's end is not (a line across the end is no head); a shaft no wider than a
    /// closed head is, to carry a head drawn right after it.
    var straightness = 0.85
    /// [× the head's path] A head's ends are at least this far apart (a V is about 0.5, a
    /// narrow one 0.25, a barb 1), unless it is a closed head (a head filled in with a
    /// scribble is no wider than one).
    var headMinimumOpening = 0.1
    /// [R] A shaft whose path is shorter than this is no shaft when it could be the barb of a
    /// full-length shaft…
    var shaftMinimum = 1.5
    /// [R] …and no shaft at all below this (a short initial arrow beside a big state is about
    /// 1.3 R); a simple open stroke (a shaft with at most a head at its tip) reaching this far
    /// from its start to its tip is an arrow of its own: it joins a shaft as its head only
    /// lying as one.
    var shortArrow = 1.2
    /// [R] A head comes within this of its shaft's end (real heads: 0.0–0.5 R), whenever it was
    /// drawn.
    var headMaxGap = 0.8
    /// [R] A head drawn right after its shaft is preferred over an equally near one drawn at
    /// another time, right before it included (people draw a head after its shaft: 199 of 209
    /// arrows of the FA database's 22 diagrams; 5 head first): this is added to the distance
    /// of a head drawn at any other time.
    var apartInTimePenalty = 0.25
    /// [R] A nearly straight stroke continues a shaft (drawn in two goes, or lengthened later)
    /// when it starts within this of the shaft and reaches at least this beyond its end (it may
    /// also retrace the shaft)…
    var extensionReach = 0.5
    /// [degrees] …heads out of the shaft's end at most this far off its direction there…
    var extensionMaxAngle = 30.0
    /// [× path] A stroke continuing a shaft is nearly straight: its start and tip at least this
    /// far apart (it may come back a little along itself at its far end).
    var extensionStraightness = 0.6
    /// [× the shaft's path] Without any state to measure R by, lengths in R are measured
    /// against this share of the shaft's path instead.
    var scaleWithoutStates = 0.25
}

/// The resolver and its rules (`SketchReader`, `Sketch.read`, `Sketch.apply`): which state an
/// arrow end attaches to, which state a loop sits on, which circle is a state.
struct RuleParameters: Codable, Hashable, Sendable {
    /// [× the rim's radius] An arrow end attaches to a state when it lies inside the circle or
    /// at most this far outside its rim: people stop an arrow short of the target by up to about
    /// half a radius; more would start grabbing the neighbouring state in dense sketches. A
    /// self-loop starts and comes back within this of its state's rim (× the state's radius;
    /// loops are drawn on the rim, sometimes starting inside).
    var arrowSnap = 0.8
    /// [× the state's radius] When the whole sketch is read, an arrow end still in empty space
    /// attaches to the state ahead of it (its centre in front of the end, `Sketch.stateInLine`)
    /// up to this far beyond its rim: real arrows
    /// stop short of the target, or start away from the source, by up to 1.5 radii.
    var looseEndReach = 2.0
    /// [× the state's radius] A self-loop reaches at least this beyond its state's rim; an
    /// open stroke whose every point lies nearer than this (in R) to a state's circle is drawn
    /// along that circle (touched up), not an arrow: it reads as nothing.
    var loopMinimumBulge = 0.3
    /// [× the rim's radius] An open loop on a rim (its ends apart: no circle; a closed one is
    /// at most `smallCircle`) is at most this large (people draw self-loops as large as their
    /// state).
    var openLoopMaxRadius = 1.3
    /// [× the two radii added] A new circle is rejected when its centre is nearer to a state's
    /// centre than this: the circles would overlap heavily.
    var overlapFraction = 0.6
    /// [R] A slip of the pen: a circle with a smaller radius than this is too small to be a
    /// state (a dot), unless the sketch has no states yet; an arrow shorter than this is none.
    var slipOfThePen = 0.25
    /// [probability] A stroke the classifier rejects is read by its ends alone (`endsOnOneRim`,
    /// `endsOnTwoRims`) when its best guess has at least this probability. Chosen on the tuning
    /// half; its cost on real non-shapes placed in context: scripts/non_shapes_in_context.py.
    var timidConfidence = 0.3
}
