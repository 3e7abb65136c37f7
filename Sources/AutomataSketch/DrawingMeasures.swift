#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The few measurements of a drawing that the context rules read: is it a closed round
/// stroke (a circle), a simple open stroke with a tip (an arrow), a loop on one state?
struct DrawingMeasures {
    /// All points of the drawing's strokes, in drawing order.
    let points: [SketchPoint]
    /// The first point drawn, and the last.
    let start: SketchPoint, last: SketchPoint
    /// Where the shaft ends and a head drawn in the same stroke begins
    /// (`Geometry.shaftEndIndex`), and its index.
    let shaftEnd: SketchPoint, shaftEndIndex: Int
    /// The arrow's tip as it attaches to a state (`Geometry.arrowTip`).
    let tip: SketchPoint
    /// Distance from the start to the tip.
    let chord: Double
    /// Path length from the start to the tip (the shaft), and after the tip (the head),
    /// measured as `pathLength` is.
    let shaftLength: Double, headLength: Double
    /// Centre (mean point) and mean radius of the drawing, by path length (`evenlySpaced`).
    let centroid: SketchPoint, meanRadius: Double
    /// Standard deviation of the points' distances from the centre, relative to `meanRadius`
    /// (about 0.05 for a drawn circle, 0.1–0.2 for an ellipse; more for anything else).
    let radialSpread: Double
    /// Turns around the centre (signed; about ±1 for a circle drawn once).
    let winding: Double
    /// Path length of the whole drawing (smoothed over a fifth of `meanRadius`).
    let pathLength: Double
    /// The diagonal of the points' bounding box (`Geometry.extent`).
    let extent: Double
    /// The radial spread about the ellipse of the points' second moments, and that ellipse's
    /// short axis over its long one (see `oval`).
    let ovalSpread: Double, aspect: Double

    /// The measures of `points`: the ones the reading in progress already took of the same
    /// points when a `MeasuresCache` is bound (`MeasuresCache.current`), measured otherwise.
    init(_ points: [SketchPoint]) {
        self.init(points, breaks: [])
    }

    /// The measures of one drawing made of several strokes, joined in drawing order: its round
    /// measures weigh each stroke's ink by its length, never the pen's jumps between strokes.
    init(strokes: [[SketchPoint]]) {
        let strokes = strokes.filter { !$0.isEmpty }
        self.init(Array(strokes.joined()), breaks: Self.breaks(strokes))
    }

    private init(_ points: [SketchPoint], breaks: [Int]) {
        if let cache = MeasuresCache.current {
            self = cache.measures(of: points, breaks: breaks)
        } else {
            self.init(measuring: points, breaks: breaks)
        }
    }

    /// Where each stroke after the first starts among the joined points of `strokes`.
    static func breaks(_ strokes: [[SketchPoint]]) -> [Int] {
        var starts: [Int] = []
        var count = 0
        for stroke in strokes.dropLast() {
            count += stroke.count
            starts.append(count)
        }
        return starts
    }

    /// The measures of `points`, measured now; `breaks` are where a new stroke starts among them.
    init(measuring points: [SketchPoint], breaks: [Int] = []) {
        precondition(!points.isEmpty, "measuring an empty drawing")
        self.points = points
        let shapes = tuned.shapes
        let first = points[0]
        start = first
        last = points[points.count - 1]
        shaftEndIndex = Geometry.shaftEndIndex(points)
        shaftEnd = points[shaftEndIndex]
        tip = Geometry.arrowTip(shaft: points, heads: [])
        let tipIndex = shaftEndIndex
        chord = Geometry.distance(first, points[tipIndex])
        let even = Self.evenlySpaced(points, breaks: breaks)
        let (center, radius, spread) = Self.pointRoundness(even)
        centroid = center
        meanRadius = radius
        radialSpread = spread
        winding = Geometry.windingTurns(points, around: center)
        // Path lengths, of the drawing and of its shaft and head, are measured on points every
        // `pathStep` of the radius, so the pen's tremor (which can double the raw path length
        // of a small drawing) and its sampling rate do not lengthen them.
        let step = shapes.pathStep * radius
        func length(_ part: ArraySlice<SketchPoint>) -> Double {
            radius > 0 ? Geometry.pathLength(Geometry.resampled(Array(part), step: step)) : 0
        }
        shaftLength = length(points[...tipIndex])
        headLength = length(points[tipIndex...])
        pathLength = length(points[...])
        extent = Geometry.extent(points)
        (ovalSpread, aspect) = Self.oval(even, centroid: center)
    }

    /// `centroid`, `meanRadius` and `radialSpread` of `points` (not empty) alone, without the
    /// other measures; by path length (see `evenlySpaced`).
    static func roundness(_ points: [SketchPoint]) -> Roundness {
        guard let cache = MeasuresCache.current else { return measuredRoundness(points, breaks: []) }
        return cache.roundness(of: [points]) { measuredRoundness(points, breaks: []) }
    }

    /// `roundness` of one drawing made of several strokes (not all empty), each stroke's ink
    /// weighed by its length, the jumps between strokes not at all.
    static func roundness(strokes: [[SketchPoint]]) -> Roundness {
        let strokes = strokes.filter { !$0.isEmpty }
        guard !strokes.isEmpty else { return pointRoundness([.zero]) }
        // Joined only when measured: the states stage asks this of many runs of arcs.
        func measured() -> Roundness { measuredRoundness(Array(strokes.joined()), breaks: breaks(strokes)) }
        guard let cache = MeasuresCache.current else { return measured() }
        return cache.roundness(of: strokes, measured)
    }

    /// `centroid`, `meanRadius` and `radialSpread` of a drawing (`roundness`).
    typealias Roundness = (centroid: SketchPoint, meanRadius: Double, radialSpread: Double)

    /// `roundness`, measured now.
    static func measuredRoundness(_ points: [SketchPoint], breaks: [Int]) -> Roundness {
        pointRoundness(evenlySpaced(points, breaks: breaks))
    }

    /// The points resampled evenly along their path, every `pathStep` of the radius the points
    /// as given have: the round measures (centre, radius, spreads, the oval) weigh each stretch
    /// of ink by its length, not by how many points the pen left there (a pen slowing down at a
    /// stroke's start or in a hook bunches its points and would pull the centre there).
    /// Each stroke (the points between `breaks`) is resampled on its own, with one step for
    /// all: the pen's jump from one stroke to the next is no ink.
    static func evenlySpaced(_ points: [SketchPoint], breaks: [Int]) -> [SketchPoint] {
        let center = Geometry.centroid(points)
        let radius = Geometry.meanDistance(points, from: center)
        guard radius > 0 else { return points }
        let step = tuned.shapes.pathStep * radius
        let bounds = [0] + breaks + [points.count]
        return zip(bounds, bounds.dropFirst()).flatMap { start, end in
            start < end ? Geometry.resampled(Array(points[start..<end]), step: step) : []
        }
    }

    /// `centroid`, `meanRadius` and `radialSpread` of the points as given, each point weighing one.
    private static func pointRoundness(_ points: [SketchPoint]) -> Roundness {
        let center = Geometry.centroid(points)
        let radius = Geometry.meanDistance(points, from: center)
        let variance = points.reduce(0.0) {
            let deviation = Geometry.distance($1, center) - radius
            return $0 + deviation * deviation
        } / Double(points.count)
        return (center, radius, radius > 0 ? variance.squareRoot() / radius : .infinity)
    }

    /// True for a stroke that goes round once and stays at about one distance from its centre,
    /// or on one oval (see `isClosedOval`).
    var isClosedRound: Bool {
        tuned.shapes.roundWinding.contains(abs(winding))
            && (radialSpread <= tuned.shapes.roundSpread || isClosedOval)
    }

    /// True for a stroke whose ends come back near each other, as a loop's do (within
    /// `loopEndsGap` of its extent).
    var curlsBack: Bool {
        Geometry.distance(start, last) < tuned.shapes.loopEndsGap * extent
    }

    /// True for a stroke that goes from its start to a tip far away without wandering: a
    /// straight or curved shaft, then at most a head near the tip.
    var isSimpleOpenStroke: Bool {
        chord > 0
            && shaftLength <= tuned.shapes.shaftStretch * chord
            && headLength <= tuned.shapes.headLength * chord
            && points[shaftEndIndex...].allSatisfy { Geometry.distance($0, shaftEnd) <= tuned.shapes.headSpread * chord }
    }
}

extension DrawingMeasures {
    /// The principal axes of the points about their centroid: the unit direction of the long
    /// axis and the variances along the long and the short axis.
    private static func principalAxes(
        _ points: [SketchPoint], centroid: SketchPoint
    ) -> (axis: SketchPoint, major: Double, minor: Double) {
        let n = Double(points.count)
        var xx = 0.0, xy = 0.0, yy = 0.0
        for point in points {
            let d = point - centroid
            xx += d.x * d.x / n
            xy += d.x * d.y / n
            yy += d.y * d.y / n
        }
        // Eigenvalues and the first eigenvector of the covariance [[xx, xy], [xy, yy]].
        let half = (xx + yy) / 2, root = ((xx - yy) * (xx - yy) / 4 + xy * xy).squareRoot()
        let angle = 0.5 * atan2(2 * xy, xx - yy)
        return (SketchPoint(cos(angle), sin(angle)), half + root, max(0, half - root))
    }

    /// How far the points stray from the ellipse of their second moments: the radial spread
    /// (as `radialSpread`) after the drawing is stretched along its principal axes to make
    /// that ellipse a circle. A state drawn as an oval gives about 0.05–0.15 here although
    /// its `radialSpread` can pass 0.3; a loop with a head or a scribble stays far above.
    /// With `aspect`: the short axis over the long axis of that ellipse (1 for a circle, 0 for
    /// a line). Measured once, in `init`.
    static func oval(_ points: [SketchPoint], centroid: SketchPoint) -> (spread: Double, aspect: Double) {
        let (axis, major, minor) = principalAxes(points, centroid: centroid)
        let aspect = major > 0 ? (minor / major).squareRoot() : 0
        guard minor > 0 else { return (.infinity, aspect) }
        let normal = SketchPoint(-axis.y, axis.x)
        let radii = points.map { point -> Double in
            let d = point - centroid
            let u = (d * axis).sum() / major.squareRoot(), v = (d * normal).sum() / minor.squareRoot()
            return (u * u + v * v).squareRoot()
        }
        let n = Double(radii.count)
        let mean = radii.reduce(0, +) / n
        let variance = radii.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / n
        return (mean > 0 ? variance.squareRoot() / mean : .infinity, aspect)
    }

    /// True for a stroke that goes round once as a circle or an oval (a state drawn in one
    /// go, however flattened, down to `tuned.shapes.ovalAspect`).
    var isClosedOval: Bool {
        tuned.shapes.roundWinding.contains(abs(winding))
            && ovalSpread <= tuned.shapes.roundSpread && aspect >= tuned.shapes.ovalAspect
    }
}

/// Measures of drawings remembered between readings of one sketch: the editor re-reads the
/// whole ink on every stroke, and most of its drawings (every stroke, the states found, the
/// groups' drawings) are the same points as in the reading before. Keyed by the points
/// themselves and valid for one set of `ReaderParameters` (the measures depend on both and on
/// nothing else), so a measure taken from the cache is the one `init(measuring:)` would take.
/// Entries not used by a reading are dropped at its end (`finishReading`; a reading that kept
/// the shape stage of the one before drops them at the next that does not, or past a bound), so
/// the cache holds about one reading's drawings, however long the session. Shared by copies of the editor (undo
/// states, a server's cached session): a lock guards it.
final class MeasuresCache: @unchecked Sendable {
    /// The cache the reading in progress uses (`SketchReader.read` binds it); nil: measure.
    @TaskLocal static var current: MeasuresCache?

    private let lock = NSLock()
    private var parameters: ReaderParameters?
    /// Values used by the reading in progress, and those of the reading before.
    private struct Generations<Entry: Hashable, Value> {
        var used: [Entry: Value] = [:]
        var before: [Entry: Value] = [:]

        var count: Int { used.count + before.count }

        /// The value of `entry` used now or by the reading before (then carried over), or nil.
        mutating func value(of entry: Entry) -> Value? {
            if let known = used[entry] { return known }
            guard let known = before[entry] else { return nil }
            used[entry] = known
            return known
        }

        /// The reading before is forgotten; this one's values become the reading before.
        mutating func advance() {
            before = used
            used = Dictionary(minimumCapacity: before.count)
        }
    }

    /// The drawings' measures, and the roundness alone (`DrawingMeasures.roundness`) of runs of
    /// strokes, which the states stage asks of arcs that may form one circle.
    private var drawings = Generations<Key, DrawingMeasures>()
    private var runs = Generations<[Key], DrawingMeasures.Roundness>()

    /// Points as a key: equal when their bytes are (so 0 and -0, whose measures can differ
    /// by their angles, are two keys); hashed by their count and the bytes of about eight
    /// points spread over them (hashing every point cost more than a collision's comparison).
    struct Key: Hashable {
        let points: [SketchPoint]
        /// Where each stroke after the first starts (a drawing of several strokes).
        let breaks: [Int]
        /// The hash of the points, worked out once: a key is looked up in several tables.
        private let digest: Int

        init(points: [SketchPoint], breaks: [Int] = []) {
            self.points = points
            self.breaks = breaks
            // The bits of about eight points spread over them, mixed FNV-1a style (`Hasher`
            // mixes the digest in `hash(into:)`; a collision costs one comparison).
            var digest = UInt64(truncatingIfNeeded: points.count) &* 0x100_0000_01b3
            let step = max(1, points.count / 8)
            for index in stride(from: points.count - 1, through: 0, by: -step) {
                digest = (digest ^ points[index].x.bitPattern) &* 0x100_0000_01b3
                digest = (digest ^ points[index].y.bitPattern) &* 0x100_0000_01b3
            }
            self.digest = Int(truncatingIfNeeded: digest)
        }

        static func == (a: Key, b: Key) -> Bool {
            a.digest == b.digest && a.breaks == b.breaks && a.points.count == b.points.count && a.points.withUnsafeBytes { first in
                b.points.withUnsafeBytes { second in
                    // The same storage (a stroke's points, shared by copies of the ink) is equal.
                    first.isEmpty || first.baseAddress == second.baseAddress
                        || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0
                }
            }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(digest)
        }
    }

    /// Entries a reading that kept the shape stage may add before a partial reading drops the unused ones.
    static let partialGrowth = 512

    /// Entries held (for tests).
    var count: Int { lock.withLock { drawings.count + runs.count } }

    /// Starts a reading with `parameters` in effect: measures taken with others are dropped.
    func startReading(with parameters: ReaderParameters) {
        lock.withLock {
            if self.parameters != parameters {
                drawings = Generations()
                runs = Generations()
                self.parameters = parameters
            }
        }
    }

    /// Ends a reading: what it did not use is dropped. A reading that kept the last one's
    /// shape stage (`SketchReader.ShapeStage`) did not measure the shapes' drawings again:
    /// `partial` keeps what it did not use for the next reading, unless the entries have grown
    /// past four times the last full reading's (at least `partialGrowth`).
    func finishReading(partial: Bool = false) {
        lock.withLock {
            let used = drawings.used.count + runs.used.count, before = drawings.before.count + runs.before.count
            if partial && used <= 4 * max(before, Self.partialGrowth) { return }
            drawings.advance()
            runs.advance()
        }
    }

    func measures(of points: [SketchPoint], breaks: [Int] = []) -> DrawingMeasures {
        let points = Key(points: points, breaks: breaks)
        if let known = lock.withLock({ drawings.value(of: points) }) { return known }
        // Measured outside the lock; another reading may store the same measures meanwhile.
        let measured = DrawingMeasures(measuring: points.points, breaks: points.breaks)
        lock.withLock { drawings.used[points] = measured }
        return measured
    }

    /// The roundness of a drawing's strokes (`DrawingMeasures.roundness`), `measure`d when
    /// this cache has none (keyed by the strokes, each as `Key`, so runs of strokes are never joined
    /// to be looked up).
    func roundness(of strokes: [[SketchPoint]], _ measure: () -> DrawingMeasures.Roundness) -> DrawingMeasures.Roundness {
        let key = strokes.map { Key(points: $0) }
        if let known = lock.withLock({ runs.value(of: key) }) { return known }
        let measured = measure()
        lock.withLock { runs.used[key] = measured }
        return measured
    }
}
