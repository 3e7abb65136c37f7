import Foundation
import StrokeImage

/// Ideal paths (before the pen model) of the three shape classes.
extension StrokeSynthesizer {
    /// An ellipse drawn once around from a random start, with overshoot or gap at the close.
    /// The end often drifts inward or outward, as the small hook where real circles close.
    /// `spread` grows (or shrinks) the radius steadily along the stroke, so that a second turn
    /// runs beside the first instead of on it.
    mutating func circlePath(
        center: SIMD2<Double>, radii: SIMD2<Double>, tilt: Double, overshoot: ClosedRange<Double>,
        spread: Double = 0, startAnywhere: Double = 0.35, deepHook: Double = 0
    ) -> [SIMD2<Double>] {
        // Most of the dataset's circles start near the top; the rest anywhere.
        let worldStart = chance(1 - startAnywhere) ? -Double.pi / 2 + uniform(-0.7...0.7) : uniform(0...(2 * .pi))
        let start = worldStart - tilt
        let direction: Double = chance(0.5) ? 1 : -1
        let sweep = 2 * Double.pi * (1 + uniform(overshoot))
        // `deepHook` of the time the end curls well inside, as people close a circle in a hurry (no
        // draw from the generator when zero, so editor circles stay as they were).
        let endDrift = deepHook > 0 && chance(deepHook) ? uniform(0.22...0.4) : chance(0.5) ? uniform(0.04...0.22) : uniform(-0.05...0.05)
        let startDrift = uniform(-0.04...0.04)
        // A slightly egg-shaped, not perfectly elliptical, outline.
        let lumpPhase = uniform(0...(2 * .pi)), lump = uniform(0...0.05)
        let count = sweep > 2.5 * .pi ? Int(160 * sweep / (2 * .pi)) : 160  // keep a second turn as dense
        return (0...count).map { step in
            let t = Double(step) / Double(count)
            let theta = start + direction * sweep * t
            let radial = 1 + spread * (t - 0.5) - endDrift * smoothstep((t - 0.85) / 0.15) + startDrift * (1 - smoothstep(t / 0.08))
                + lump * sin(2 * theta + lumpPhase)
            let local = SIMD2(radii.x * cos(theta), radii.y * sin(theta)) * radial
            return center + rotated(local, by: tilt)
        }
    }

    /// A free-standing circle closed the ways people close one: ends that meet, overlap or leave
    /// a gap, now and then a second turn beside the first; round or elliptical, tilted mostly
    /// as the dataset's, started anywhere, in either direction.
    mutating func handDrawnCircle(center: SIMD2<Double>, size: Double) -> Stroke {
        let ratio = chance(0.85) ? uniform(style.ellipseRatio) : uniform(0.45...style.ellipseRatio.lowerBound)
        let radii = SIMD2(size / 2, size / 2 * ratio)
        let closure = generator.nextUnit()
        var spread = 0.0
        let overshoot: ClosedRange<Double>
        if closure < 0.55 {
            overshoot = style.overshoot
        } else if closure < 0.75 {
            overshoot = 0.12...0.3  // the end runs on past the start
        } else if closure < 0.9 {
            overshoot = -0.08...(-0.03)  // a gap
        } else {
            overshoot = 0.7...1.1  // a second turn, beside the first
            spread = uniform(0.04...0.15) * (chance(0.5) ? 1 : -1)
        }
        // Other devices' circles lean any way more often than the dataset's.
        let tilt = chance(0.7) ? circleTilt() : uniform(0...(2 * .pi))
        let path = circlePath(center: center, radii: radii, tilt: tilt, overshoot: overshoot,
                              spread: spread, startAnywhere: 0.5, deepHook: 0.1)
        return draw(path, size: size, startTime: 0)
    }

    /// A shaft from `start` to `tip` (a quadratic curve when `bend` is not zero), then the head.
    mutating func arrowPath(
        from start: SIMD2<Double>, to tip: SIMD2<Double>, bend: Double, head: ArrowHead,
        maximumHeadLength: Double = .infinity
    ) -> [SIMD2<Double>] {
        let length = distance(start, tip)
        let along = normalized(tip - start)
        let left = SIMD2(along.y, -along.x)  // left of the travel direction on screen (y down)
        // A quadratic Bezier's sagitta is half its control point's offset.
        let control = (start + tip) / 2 + left * (2 * bend * length)
        let count = 60
        var path = (0...count).map { step -> SIMD2<Double> in
            let t = Double(step) / Double(count)
            return (1 - t) * (1 - t) * start + 2 * (1 - t) * t * control + t * t * tip
        }
        let drawsHead: Bool
        switch head {
        case .none: drawsHead = false
        case .open: drawsHead = true
        case .random: drawsHead = chance(0.8)
        }
        if drawsHead {
            let headLength = min(max(length * uniform(0.15...0.3), min(6, length / 3)), maximumHeadLength)
            path += headPoints(tip: tip, direction: normalized(tip - control), length: headLength)
        }
        return path
    }

    /// The points after the tip of an arrowhead drawn without lifting the pen, pointing along
    /// `direction`.
    mutating func headPoints(tip: SIMD2<Double>, direction: SIMD2<Double>, length: Double) -> [SIMD2<Double>] {
        let side: Double = chance(0.5) ? 1 : -1
        let first = tip - rotated(direction, by: side * uniform(0.25...0.5)) * length * uniform(0.8...1.2)
        let second = tip - rotated(direction, by: -side * uniform(0.25...0.5)) * length * uniform(0.8...1.2)
        let returned = tip + SIMD2(normal(), normal()) * length * 0.06
        let variant = generator.nextUnit()
        if variant < 0.7 {
            return [first, returned, second]  // tip -> barb -> tip -> barb
        } else if variant < 0.82 {
            return [first]  // a half head
        } else {
            return [first, second, returned]  // a closed triangle
        }
    }

    /// A self-loop's outline in its own frame: x along the rim, y outward from the state.
    struct LoopShape {
        /// Half the width of the loop's widest part.
        var halfWidth: Double
        /// How far the loop reaches out from the rim.
        var height: Double
        /// The angle the loop turns through, in radians (2 pi would close it).
        var span: Double
        /// Drawn the other way round.
        var mirrored: Bool
        /// The arrowhead's barb length; zero for none.
        var headLength: Double
    }

    /// A loop on an elliptical arc whose two ends rest on the line y = 0 of the frame at
    /// `origin`, bulging along `outward`, with the head pointing back along the end tangent.
    mutating func loopPath(_ loop: LoopShape, origin: SIMD2<Double>, outward: SIMD2<Double>) -> [SIMD2<Double>] {
        // An ellipse with centre (0, k) and radii (a, b): the ends at angle -pi/2 +- gap/2 lie on
        // y = 0 when k = b cos(gap/2); the top is at k + b = height.
        let gap = 2 * Double.pi - loop.span
        let b = loop.height / (1 + cos(gap / 2))
        let k = b * cos(gap / 2)
        let a = loop.halfWidth
        let tangent = SIMD2(-outward.y, outward.x)
        let sign: Double = loop.mirrored ? -1 : 1
        let lean = uniform(-0.25...0.25)  // the loop leans to one side, as a hand-drawn curl does
        func frame(_ p: SIMD2<Double>) -> SIMD2<Double> {
            origin + tangent * (sign * (p.x + lean * p.y)) + outward * p.y
        }
        let first = -Double.pi / 2 + gap / 2
        // Ends that cross or stop short, as in the dataset's curls.
        let crossing = uniform(-0.15...0.3) * a
        let count = 120
        var path = (0...count).map { step -> SIMD2<Double> in
            let t = Double(step) / Double(count)
            let theta = first + loop.span * t
            let shift = crossing * (1 - smoothstep(t / 0.2)) - crossing * smoothstep((t - 0.8) / 0.2)
            return frame(SIMD2(a * cos(theta) + shift, k + b * sin(theta)))
        }
        if loop.headLength > 0 {
            let end = path[count], before = path[count - 6]
            path += headPoints(tip: end, direction: normalized(end - before), length: loop.headLength)
        }
        return path
    }
}

// MARK: - Free-standing self-loops, in a frame about [-1, 1] x [-1, 1], y down

extension StrokeSynthesizer {
    /// A round self-loop as the dataset draws it: an elliptical arc that starts low on one side
    /// and goes over the top and down the other side (less than a full turn, so it never closes
    /// into a circle), then hooks inward and ends inside itself with a large arrowhead pointing
    /// into the loop, like a "G". Mostly clockwise on screen, its long axis leaning up to the right.
    mutating func curlPath() -> [SIMD2<Double>] {
        let ratio = uniform(0.5...0.95)
        func outline(_ theta: Double, _ radius: Double) -> SIMD2<Double> {
            SIMD2(cos(theta), ratio * sin(theta)) * radius
        }
        // Angles on screen (pi/2 is straight down), so the lean below does not move the hook: the
        // arc starts below and left of the centre and the hook comes in from the right or below.
        // Negative tilts turn counter-clockwise on screen: the long axis leans up to the right.
        let tilt = chance(0.95) ? uniform(-0.8...0.1) : uniform(0...(2 * .pi))
        let start = uniform(0.45...0.85) * .pi - tilt
        let span = uniform(4.4...5.3)
        // The pen often starts a little outside the outline.
        let startRadius = uniform(0.95...1.15)
        let count = 100
        var path = (0...count).map { step -> SIMD2<Double> in
            let t = Double(step) / Double(count)
            return outline(start + span * t, 1 + (startRadius - 1) * (1 - smoothstep(t / 0.2)))
        }
        // The hook: a quadratic curve from the arc's end, rounding the turn, to a tip well inside.
        let end = start + span
        let arcEnd = path[count]
        let control = outline(end + uniform(0.2...0.45), uniform(0.8...0.95))
        let tip = outline(end + uniform(0.5...1.3), uniform(0.05...0.45))
        let hookCount = 30
        for step in 1...hookCount {
            let t = Double(step) / Double(hookCount)
            path.append((1 - t) * (1 - t) * arcEnd + 2 * (1 - t) * t * control + t * t * tip)
        }
        path += headPoints(tip: tip, direction: normalized(tip - control), length: uniform(0.5...0.8))
        let mirror: Double = chance(0.25) ? -1 : 1
        return path.map { point in
            let turned = rotated(point, by: tilt)
            return SIMD2(mirror * turned.x, turned.y)
        }
    }

    /// A self-loop drawn as an arch over its state, about half to nine tenths as tall as wide,
    /// mostly left to right, ending in a large arrowhead pointing down.
    mutating func archPath() -> [SIMD2<Double>] {
        let loop = LoopShape(
            halfWidth: 1, height: uniform(1.0...1.8), span: uniform(2.9...4.0), mirrored: chance(0.7),
            headLength: uniform(0.4...0.7))
        let rotation = chance(0.95) ? uniform(-0.3...0.3) : uniform(0...(2 * .pi))
        return loopPath(loop, origin: .zero, outward: SIMD2(sin(rotation), -cos(rotation)))
    }

    /// `ideal` scaled so that the longer side of its bounding box is `size`, centred on `center`.
    func placed(_ ideal: [SIMD2<Double>], center: SIMD2<Double>, size: Double) -> [SIMD2<Double>] {
        var low = ideal.first ?? .zero, high = low
        for point in ideal {
            low = pointwiseMin(low, point)
            high = pointwiseMax(high, point)
        }
        let extent = max(high.x - low.x, high.y - low.y, 1e-9)
        return ideal.map { center + ($0 - (low + high) / 2) * (size / extent) }
    }
}

/// 0 below 0, 1 above 1, a smooth cubic ramp between.
func smoothstep(_ x: Double) -> Double {
    let t = min(max(x, 0), 1)
    return t * t * (3 - 2 * t)
}
