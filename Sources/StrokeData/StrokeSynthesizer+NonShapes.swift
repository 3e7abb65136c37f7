import Foundation
import StrokeImage

/// Drawings that are none of the shape classes, for training a reject option. The list mixes
/// letters and digits, marks, geometric figures and scribbles, and deliberately includes near
/// misses: an open "c" and a spiral beside the circle, an "e", "6", "9" and a coil beside the
/// self-loop, a zig-zag and a wavy line beside the arrow.
extension StrokeSynthesizer {
    /// The kinds of non-shape drawing.
    public enum NonShapeKind: String, CaseIterable, Sendable {
        case letterA, letterB, letterC, letterE, letterL, letterM, letterN, letterR, letterS, letterT, letterU, letterV
        case letterW, letterZ
        case digit2, digit3, digit4, digit6, digit7, digit8, digit9
        case checkMark, star, xMark, plusSign, zigZag, scribble, hatching, spiral, coil, lightning
        case square, triangle, polygon, bracket, curlyBrace, questionMark, wavyLine, heart, infinity
        case cloud, rose, dot
        case letterD, letterP, musicNote, creature, blockArrow, squareWave
    }

    /// A random drawing of `kind` (one or more strokes, timed one after another), with random
    /// size, position, proportions, slant and, for figures without an upright, any rotation.
    public mutating func nonShape(_ kind: NonShapeKind) -> [Stroke] {
        let (ideals, isUpright) = template(kind)
        var size = randomSize()
        if kind == .dot { size = uniform(2...8) }
        let rotation = isUpright ? uniform(-0.3...0.3) : uniform(0...(2 * .pi))
        let slant = isUpright ? uniform(-0.3...0.3) : 0
        let aspect = uniform(0.75...1.3)
        let shaped = ideals.map { stroke in
            stroke.map { point in rotated(SIMD2((point.x - slant * point.y) * aspect, point.y), by: rotation) }
        }
        // Scale so that the longer side of the drawing's bounding box is `size`.
        let all = shaped.flatMap { $0 }
        var low = all.first ?? .zero, high = low
        for point in all {
            low = pointwiseMin(low, point)
            high = pointwiseMax(high, point)
        }
        let extent = max(high.x - low.x, high.y - low.y, 1e-9)
        let center = randomCenter()
        let placed = shaped.map { stroke in stroke.map { center + ($0 - (low + high) / 2) * (size / extent) } }
        return drawSequence(placed, size: size)
    }

    /// The near misses, drawn three times as often as other kinds: closed or round figures
    /// beside the circle (a heart, a "D", a cloud, a spiral, a note, a rectangle), a figure with
    /// a dome and legs beside the arch-shaped self-loop, and an outlined block arrow.
    public static let nearMisses: Set<NonShapeKind> = [
        .heart, .letterD, .letterP, .cloud, .spiral, .musicNote, .creature, .blockArrow, .square,
    ]

    /// A non-shape of a random kind, near misses (`nearMisses`) three times as often as others.
    public mutating func randomNonShape() -> (kind: NonShapeKind, strokes: [Stroke]) {
        let kinds = NonShapeKind.allCases
        let weights = kinds.map { Self.nearMisses.contains($0) ? 3.0 : 1.0 }
        var draw = generator.nextUnit() * weights.reduce(0, +)
        var kind = kinds[kinds.count - 1]
        for (candidate, weight) in zip(kinds, weights) {
            draw -= weight
            if draw < 0 { kind = candidate; break }
        }
        return (kind, nonShape(kind))
    }

    // MARK: - Templates, in a box about [-1, 1] x [-1, 1], y down

    /// The ideal strokes of `kind`, and whether the figure has an upright (letters, digits).
    mutating func template(_ kind: NonShapeKind) -> (strokes: [[SIMD2<Double>]], isUpright: Bool) {
        switch kind {
        case .letterA:
            if chance(0.3) {  // a capital A: two strokes
                return ([lines([(-0.6, 0.9), (0, -0.9), (0.6, 0.9)]), lines([(-0.35, 0.25), (0.35, 0.25)])], true)
            }
            let bowl = smooth([(0.45, -0.25), (0.1, -0.5), (-0.35, -0.35), (-0.5, 0.1), (-0.25, 0.45), (0.15, 0.35), (0.45, -0.05)])
            return ([bowl + lines([(0.48, -0.5), (0.5, 0.4), (0.65, 0.5)])], true)
        case .letterB:
            let stem = lines([(-0.4, -1), (-0.4, 0.9)])
            return ([stem + smooth([(-0.4, 0.9), (-0.38, 0.3), (0.05, 0), (0.45, 0.35), (0.2, 0.9), (-0.4, 0.85)])], true)
        case .letterC:
            let gap = uniform(1.1...2.6)
            return ([ellipseArc(radii: SIMD2(uniform(0.6...1), 1), from: -gap / 2, sweep: -(2 * .pi - gap))], true)
        case .letterE:
            let bar = lines([(-0.5, 0.05), (0.5, 0)])
            return ([bar + smooth([(0.5, 0), (0.35, -0.45), (-0.15, -0.55), (-0.55, -0.05), (-0.35, 0.5), (0.15, 0.6), (0.55, 0.35)])], true)
        case .letterL:
            return ([lines([(-0.3, -1), (-0.3, 0.9), (0.5, 0.9)])], true)
        case .letterM:
            let first = lines([(-0.7, 0.7), (-0.7, -0.5)])
                + smooth([(-0.7, -0.5), (-0.45, -0.75), (-0.05, -0.5), (-0.02, 0.7)])
            let second = lines([(0, -0.45)]) + smooth([(0, -0.45), (0.3, -0.75), (0.65, -0.5), (0.7, 0.7)])
            return ([first + second], true)
        case .letterN:
            let hump = smooth([(-0.5, -0.45), (-0.2, -0.75), (0.4, -0.6), (0.5, 0.7)])
            return ([lines([(-0.5, 0.7), (-0.5, -0.45)]) + hump], true)
        case .letterR:
            let shoulder = smooth([(-0.4, -0.3), (-0.1, -0.7), (0.3, -0.75), (0.55, -0.55)])
            return ([lines([(-0.4, -0.75), (-0.4, 0.75), (-0.4, -0.3)]) + shoulder], true)
        case .letterS:
            return ([smooth([(0.5, -0.7), (0, -0.95), (-0.5, -0.6), (0, -0.05), (0.5, 0.5), (0, 0.95), (-0.55, 0.7)])], true)
        case .letterT:
            // Bar then stem (or stem then bar), or in one stroke down the stem after the bar.
            let bar = uniform(-0.1...0.1), left = (-0.7, -0.9 + bar), right = (0.7, -0.9 - bar)
            let top = (uniform(-0.1...0.1), -0.9), foot = (uniform(-0.15...0.15), 0.9)
            let variant = generator.nextUnit()
            if variant < 0.6 { return ([lines([left, right]), lines([top, foot])], true) }
            if variant < 0.8 { return ([lines([top, foot]), lines([left, right])], true) }
            return ([lines([left, right, top, foot])], true)
        case .letterU:
            let cup = smooth([(-0.5, -0.8), (-0.5, 0.3), (0, 0.8), (0.5, 0.3), (0.5, -0.8)])
            return ([chance(0.4) ? cup + lines([(0.55, 0.8)]) : cup], true)
        case .letterV:
            return ([lines([(-0.5, -0.8), (0, 0.8), (0.5, -0.8)])], true)
        case .letterW:
            return ([lines([(-0.8, -0.7), (-0.4, 0.7), (0, -0.3), (0.4, 0.7), (0.8, -0.7)])], true)
        case .letterZ:
            return ([lines([(-0.5, -0.8), (0.5, -0.8), (-0.5, 0.8), (0.55, 0.8)])], true)
        case .digit2:
            return ([smooth([(-0.5, -0.5), (0, -0.9), (0.5, -0.5), (0.2, 0.1), (-0.55, 0.85)]) + lines([(0.6, 0.85)])], true)
        case .digit3:
            let top = smooth([(-0.5, -0.7), (0, -0.95), (0.45, -0.6), (0, -0.1)])
            return ([top + smooth([(0, -0.1), (0.5, 0.3), (0.1, 0.9), (-0.5, 0.7)])], true)
        case .digit4:
            return ([lines([(0.3, 0.9), (0.3, -0.9), (-0.5, 0.35), (0.6, 0.35)])], true)
        case .digit6:
            return ([smooth([(0.4, -0.9), (-0.2, -0.6), (-0.5, 0.2), (-0.2, 0.85), (0.35, 0.6), (0.3, 0.05), (-0.2, 0.05), (-0.45, 0.4)])], true)
        case .digit7:
            return ([lines([(-0.5, -0.8), (0.5, -0.8), (-0.1, 0.9)])], true)
        case .digit8:
            let start = uniform(-0.5...0.5)
            return ([(0...120).map { step in
                let t = start + 2 * Double.pi * 1.05 * Double(step) / 120
                return SIMD2(0.45 * sin(2 * t), 0.9 * sin(t))
            }], true)
        case .digit9:
            let head = smooth([(0.45, -0.4), (0, -0.85), (-0.45, -0.45), (-0.05, -0.05), (0.45, -0.4)])
            return ([head + lines([(0.4, 0.9)])], true)
        case .checkMark:
            return ([lines([(-0.6, uniform(-0.2...0.2)), (-0.2, 0.55), (0.7, uniform(-1...(-0.5)))])], true)
        case .star:
            return ([lines((0...5).map { step in
                let angle = -Double.pi / 2 + Double(step) * 4 * .pi / 5
                return (cos(angle), sin(angle))
            })], false)
        case .xMark:
            if chance(0.5) {
                return ([lines([(-0.6, -0.6), (0.6, 0.6)]), lines([(0.6, -0.6), (-0.6, 0.6)])], false)
            }
            return ([lines([(-0.6, -0.6), (0.6, 0.6), (0.6, -0.6), (-0.6, 0.6)])], false)
        case .plusSign:
            return ([lines([(0, -0.8), (0, 0.8)]), lines([(-0.8, 0), (0.8, 0)])], false)
        case .lightning:
            return ([lines([(0.3, -1), (-0.35, 0.1), (0.3, 0), (-0.3, 1)])], true)
        case .zigZag:
            let teeth = 3 + index(below: 5), height = uniform(0.25...0.6)
            let corners = (0...teeth).map { step -> (Double, Double) in
                let x: Double = -1 + 2 * Double(step) / Double(teeth)
                return (x, step % 2 == 0 ? -height : height)
            }
            return ([lines(corners)], false)
        case .scribble:
            // Loops of any proportions: as wide as tall, or a tall narrow tangle (a clef).
            let count = 7 + index(below: 9), width = chance(0.6) ? 1 : uniform(0.25...0.6)
            return ([smooth((0..<count).map { _ in (width * uniform(-1...1), uniform(-1...1)) })], false)
        case .hatching:
            let count = 4 + index(below: 5), lean = uniform(-0.4...0.4)
            let corners = (0..<count).map { step -> (Double, Double) in
                let y: Double = -1 + 2 * Double(step) / Double(count - 1)
                return (step % 2 == 0 ? -1 + lean : 1 - lean, y)
            }
            return ([lines(corners)], false)
        case .spiral:
            return ([spiral()], false)
        case .coil:
            // A prolate cycloid: a row of loops, as in cursive "eee" or a telephone cord.
            let loops = 2 + Double(index(below: 3)), radius = uniform(0.5...0.9)
            let t0 = uniform(-0.5...0.5)
            return ([(0...(60 * Int(loops))).map { step in
                let t = t0 + 2 * Double.pi * loops * Double(step) / (60 * loops)
                return SIMD2(0.35 * t - radius * sin(t), -radius * cos(t))
            }], true)
        case .square:
            // Squares and rectangles up to three times as wide as tall.
            let height = chance(0.5) ? 1 : uniform(0.33...1)
            let corners: [(Double, Double)] = [(-1, -height), (1, -height), (1, height), (-1, height)]
            let first = index(below: 4)
            return ([lines((0...4).map { corners[(first + $0) % 4] })], false)
        case .triangle:
            return ([regularPolygon(sides: 3)], false)
        case .polygon:
            return ([regularPolygon(sides: 5 + index(below: 3))], false)
        case .bracket:
            let side: Double = chance(0.5) ? 1 : -1
            if chance(0.5) {
                return ([lines([(0.3 * side, -1), (-0.3 * side, -1), (-0.3 * side, 1), (0.3 * side, 1)])], true)
            }
            // Deeper than a bowed line or swipe (sagitta above about a seventh of the chord).
            let sweep = uniform(2.0...2.8)
            let arc = ellipseArc(radii: SIMD2(0.5, 1), from: Double.pi - sweep / 2, sweep: sweep)
            return ([arc.map { SIMD2($0.x * side, $0.y) }], true)
        case .curlyBrace:
            let upper = smooth([(0.3, -1), (0, -0.85), (0, -0.2), (-0.3, 0)])
            return ([upper + smooth([(-0.3, 0), (0, 0.2), (0, 0.85), (0.3, 1)])], true)
        case .questionMark:
            let hook = smooth([(-0.45, -0.5), (-0.1, -0.95), (0.45, -0.65), (0.35, -0.2), (0, 0.1), (0, 0.45)])
            return ([hook, lines([(0, 0.85), (0.02, 0.9)])], true)
        case .wavyLine:
            let periods = uniform(1.5...3.5), amplitude = uniform(0.1...0.22), phase = uniform(0...(2 * .pi))
            return ([(0...100).map { step in
                let x = -1 + 2 * Double(step) / 100
                return SIMD2(x, amplitude * sin(Double.pi * periods * x + phase))
            }], false)
        case .heart:
            // Any way up: a heart turned over is an arch with a hook inside, a near miss for the
            // self-loop, and other devices' y axes may point up (the real-strokes EDS hearts do).
            // Lobes of uneven size, a cusp from deep to barely there, the point off-centre; one
            // stroke from the cusp (either way round) or from the point, or two halves.
            let cusp = uniform(-0.6...(-0.15)), point = SIMD2(uniform(-0.15...0.15), uniform(0.75...1))
            let leftLobe = uniform(0.75...1.1), rightLobe = uniform(0.75...1.1)
            // Lobes that taper into the point, or round lobes whose sides drop almost straight down.
            let (upper, side, lower) = chance(0.5) ? ((0.45, -0.9), (0.95, -0.45), (0.55, 0.25))
                : ((0.5, -1), (0.95, -0.55), (0.8, 0.2))
            let left = smooth([(0, cusp), (-upper.0 * leftLobe, upper.1), (-side.0 * leftLobe, side.1),
                               (-lower.0 * leftLobe, lower.1), (point.x, point.y)])
            let right = smooth([(point.x, point.y), (lower.0 * rightLobe, lower.1), (side.0 * rightLobe, side.1),
                                (upper.0 * rightLobe, upper.1), (0, cusp)])
            if chance(0.5) {
                // The textbook heart curve (round lobes, sides running straight into the point),
                // from the cusp either way round, stretched up to half again as tall.
                let stretch = uniform(1...1.5), direction: Double = chance(0.5) ? 1 : -1
                let curve = (0...120).map { step -> SIMD2<Double> in
                    let t = direction * 2 * Double.pi * Double(step) / 120
                    let x = 16 * pow(sin(t), 3)
                    let y = -(13 * cos(t) - 5 * cos(2 * t) - 2 * cos(3 * t) - cos(4 * t))
                    return SIMD2(x, y * stretch) / 16
                }
                return ([curve], false)
            }
            let variant = generator.nextUnit()
            if variant < 0.15 { return ([left, right.reversed()], false) }
            if variant < 0.3 { return ([Array(right + left)], false) }  // from the point
            return ([chance(0.5) ? left + right : (left + right).reversed()], false)
        case .infinity:
            let start = uniform(0...(2 * .pi))
            return ([(0...120).map { step in
                let t = start + 2 * Double.pi * 1.04 * Double(step) / 120
                let scale = 1 / (1 + sin(t) * sin(t))
                return SIMD2(cos(t) * scale, 1.6 * sin(t) * cos(t) * scale)
            }], false)
        case .cloud:
            // A scalloped closed outline: a near miss for the circle.
            let bumps = 5 + index(below: 4), depth = uniform(0.12...0.25), start = uniform(0...(2 * .pi))
            return ([(0...200).map { step in
                let angle = start + 2 * Double.pi * Double(step) / 200
                let radius = 1 - depth + depth * abs(sin(Double(bumps) * (angle - start) / 2))
                return SIMD2(1.3 * radius * cos(angle), radius * sin(angle))
            }], false)
        case .rose:
            // r = cos(k theta): three or four petals, each a loop from the centre.
            let petals = 3 + index(below: 2)
            let k = petals == 3 ? 3.0 : 2.0, turns = petals == 3 ? 1.0 : 2.0
            return ([(0...240).map { step in
                let angle = Double.pi * turns * Double(step) / 240
                let radius = cos(k * angle)
                return SIMD2(radius * cos(angle), radius * sin(angle))
            }], false)
        case .dot:
            return ([smooth([(0, 0), (0.5, 0.3), (0.1, 0.8), (-0.4, 0.2)])], false)
        case .letterD:
            let stem = lines([(-0.5, -1), (-0.5, 1)])
            let bowl = smooth([(-0.5, -1), (0.2, -0.85), (0.6, -0.2), (0.5, 0.5), (0, 0.95), (-0.5, 1)])
            return (chance(0.6) ? [stem, bowl] : [stem.reversed() + bowl], true)
        case .letterP:
            let stem = lines([(-0.45, 1), (-0.45, -1)])
            let bowl = smooth([(-0.45, -1), (0.2, -0.95), (0.5, -0.55), (0.2, -0.1), (-0.45, -0.05)])
            return (chance(0.5) ? [stem, bowl] : [stem + bowl], true)
        case .musicNote:
            // A half note: a small tilted oval with a stem, drawn in one or two strokes.
            let width = uniform(0.35...0.55), side: Double = chance(0.8) ? 1 : -1
            let oval = (0...60).map { step -> SIMD2<Double> in
                let angle = Double.pi / 2 + 2 * Double.pi * 1.05 * Double(step) / 60
                return rotated(SIMD2(width * cos(angle), width * 0.6 * sin(angle)), by: -0.4) + SIMD2(0, 0.7)
            }
            let stemBottom = (0.95 * width * side, 0.6)
            let stem = lines([stemBottom, (stemBottom.0, -1)])
            return (chance(0.5) ? [oval, stem] : [oval + stem], true)
        case .blockArrow:
            // An outlined (hollow) arrow: a bar and a triangular head, one closed polygon.
            let bar = uniform(0.12...0.3), head = uniform(0.35...0.6), neck = uniform(0.1...0.6)
            let outline = lines([(-1, -bar), (neck, -bar), (neck, -head), (1, 0), (neck, head), (neck, bar),
                                 (-1, bar), (-1, -bar)])
            return ([chance(0.5) ? outline : outline.reversed()], false)
        case .squareWave:
            // Steps up and down with square corners, as a clock signal or a crenellation.
            let steps = 1 + index(below: 3), height = uniform(0.3...0.8)
            var corners: [(Double, Double)] = [(-1, height / 2)]
            for step in 0..<steps {
                let x0 = -1 + 2 * Double(step) / Double(steps), x1 = -1 + 2 * (Double(step) + 0.5) / Double(steps)
                corners += [(x0 + 0.2 / Double(steps), height / 2), (x0 + 0.2 / Double(steps), -height / 2),
                            (x1 + 0.2 / Double(steps), -height / 2), (x1 + 0.2 / Double(steps), height / 2)]
            }
            corners.append((1, height / 2))
            return ([lines(corners)], true)
        case .creature:
            // A dome (head and back) on two to four legs, in one stroke, as a cat or a table is drawn;
            // any way up, as hearts.
            let legs = 2 + index(below: 3), legLength = uniform(0.35...0.8), dome = uniform(0.5...1)
            var outline = smooth([(-0.9, 0.1), (-0.85, 0.1 - dome * 0.6), (-0.3, -dome), (0.4, -dome * 0.9),
                                  (0.9, 0.1 - dome * 0.5), (0.9, 0.1)])
            // Legs from right to left along the belly: boxes (down, across, up) or pointed teeth.
            let width = uniform(0.12...0.35), pointed = chance(0.5)
            var corners: [(Double, Double)] = []
            for leg in 0..<legs {
                let right = 0.9 - (1.8 - width) * Double(leg) / Double(legs - 1)
                let bottom = 0.1 + legLength * uniform(0.8...1.1)
                corners += pointed ? [(right, 0.1), (right - width / 2, bottom), (right - width, 0.1)]
                    : [(right, 0.1), (right, bottom), (right - width, bottom), (right - width, 0.1)]
            }
            outline += lines(corners)
            outline.append(outline[0])
            return ([outline], false)
        }
    }

    /// A Catmull-Rom curve through `controls`, each moved a little at random.
    mutating func smooth(_ controls: [(Double, Double)]) -> [SIMD2<Double>] {
        let points = jittered(controls)
        guard points.count >= 3 else { return points }
        var curve: [SIMD2<Double>] = [points[0]]
        for index in 0..<(points.count - 1) {
            let p0 = index > 0 ? points[index - 1] : 2 * points[0] - points[1]
            let p1 = points[index], p2 = points[index + 1]
            let p3 = index + 2 < points.count ? points[index + 2] : 2 * p2 - p1
            for step in 1...12 {
                let t = Double(step) / 12, t2 = t * t, t3 = t2 * t
                let a = 2 * p1, b = p2 - p0, c = 2 * p0 - 5 * p1 + 4 * p2 - p3, d = 3 * p1 - p0 - 3 * p2 + p3
                curve.append(0.5 * (a + b * t + c * t2 + d * t3))
            }
        }
        return curve
    }

    /// Straight segments between `corners`, each moved a little at random.
    mutating func lines(_ corners: [(Double, Double)]) -> [SIMD2<Double>] {
        jittered(corners)
    }

    mutating func jittered(_ points: [(Double, Double)]) -> [SIMD2<Double>] {
        points.map { SIMD2($0.0, $0.1) + SIMD2(normal(), normal()) * 0.035 }
    }

    /// An elliptical arc from angle `start` turning through `sweep` radians (negative turns
    /// counter-clockwise on screen).
    func ellipseArc(radii: SIMD2<Double>, from start: Double, sweep: Double) -> [SIMD2<Double>] {
        (0...80).map { step in
            let angle = start + sweep * Double(step) / 80
            return SIMD2(radii.x * cos(angle), radii.y * sin(angle))
        }
    }

    /// A closed polygon with slightly uneven corners, starting at a random vertex.
    mutating func regularPolygon(sides: Int) -> [SIMD2<Double>] {
        let turn = uniform(0...(2 * .pi))
        return lines((0...sides).map { step in
            let angle = turn + 2 * Double.pi * Double(step % sides) / Double(sides)
            return (cos(angle), sin(angle))
        })
    }

    /// A spiral of 1.6 to 3.5 turns, drawn outward or inward.
    mutating func spiral() -> [SIMD2<Double>] {
        let turns = uniform(1.6...3.5), inner = uniform(0.05...0.3)
        let direction: Double = chance(0.5) ? 1 : -1, start = uniform(0...(2 * .pi))
        let count = Int(turns * 50)
        let outward = (0...count).map { step -> SIMD2<Double> in
            let t = Double(step) / Double(count)
            let angle = start + direction * 2 * Double.pi * turns * t
            return (inner + (1 - inner) * t) * SIMD2(cos(angle), sin(angle))
        }
        return chance(0.5) ? outward : outward.reversed()
    }
}
