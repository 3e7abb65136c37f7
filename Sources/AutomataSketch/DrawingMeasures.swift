#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// Path length from the start to the tip (the shaft), and after the tip (the head), of
    /// the simplified stroke.
    let shaftLength: Double, headLength: Double
    /// Total absolute turning of the shaft in radians (0 straight, about π for a half circle).
    let shaftTurning: Double
    /// Centre (mean point) and mean radius of the drawing.
    let centroid: SketchPoint, meanRadius: Double
    /// Standard deviation of the points' distances from the centre, relative to `meanRadius`
    /// (about 0.05 for a drawn circle, 0.1–0.2 for an ellipse; more for anything else).
    let radialSpread: Double
    /// Turns around the centre (signed; about ±1 for a circle drawn once).
    let winding: Double
    /// Path length of the whole drawing (smoothed over a fifth of `meanRadius`).
    let pathLength: Double

    init(_ points: [SketchPoint]) {
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
        // The shaft is measured on its simplification at `shaftTolerance` of the chord: a
        // curve keeps its turning, but the pen's tremor (which can double the raw path length
        // and turning of a small drawing) counts for nothing.
        let tolerance = shapes.shaftTolerance * chord
        let shaft = Geometry.simplified(Array(points[...tipIndex]), tolerance: tolerance)
        shaftLength = Geometry.pathLength(shaft)
        shaftTurning = Geometry.turning(shaft)
        headLength = Geometry.pathLength(Geometry.simplified(Array(points[tipIndex...]), tolerance: tolerance))
        let center = Geometry.centroid(points)
        let radius = Geometry.meanDistance(points, from: center)
        let variance = points.reduce(0.0) {
            let deviation = Geometry.distance($1, center) - radius
            return $0 + deviation * deviation
        } / Double(points.count)
        centroid = center
        meanRadius = radius
        radialSpread = radius > 0 ? variance.squareRoot() / radius : .infinity
        winding = Geometry.windingTurns(points, around: center)
        // Measured on points every fifth of the radius, so tremor does not lengthen it.
        pathLength = radius > 0 ? Geometry.pathLength(Geometry.resampled(points, step: shapes.pathStep * radius)) : 0
    }

    /// True for a stroke that goes round once and stays at about one distance from its centre,
    /// or on one oval (see `isClosedOval`).
    var isClosedRound: Bool {
        tuned.shapes.roundWinding.contains(abs(winding))
            && (radialSpread <= tuned.shapes.roundSpread || isClosedOval)
    }

    /// True for a stroke that goes from its start to a tip far away without wandering: a
    /// straight or curved shaft, then at most a head near the tip.
    var isSimpleOpenStroke: Bool {
        chord > 0
            && Geometry.distance(last, start) >= tuned.shapes.openEnds * chord
            && shaftLength <= tuned.shapes.shaftStretch * chord
            && shaftTurning <= tuned.shapes.shaftTurning
            && headLength <= tuned.shapes.headLength * chord
            && points[shaftEndIndex...].allSatisfy { Geometry.distance($0, shaftEnd) <= tuned.shapes.headSpread * chord }
    }
}

extension DrawingMeasures {
    /// The principal axes of the points about their centroid: the unit direction of the long
    /// axis and the variances along the long and the short axis.
    private var principalAxes: (axis: SketchPoint, major: Double, minor: Double) {
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
    var ovalSpread: Double {
        let (axis, major, minor) = principalAxes
        guard minor > 0 else { return .infinity }
        let normal = SketchPoint(-axis.y, axis.x)
        let radii = points.map { point -> Double in
            let d = point - centroid
            let u = (d * axis).sum() / major.squareRoot(), v = (d * normal).sum() / minor.squareRoot()
            return (u * u + v * v).squareRoot()
        }
        let n = Double(radii.count)
        let mean = radii.reduce(0, +) / n
        let variance = radii.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / n
        return mean > 0 ? variance.squareRoot() / mean : .infinity
    }

    /// The short axis over the long axis of that ellipse (1 for a circle, 0 for a line).
    var aspect: Double {
        let (_, major, minor) = principalAxes
        return major > 0 ? (minor / major).squareRoot() : 0
    }

    /// True for a stroke that goes round once as a circle or an oval (a state drawn in one
    /// go, however flattened, down to `tuned.shapes.ovalAspect`).
    var isClosedOval: Bool {
        tuned.shapes.roundWinding.contains(abs(winding))
            && ovalSpread <= tuned.shapes.roundSpread && aspect >= tuned.shapes.ovalAspect
    }
}
