#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plane geometry on sketch points: the few measurements the stroke rules need.
enum Geometry {
    static func distance(_ a: SketchPoint, _ b: SketchPoint) -> Double {
        let d = a - b
        return (d * d).sum().squareRoot()
    }

    /// The mean of the points (the centre of a drawn circle).
    static func centroid(_ points: [SketchPoint]) -> SketchPoint {
        precondition(!points.isEmpty, "centroid of no points")
        return points.reduce(SketchPoint.zero, +) / Double(points.count)
    }

    /// The mean distance of the points from `center` (the radius of a drawn circle).
    static func meanDistance(_ points: [SketchPoint], from center: SketchPoint) -> Double {
        precondition(!points.isEmpty, "mean distance of no points")
        return points.reduce(0) { $0 + distance($1, center) } / Double(points.count)
    }

    /// Distance from `point` to the segment `a`–`b`.
    static func distance(_ point: SketchPoint, toSegment a: SketchPoint, _ b: SketchPoint) -> Double {
        let ab = b - a
        let lengthSquared = (ab * ab).sum()
        guard lengthSquared > 0 else { return distance(point, a) }
        let t = max(0, min(1, ((point - a) * ab).sum() / lengthSquared))
        return distance(point, a + t * ab)
    }

    /// Distance from `point` to the polyline through `points` (a single point counts as one).
    static func distance(_ point: SketchPoint, toPolyline points: [SketchPoint]) -> Double {
        guard let first = points.first else { return .infinity }
        guard points.count > 1 else { return distance(point, first) }
        var best = Double.infinity
        for index in 1..<points.count {
            best = min(best, distance(point, toSegment: points[index - 1], points[index]))
        }
        return best
    }

    /// True when segments `a1`–`a2` and `b1`–`b2` cross or touch.
    static func segmentsIntersect(
        _ a1: SketchPoint, _ a2: SketchPoint, _ b1: SketchPoint, _ b2: SketchPoint
    ) -> Bool {
        func cross(_ o: SketchPoint, _ p: SketchPoint, _ q: SketchPoint) -> Double {
            (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x)
        }
        let d1 = cross(b1, b2, a1), d2 = cross(b1, b2, a2)
        let d3 = cross(a1, a2, b1), d4 = cross(a1, a2, b2)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
            return true
        }
        // Collinear or touching cases: an endpoint on the other segment.
        return distance(a1, toSegment: b1, b2) == 0 || distance(a2, toSegment: b1, b2) == 0
            || distance(b1, toSegment: a1, a2) == 0 || distance(b2, toSegment: a1, a2) == 0
    }

    /// The smallest distance between two polylines (0 when they cross).
    static func distance(betweenPolylines first: [SketchPoint], _ second: [SketchPoint]) -> Double {
        guard !first.isEmpty, !second.isEmpty else { return .infinity }
        if first.count > 1 && second.count > 1 {
            for i in 1..<first.count {
                for j in 1..<second.count
                where segmentsIntersect(first[i - 1], first[i], second[j - 1], second[j]) {
                    return 0
                }
            }
        }
        var best = Double.infinity
        for point in first { best = min(best, distance(point, toPolyline: second)) }
        for point in second { best = min(best, distance(point, toPolyline: first)) }
        return best
    }

    /// How many times the polyline winds around `center`, in turns (signed sum of the
    /// angles between consecutive points, divided by 2π). A circle drawn once gives about
    /// ±1, a double circle drawn in one stroke about ±2.
    static func windingTurns(_ points: [SketchPoint], around center: SketchPoint) -> Double {
        guard points.count > 1 else { return 0 }
        var total = 0.0
        var previous = atan2(points[0].y - center.y, points[0].x - center.x)
        for point in points.dropFirst() {
            let angle = atan2(point.y - center.y, point.x - center.x)
            var step = angle - previous
            if step > Double.pi { step -= 2 * Double.pi }
            if step < -Double.pi { step += 2 * Double.pi }
            total += step
            previous = angle
        }
        return total / (2 * Double.pi)
    }
}

extension Geometry {
    /// The length of the polyline through `points`.
    static func pathLength<Points: Collection>(_ points: Points) -> Double where Points.Element == SketchPoint {
        var total = 0.0
        var previous: SketchPoint?
        for point in points {
            if let previous { total += distance(previous, point) }
            previous = point
        }
        return total
    }

    /// Points every `step` along the polyline (the first and last points kept).
    static func resampled(_ points: [SketchPoint], step: Double) -> [SketchPoint] {
        guard let first = points.first, step > 0 else { return points }
        var result = [first]
        var carried = 0.0
        for index in points.indices.dropFirst() {
            let a = points[index - 1], b = points[index]
            let length = distance(a, b)
            var position = step - carried
            while position <= length {
                result.append(a + (b - a) * (position / length))
                position += step
            }
            carried = length - (position - step)
        }
        // The last point closes the path; a stub shorter than half a step replaces the last
        // sample instead, so it cannot add a spurious turn.
        if let last = points.last, result.last != last {
            if result.count > 1, distance(result[result.count - 1], last) < step / 2 { result.removeLast() }
            result.append(last)
        }
        return result
    }
}

// MARK: - Along a stroke: by path length, never by point count
//
// A pen slows down at the ends of a stroke and bunches its points there, and devices sample
// at different rates: "the last quarter" or "a fifth of the way in" measured in points moves
// with the pen's speed and sampling rate. These measure along the path.

extension Geometry {
    /// The path length from the first point to each point (0 for the first).
    static func arcLengths(_ points: [SketchPoint]) -> [Double] {
        var lengths = [Double](repeating: 0, count: points.count)
        for index in points.indices.dropFirst() {
            lengths[index] = lengths[index - 1] + distance(points[index - 1], points[index])
        }
        return lengths
    }

    /// The indices of the points lying between the fractions `range` of the polyline's path
    /// length (`0.75...1`: its last quarter). Never empty for a non-empty polyline: when no
    /// point falls inside, the one nearest to the range's middle.
    static func portion(_ points: [SketchPoint], _ range: ClosedRange<Double>) -> Range<Int> {
        guard !points.isEmpty else { return 0..<0 }
        let lengths = arcLengths(points)
        let total = lengths[lengths.count - 1]
        guard total > 0 else { return 0..<points.count }
        let low = range.lowerBound * total, high = range.upperBound * total
        let first = lengths.firstIndex { $0 >= low } ?? points.count - 1
        let last = lengths.lastIndex { $0 <= high } ?? 0
        if first <= last { return first..<(last + 1) }
        let middle = (low + high) / 2
        let nearest = lengths.indices.min { abs(lengths[$0] - middle) < abs(lengths[$1] - middle) }!
        return nearest..<(nearest + 1)
    }

    /// The last part of a stroke's path (`tuned.shapes.endPart`, a fifth), for `portion`.
    static var lastPart: ClosedRange<Double> { (1 - tuned.shapes.endPart)...1 }

    /// One end of a stroke and the point `endPart` (a fifth) of its path length in from that end: with
    /// the end they give the direction the stroke leaves or arrives in there (a curved arrow
    /// arrives at its state from the side, not along its chord).
    static func endDirection(_ points: [SketchPoint], atStart: Bool) -> (end: SketchPoint, inner: SketchPoint) {
        let inward = atStart ? points : points.reversed()
        let reach = pathLength(points) * tuned.shapes.endPart
        var walked = 0.0
        for index in inward.indices.dropFirst() {
            walked += distance(inward[index - 1], inward[index])
            if walked >= reach { return (inward[0], inward[index]) }
        }
        return (inward[0], inward[inward.count - 1])
    }

    /// The tip of an arrow: for a shaft whose head was drawn apart (`heads`: its points), the
    /// point of the shaft's last part (`lastPart`) nearest to the head (the shaft's end, unless the pen
    /// hooked on past the head); for one stroke, the point farthest from its start (an
    /// arrowhead drawn in the same stroke doubles back from the tip and does not move it).
    static func arrowTip(shaft: [SketchPoint], heads: [SketchPoint]) -> SketchPoint {
        guard let start = shaft.first else { return heads.first ?? .zero }
        guard !heads.isEmpty, shaft.count > 1 else { return shaft.max { distance($0, start) < distance($1, start) }! }
        return tip(ofLastPart: shaft[portion(shaft, lastPart)], heads: heads)
    }

    /// `arrowTip` of a shaft whose last part (`lastPart` of its path, not empty) is given, for
    /// a head drawn apart: the point of that part nearest to the head's centre.
    static func tip(ofLastPart part: ArraySlice<SketchPoint>, heads: [SketchPoint]) -> SketchPoint {
        let head = centroid(heads)
        return part.min { distance($0, head) < distance($1, head) }!
    }

    /// Where the shaft of a one-stroke arrow ends and its head begins (the shape measures split
    /// the stroke there; the tip it attaches by is `arrowTip`): the first point nearly as far from the start
    /// as the farthest one (`tipNearFarthest`).
    static func shaftEndIndex(_ points: [SketchPoint]) -> Int {
        guard let first = points.first else { return 0 }
        let distances = points.map { distance($0, first) }
        let farthest = distances.max()!
        return distances.firstIndex { $0 >= tuned.shapes.tipNearFarthest * farthest }!
    }

    /// The sketch's scale R from the radii of its states' circles (a final state's inner one):
    /// the median of those at least `scaleShare` of the second largest (a `0` or an `o` written
    /// in a label is round too, and one huge circle drawn round a state is no measure); nil for
    /// none. The one definition of R, for the reader (`StateSet.scale`) and a sketch's states.
    static func typicalRadius(_ radii: [Double]) -> Double? {
        let sorted = radii.sorted()
        guard !sorted.isEmpty else { return nil }
        let reference = sorted.count > 1 ? sorted[sorted.count - 2] : sorted[0]
        let measured = sorted.filter { $0 >= tuned.states.scaleShare * reference }
        return measured[measured.count / 2]
    }
}

extension Geometry {
    /// True when the circles share about one centre: their centres at most
    /// `tuned.states.concentricOffset` of the smallest radius apart, the largest radius
    /// at most `tuned.states.concentricRatio` times the smallest. The one test of two
    /// circles drawn round one centre (a final state), whether drawn in one drawing or apart.
    static func areConcentric(_ circles: [(center: SketchPoint, radius: Double)]) -> Bool {
        let radii = circles.map(\.radius)
        guard let small = radii.min(), let large = radii.max(), small > 0,
            large / small <= tuned.states.concentricRatio
        else { return false }
        return circles.allSatisfy {
            distance($0.center, circles[0].center) <= tuned.states.concentricOffset * small
        }
    }
}
