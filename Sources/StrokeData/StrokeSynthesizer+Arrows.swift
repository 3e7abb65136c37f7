import Foundation
import StrokeImage

/// Free-standing arrows drawn the ways people draw them on other devices (the real-strokes
/// benchmark's shaft-and-head arrows): heads of every size, big ones included; the head as a
/// second stroke (shaft, then barb-tip-barb) or in the same stroke, going back along a barb,
/// sometimes more than once; a "7"-shaped hook with one barb; open and closed heads; and bare
/// lines, which an editor also reads as transitions.
extension StrokeSynthesizer {
    /// How the head of a free-standing arrow is drawn.
    enum HeadStroke: CaseIterable {
        /// No head: a line or swipe.
        case bare
        /// A second stroke: barb, tip, barb (a chevron), after the shaft.
        case separateChevron
        /// Two more strokes, one per barb, each drawn into or out of the tip.
        case separateBarbs
        /// A separate closed triangle after the shaft.
        case separateTriangle
        /// Same stroke: tip, barb, back along it to the tip, other barb.
        case backAlongBarb
        /// Same stroke, going back along both barbs (ending at the tip again).
        case backAlongBothBarbs
        /// Same stroke: one barb only, a "7"-shaped hook.
        case hook
        /// Same stroke: a closed triangle.
        case closedTriangle
    }

    /// A random free-standing arrow of longer side about `size` centred on `center`: shaft
    /// first, then the head (in the same stroke or in one or two more strokes).
    mutating func handDrawnArrow(center: SIMD2<Double>, size: Double) -> [Stroke] {
        // Half of the dataset's arrows are drawn along an axis (left-right or up-down).
        let direction = chance(0.5)
            ? Double(index(below: 4)) * .pi / 2 + uniform(-0.12...0.12) : uniform(0...(2 * .pi))
        let half = size / 2 * SIMD2(cos(direction), sin(direction))
        let start = center - half, tip = center + half
        // Most arrows are straight; a few bow a little, and swipes (no head) more often.
        let style = headStroke()
        let bend = chance(style == .bare ? 0.5 : 0.75)
            ? uniform(-0.03...0.03) : uniform(0.03...0.12) * (chance(0.5) ? 1 : -1)
        let shaft = arrowPath(from: start, to: tip, bend: bend, head: .none)
        guard style != .bare else { return [draw(shaft, size: size, startTime: 0)] }

        // Barb length as a fraction of the shaft: log-uniform from a small tick to as long as the
        // shaft; barbs from narrow (11 degrees off the shaft) to wide (54 degrees; a flat head would
        // be a T on its side).
        let headLength = size * exp(uniform(log(0.08)...log(1.0)))
        let pointing = normalized(tip - shaft[shaft.count - 4])
        let side: Double = chance(0.5) ? 1 : -1
        func barb(_ sign: Double) -> SIMD2<Double> {
            tip - rotated(pointing, by: sign * uniform(0.2...0.95)) * headLength * uniform(0.75...1.25)
        }
        let first = barb(side), second = barb(-side)
        // Where a second stroke comes back to the tip: a little off, as a lifted pen does.
        func near(_ point: SIMD2<Double>) -> SIMD2<Double> {
            point + SIMD2(normal(), normal()) * headLength * 0.08
        }
        let ideals: [[SIMD2<Double>]]
        switch style {
        case .bare:
            ideals = [shaft]
        case .separateChevron:
            ideals = [shaft, [first, near(tip), second]]
        case .separateBarbs:
            ideals = [shaft, chance(0.5) ? [first, near(tip)] : [near(tip), first],
                      chance(0.5) ? [second, near(tip)] : [near(tip), second]]
        case .separateTriangle:
            let corner = near(tip)
            ideals = [shaft, [corner, first, second, near(corner)]]
        case .backAlongBarb:
            ideals = [shaft + [first, near(tip), second]]
        case .backAlongBothBarbs:
            ideals = [shaft + [first, near(tip), second, near(tip)]]
        case .hook:
            ideals = [shaft + [first]]
        case .closedTriangle:
            ideals = [shaft + [first, second, near(tip)]]
        }
        return drawSequence(ideals, size: size)
    }

    /// How often each head is drawn: the real-strokes arrows mostly lift the pen for the
    /// head; the thesis's arrows never do.
    mutating func headStroke() -> HeadStroke {
        let weights: [(HeadStroke, Double)] = [
            (.bare, 0.12), (.separateChevron, 0.3), (.separateBarbs, 0.05), (.separateTriangle, 0.04),
            (.backAlongBarb, 0.25), (.backAlongBothBarbs, 0.08), (.hook, 0.08), (.closedTriangle, 0.08),
        ]
        var draw = generator.nextUnit() * weights.map(\.1).reduce(0, +)
        for (style, weight) in weights {
            draw -= weight
            if draw < 0 { return style }
        }
        return .backAlongBarb
    }
}
