import AutomataSketch
import Foundation
import StrokeImage
import StrokeTensor
import StrokeSupport

/// Jittered strokes in the way students draw: circles that overshoot their start, wobble and
/// lean; second circles off-centre; arrows starting inside or outside a rim, stopping short
/// or overshooting, slightly curved, with lopsided heads drawn in the same stroke; curved
/// back edges; loops on the rim. Deterministic for a seed.
struct MessyPen {
    var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * random.nextUnit()
    }

    mutating func noise(_ size: Double) -> SketchPoint {
        SketchPoint(random.nextNormal(), random.nextNormal()) * size
    }

    /// A wobbly, slightly elliptic circle that goes round 1.0–1.15 times in either direction.
    mutating func circle(_ center: SketchPoint, _ radius: Double) -> Stroke {
        let start = uniform(0...(2 * Double.pi))
        let direction: Double = random.nextUnit() < 0.5 ? 1 : -1
        let turns = uniform(1.0...1.15)
        let stretch = SketchPoint(uniform(0.9...1.1), uniform(0.9...1.1))
        let wobblePhase = uniform(0...(2 * Double.pi))
        let wobble = uniform(0...0.08)
        let count = Int(uniform(24...48))
        var points: [SketchPoint] = []
        for index in 0...count {
            let t = Double(index) / Double(count)
            let angle = start + direction * 2 * Double.pi * turns * t
            let r = radius * (1 + wobble * sin(2 * angle + wobblePhase))
            points.append(center + SketchPoint(cos(angle), sin(angle)) * stretch * r + noise(radius * 0.015))
        }
        return stroke(points)
    }

    /// The second circle of a final state: off-centre by up to 0.15 R, 1.15–1.35 R across.
    mutating func finalCircle(_ center: SketchPoint, _ radius: Double) -> Stroke {
        let angle = uniform(0...(2 * Double.pi))
        let offset = SketchPoint(cos(angle), sin(angle)) * radius * uniform(0...0.15)
        return circle(center + offset, radius * uniform(1.15...1.35))
    }

    /// An arrow from state `from` to state `to` (centres, common radius), bent by `bend`
    /// (fraction of the distance, signed; 0 is straight, ±0.3 a back edge).
    mutating func edge(from: SketchPoint, to: SketchPoint, radius: Double, bend: Double) -> Stroke {
        let chord = to - from
        let length = (chord * chord).sum().squareRoot()
        let normal = SketchPoint(-chord.y, chord.x) / length
        let control = (from + to) / 2 + normal * length * (bend + uniform(-0.05...0.05))
        func unit(_ v: SketchPoint) -> SketchPoint { v / (v * v).sum().squareRoot() }
        // Starts inside or just outside the source rim; ends short of or past the target rim.
        let start = from + unit(control - from) * radius * uniform(0.6...1.25)
        let end = to + unit(control - to) * radius * uniform(0.8...1.5)
        return arrow(start: start, control: control, end: end)
    }

    /// An initial arrow from empty space into the state, from the given direction.
    mutating func initialArrow(into state: SketchPoint, radius: Double, from direction: SketchPoint) -> Stroke {
        let start = state + direction * radius * uniform(2.2...3.2) + noise(radius * 0.1)
        let end = state + direction * radius * uniform(0.85...1.4)
        return arrow(start: start, control: (start + end) / 2 + noise(radius * 0.1), end: end)
    }

    /// A quadratic curve with a lopsided head drawn in the same stroke.
    mutating func arrow(start: SketchPoint, control: SketchPoint, end: SketchPoint) -> Stroke {
        let count = Int(uniform(12...30))
        let size = ((end - start) * (end - start)).sum().squareRoot()
        var points = (0...count).map { index -> SketchPoint in
            let t = Double(index) / Double(count)
            let curve = (1 - t) * (1 - t) * start + 2 * (1 - t) * t * control + t * t * end
            return curve + noise(size * 0.006)
        }
        let tangent = end - control
        let back = -tangent / (tangent * tangent).sum().squareRoot()
        func rotated(_ v: SketchPoint, _ angle: Double) -> SketchPoint {
            SketchPoint(v.x * cos(angle) - v.y * sin(angle), v.x * sin(angle) + v.y * cos(angle))
        }
        let barb1 = end + rotated(back, uniform(0.35...0.7)) * size * uniform(0.08...0.2)
        let barb2 = end + rotated(back, -uniform(0.35...0.7)) * size * uniform(0.08...0.2)
        switch random.next() % 3 {
        case 0: points += [barb1, end, barb2]  // tip, one barb, back, the other
        case 1: points += [barb1, barb2, end]  // a closed triangle head
        default: points += [barb1]  // a lazy single barb
        }
        return stroke(points.map { $0 + noise(size * 0.004) })
    }

    /// A self-loop on the rim at `angle`, starting and ending near the rim.
    mutating func loop(_ state: SketchPoint, _ radius: Double, angle: Double) -> Stroke {
        let angle = angle + uniform(-0.3...0.3)
        let loopRadius = radius * uniform(0.4...0.6)
        let loopCenter = state + SketchPoint(cos(angle), sin(angle)) * (radius + loopRadius * uniform(0.5...0.9))
        let gap = uniform(0.4...0.9)
        let count = Int(uniform(20...36))
        let points = (0...count).map { index -> SketchPoint in
            let theta = angle + Double.pi + gap + (2 * Double.pi - 2 * gap) * Double(index) / Double(count)
            return loopCenter + SketchPoint(cos(theta), sin(theta)) * loopRadius + noise(radius * 0.02)
        }
        return stroke(points)
    }

    private func stroke(_ points: [SketchPoint]) -> Stroke {
        Stroke(points.map { ($0.x, $0.y) })
    }
}
