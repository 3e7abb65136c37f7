import Foundation
import StrokeImage
import StrokeSupport

/// A generator of human-like pen strokes: the three shape classes (arrow, circle, cycle) for
/// training data and scripted automaton sketches, and many kinds of other drawings (letters,
/// digits, stars, spirals, scribbles, ...) as negatives for the reject option.
///
/// Every stroke is an ideal path passed through a pen model (see `StrokeSynthesizer+Pen.swift`):
/// a smooth low-frequency wobble, a pen speed that slows at corners and at both ends, samples
/// taken at a fixed device rate (so spacing follows the speed), small tremor, and timestamps in
/// milliseconds. Geometry is in screen coordinates (y grows down). The same seed and style give
/// identical strokes.
public struct StrokeSynthesizer {
    /// How the simulated hand draws. Lengths marked "fraction" are relative to the drawing's size.
    public struct Style: Sendable {
        /// Amplitude of the slow wobble that bends ideal lines, as a fraction of the size.
        public var jitter: Double
        /// Standard deviation of the per-sample tremor, in device units.
        public var tremor: Double
        /// Typical distance between samples at full pen speed, in device units, for a drawing of
        /// size 150 (larger drawings are drawn a little faster, so spacing grows slowly with size).
        public var sampleSpacing: ClosedRange<Double>
        /// Device sampling rate in Hz (a finger on glass is ~60 Hz, a pencil up to 240 Hz).
        public var sampleRate: ClosedRange<Double>
        /// Relative amplitude of slow speed changes along a stroke (0 = steady hand).
        public var speedVariation: Double
        /// How far a circle's end passes its start, in turns: negative leaves a gap.
        public var overshoot: ClosedRange<Double>
        /// Minor-to-major axis ratio of free-standing circles (1 = round; an editor's states stay
        /// rounder). The default gives ink boxes as tall as the dataset's circles: median height
        /// to width 0.86, a tenth below 0.71.
        public var ellipseRatio: ClosedRange<Double>
        /// Size (the longer side of the drawing) of free-standing shapes, in device units.
        public var size: ClosedRange<Double>
        /// Free-standing shapes are centred uniformly in `[0, canvas] x [0, canvas]`.
        public var canvas: Double

        public init(
            jitter: Double = 0.013, tremor: Double = 0.35, sampleSpacing: ClosedRange<Double> = 2.5...5.5,
            sampleRate: ClosedRange<Double> = 60...240, speedVariation: Double = 0.25,
            overshoot: ClosedRange<Double> = -0.05...0.12, ellipseRatio: ClosedRange<Double> = 0.62...0.97,
            size: ClosedRange<Double> = 40...400, canvas: Double = 1000
        ) {
            self.jitter = jitter
            self.tremor = tremor
            self.sampleSpacing = sampleSpacing
            self.sampleRate = sampleRate
            self.speedVariation = speedVariation
            self.overshoot = overshoot
            self.ellipseRatio = ellipseRatio
            self.size = size
            self.canvas = canvas
        }

        /// A careful but natural hand, tuned by eye against the automata-shapes drawings.
        public static let `default` = Style()
    }

    /// How an arrow ends.
    public enum ArrowHead: Sendable, Hashable {
        /// A bare line (transitions are often drawn without a head).
        case none
        /// Barbs drawn in the same stroke without lifting the pen (tip, barb, tip, barb; or one
        /// barb; or a closed triangle).
        case open
        /// An open head four times in five, otherwise a bare line.
        case random
    }

    /// The classes the shape classifier knows.
    public enum ShapeKind: String, CaseIterable, Sendable {
        case arrow, circle, cycle
    }

    public let style: Style
    var generator: SeededGenerator

    /// A synthesizer whose output depends only on `seed` and `style`.
    public init(seed: UInt64, style: Style = .default) {
        precondition(style.sampleRate.lowerBound > 0, "Style.sampleRate must be positive, got \(style.sampleRate)")
        precondition(style.sampleSpacing.lowerBound > 0, "Style.sampleSpacing must be positive, got \(style.sampleSpacing)")
        precondition(style.size.lowerBound > 0, "Style.size must be positive, got \(style.size)")
        precondition(style.ellipseRatio.lowerBound > 0, "Style.ellipseRatio must be positive, got \(style.ellipseRatio)")
        self.style = style
        self.generator = SeededGenerator(seed: seed)
    }

    // MARK: - Shapes placed by an editor, for scripted sketches

    /// A state: one stroke once around `center` at mean distance `radius`, slightly elliptical
    /// (mostly wide), any start angle and direction, with a small gap or overshoot where it closes.
    public mutating func circle(center: SIMD2<Double>, radius: Double) -> Stroke {
        let ratio = uniform(max(0.85, style.ellipseRatio.lowerBound)...1)
        let major = radius * 2 / (1 + ratio)
        // An editor's state is drawn with care: the close overshoots or gaps by little.
        let overshoot = max(style.overshoot.lowerBound, -0.04)...min(style.overshoot.upperBound, 0.07)
        let path = circlePath(
            center: center, radii: SIMD2(major, major * ratio), tilt: circleTilt(), overshoot: overshoot)
        return draw(path, size: 2 * radius, startTime: 0)
    }

    /// A transition from `start` to `tip`. `bend` curves the shaft: the arc's sagitta as a
    /// fraction of the length, positive bulging to the left of the travel direction on screen.
    public mutating func arrow(
        from start: SIMD2<Double>, to tip: SIMD2<Double>, head: ArrowHead = .random, bend: Double = 0
    ) -> Stroke {
        let length = distance(start, tip)
        // Heads of long transitions stay hand-sized instead of growing with the shaft.
        let path = arrowPath(from: start, to: tip, bend: bend, head: head, maximumHeadLength: uniform(20...35))
        return draw(path, size: max(length, 1), startTime: 0)
    }

    /// A self-loop on the state at `stateCenter`: a loop whose ends sit on the rim around
    /// direction `angle` (radians, screen coordinates: 0 is right, pi/2 is down) and that bulges
    /// outward, ending in an arrowhead pointing back at the rim.
    public mutating func selfLoop(stateCenter: SIMD2<Double>, stateRadius: Double, angle: Double) -> Stroke {
        let outward = SIMD2(cos(angle), sin(angle))
        let attachment = stateCenter + stateRadius * outward
        let loop = LoopShape(
            halfWidth: stateRadius * uniform(0.3...0.55), height: stateRadius * uniform(0.7...1.3),
            span: uniform(4.2...5.6), mirrored: chance(0.5),
            headLength: chance(0.9) ? stateRadius * uniform(0.2...0.3) : 0)
        let path = loopPath(loop, origin: attachment, outward: outward)
        return draw(path, size: 2 * stateRadius, startTime: 0)
    }

    /// `strokes` retimed to follow one another, each starting 80-400 ms after the previous one
    /// ended (editor shapes each start at time 0).
    public mutating func inSequence(_ strokes: [Stroke]) -> [Stroke] {
        var clock = 0.0
        return strokes.map { stroke in
            let start = stroke.points.first?.time ?? 0
            var shifted = stroke
            for index in shifted.points.indices {
                shifted.points[index].time = clock + ((shifted.points[index].time ?? start) - start)
            }
            clock = (shifted.points.last?.time ?? clock) + uniform(80...400)
            return shifted
        }
    }

    // MARK: - Free-standing shapes, for training data

    /// A random drawing of `kind`, with size, position, rotation and hand varying as they do in
    /// the automata-shapes dataset and in real strokes from other devices. Circles and self-loops
    /// are one stroke; an arrow's head may be one or two more (see `handDrawnArrow`).
    public mutating func shape(_ kind: ShapeKind) -> [Stroke] {
        let size = randomSize()
        let center = randomCenter()
        switch kind {
        case .circle:
            return [handDrawnCircle(center: center, size: size)]
        case .arrow:
            return handDrawnArrow(center: center, size: size)
        case .cycle:
            // Two families in the dataset: a round curl that ends inside itself (two in three),
            // and a wide arch over the state.
            let ideal = chance(0.35) ? archPath() : curlPath()
            return [draw(placed(ideal, center: center, size: size), size: size, startTime: 0)]
        }
    }

    /// The tilt of a circle's major axis: the dataset's circles are mostly wide, their major
    /// axis within about 30 degrees of horizontal; a few are drawn tall or at any angle.
    mutating func circleTilt() -> Double {
        chance(0.9) ? uniform(-0.5...0.3) : uniform(0...(2 * .pi))
    }

    // MARK: - Randomness (own helpers, so output does not depend on the standard library's algorithms)

    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * generator.nextUnit()
    }

    mutating func chance(_ probability: Double) -> Bool {
        generator.nextUnit() < probability
    }

    mutating func normal() -> Double {
        generator.nextNormal()
    }

    mutating func index(below count: Int) -> Int {
        precondition(count > 0, "index(below:) needs a positive count")
        return min(Int(generator.nextUnit() * Double(count)), count - 1)
    }

    /// Log-uniform in `style.size`: small and large drawings are equally common per octave.
    mutating func randomSize() -> Double {
        let lower = log(style.size.lowerBound), upper = log(style.size.upperBound)
        return exp(uniform(lower...upper))
    }

    mutating func randomCenter() -> SIMD2<Double> {
        SIMD2(uniform(0...style.canvas), uniform(0...style.canvas))
    }
}

// MARK: - Vector helpers

func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
    let d = a - b
    return (d * d).sum().squareRoot()
}

func length(_ v: SIMD2<Double>) -> Double {
    (v * v).sum().squareRoot()
}

func normalized(_ v: SIMD2<Double>) -> SIMD2<Double> {
    let l = length(v)
    return l > 0 ? v / l : SIMD2(1, 0)
}

/// `v` rotated by `angle` radians (counter-clockwise in y-up axes, clockwise on screen).
func rotated(_ v: SIMD2<Double>, by angle: Double) -> SIMD2<Double> {
    let c = cos(angle), s = sin(angle)
    return SIMD2(c * v.x - s * v.y, s * v.x + c * v.y)
}
