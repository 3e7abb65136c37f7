import AutomataSketch
import Foundation
import StrokeData
import StrokeImage
import StrokeTensor
import StrokeSupport

/// A textbook automaton as a layout a student would sketch: states on a grid (in units of
/// the spacing between states), transitions with a bend, self-loops with a direction, and the
/// language it accepts. `SynthesizedTextbook.draw` turns it into strokes.
struct TextbookLayout: Sendable, CustomStringConvertible {
    struct Edge: Sendable {
        var from: Int, to: Int
        var symbols: [String]
        var epsilon = false
        /// Sagitta as a fraction of the length, positive bulging left of the travel direction
        /// on screen; pairs of edges in both directions bend the same sign and so part.
        var bend: Double
    }

    struct Loop: Sendable {
        var state: Int
        /// Direction of the loop from the state's centre (radians, screen axes: -π/2 is up).
        var angle: Double
        var symbols: [String]
    }

    var description: String
    var alphabet: [String]
    var language: @Sendable (String) -> Bool
    var positions: [SketchPoint]
    var finals: Set<Int>
    var initial: Int
    /// Where the initial arrow comes from (radians from the initial state's centre).
    var initialAngle: Double
    var edges: [Edge]
    var loops: [Loop]
}

/// A drawn sketch line and what the student meant by it, for explaining misses.
struct IntendedLine {
    var line: SketchLine
    var intent: String
}

/// Draws textbook layouts with `StrokeSynthesizer`, varying what students vary: state size
/// (radius 15–80), spacing, placement, a slight rotation of the whole layout, uneven circles,
/// second circles off-centre (sometimes drawn in the same drawing as the state), arrows that
/// start inside or outside a rim and stop short, messy or missing heads, curved back edges,
/// self-loops at different angles, and the order of the strokes after the states.
enum SynthesizedTextbook {
    static let radiusRange = 15.0...80.0

    static func draw(_ layout: TextbookLayout, seed: UInt64) -> [IntendedLine] {
        var random = SeededGenerator(seed: seed)
        var synthesizer = StrokeSynthesizer(seed: seed &* 0x9E37_79B9 &+ 17)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + (range.upperBound - range.lowerBound) * random.nextUnit()
        }
        func chance(_ probability: Double) -> Bool { random.nextUnit() < probability }

        let radius = exp(uniform(log(radiusRange.lowerBound)...log(radiusRange.upperBound)))
        let spacing = radius * uniform(3.5...4.5)
        let rotation = uniform(-0.35...0.35)
        let origin = SketchPoint(uniform(0...600), uniform(0...600))
        let centers = layout.positions.map { position in
            origin + rotated(position * spacing, by: rotation)
                + SketchPoint(random.nextNormal(), random.nextNormal()) * radius * 0.1
        }
        let radii = layout.positions.map { _ in radius * uniform(0.85...1.15) }
        // The outermost circle of each state: where arrows and loops attach.
        var rims = radii

        var lines: [IntendedLine] = []
        func add(_ strokes: [Stroke], _ intent: String, symbols: [String] = [], epsilon: Bool = false) {
            lines.append(IntendedLine(
                line: SketchLine(lineNumber: lines.count + 1, strokes: synthesizer.inSequence(strokes),
                                 symbols: symbols, isEpsilon: epsilon),
                intent: intent))
        }

        // States first, each final one with its second circle right after it or in one drawing.
        for index in centers.indices {
            let state = synthesizer.circle(center: centers[index], radius: radii[index])
            guard layout.finals.contains(index) else {
                add([state], "state \(index)")
                continue
            }
            let offsetAngle = uniform(0...(2 * Double.pi))
            let offset = SketchPoint(cos(offsetAngle), sin(offsetAngle)) * radii[index] * uniform(0...0.1)
            let outerRadius = radii[index] * uniform(1.18...1.35)
            let outer = synthesizer.circle(center: centers[index] + offset, radius: outerRadius)
            rims[index] = outerRadius + radii[index] * 0.1
            if chance(0.25) {
                add([state, outer], "final state \(index) (double circle in one drawing)")
            } else {
                add([state], "state \(index)")
                add([outer], "final circle of \(index)")
            }
        }

        // The initial arrow from empty space.
        let initialDirection = direction(layout.initialAngle + rotation + uniform(-0.3...0.3))
        let initialCenter = centers[layout.initial], initialRim = rims[layout.initial]
        add([synthesizer.arrow(
            from: initialCenter + initialDirection * initialRim * uniform(2.2...3.2),
            to: initialCenter + initialDirection * initialRim * uniform(1.0...1.3),
            head: .random, bend: uniform(-0.05...0.05))], "initial arrow into \(layout.initial)")

        // Transitions and self-loops, in a random order.
        var rest: [() -> Void] = []
        for edge in layout.edges {
            rest.append {
                let source = centers[edge.from], target = centers[edge.to]
                let along = normalized(target - source)
                let bend = edge.bend + uniform(-0.05...0.05)
                // The arc leaves and enters on the bulge side, at about the tangent's angle.
                let tilt = atan(4 * bend) * uniform(0.5...0.8)
                // Starts inside or outside the rim, stops short or touches; between close states
                // the arrow still spans at least one radius, as anyone would draw it.
                let startOffset = rims[edge.from] * uniform(0.9...1.3)
                let room = (target - source).magnitude - startOffset - radius
                let tipOffset = max(min(rims[edge.to] * uniform(1.0...1.45), room), rims[edge.to] * 0.9)
                let start = source + rotated(along, by: -tilt) * startOffset
                let tip = target + rotated(-along, by: tilt) * tipOffset
                add([synthesizer.arrow(from: start, to: tip, head: .random, bend: bend)],
                    "transition \(edge.from) → \(edge.to)", symbols: edge.symbols, epsilon: edge.epsilon)
            }
        }
        for loop in layout.loops {
            rest.append {
                let angle = loop.angle + rotation + uniform(-0.4...0.4)
                add([synthesizer.selfLoop(stateCenter: centers[loop.state], stateRadius: rims[loop.state], angle: angle)],
                    "self-loop on \(loop.state)", symbols: loop.symbols)
            }
        }
        for index in rest.indices.reversed() {
            let other = Int(random.next() % UInt64(index + 1))
            rest.swapAt(index, other)
        }
        for draw in rest { draw() }
        return lines
    }

    static func direction(_ angle: Double) -> SketchPoint {
        SketchPoint(cos(angle), sin(angle))
    }

    static func rotated(_ v: SketchPoint, by angle: Double) -> SketchPoint {
        SketchPoint(v.x * cos(angle) - v.y * sin(angle), v.x * sin(angle) + v.y * cos(angle))
    }

    static func normalized(_ v: SketchPoint) -> SketchPoint {
        v / v.magnitude
    }
}

extension SketchPoint {
    var magnitude: Double { (self * self).sum().squareRoot() }
}

extension SynthesizedTextbook {
    /// The lines as ndjson text, as `strokekit recognize` reads it (coordinates rounded to 0.1).
    static func ndjson(_ lines: [SketchLine]) -> String {
        func number(_ value: Double) -> String {
            let rounded = (value * 10).rounded() / 10
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
        return lines.map { line in
            let drawing = line.strokes.map { stroke in
                "[[" + stroke.points.map { number($0.x) }.joined(separator: ",") + "],["
                    + stroke.points.map { number($0.y) }.joined(separator: ",") + "]]"
            }.joined(separator: ",")
            var object = "{\"drawing\": [\(drawing)]"
            if !line.symbols.isEmpty {
                object += ", \"symbols\": [" + line.symbols.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
            }
            if line.isEpsilon { object += ", \"epsilon\": true" }
            if let name = line.name { object += ", \"name\": \"\(name)\"" }
            return object + "}"
        }.joined(separator: "\n") + "\n"
    }
}

extension TextbookLayout {
    private static let up = -Double.pi / 2, down = Double.pi / 2, left = Double.pi, right = 0.0

    /// Automata of the kind drawn in an introductory course.
    static let all: [TextbookLayout] = [
        TextbookLayout(
            description: "even number of a's", alphabet: ["a", "b"],
            language: { $0.filter { $0 == "a" }.count % 2 == 0 },
            positions: [SketchPoint(0, 0), SketchPoint(1, 0)], finals: [0], initial: 0, initialAngle: left,
            edges: [Edge(from: 0, to: 1, symbols: ["a"], bend: 0.2), Edge(from: 1, to: 0, symbols: ["a"], bend: 0.2)],
            loops: [Loop(state: 0, angle: up, symbols: ["b"]), Loop(state: 1, angle: up, symbols: ["b"])]),
        TextbookLayout(
            description: "odd number of 1s", alphabet: ["0", "1"],
            language: { $0.filter { $0 == "1" }.count % 2 == 1 },
            positions: [SketchPoint(0, 0), SketchPoint(1, 0)], finals: [1], initial: 0, initialAngle: left,
            edges: [Edge(from: 0, to: 1, symbols: ["1"], bend: 0.25), Edge(from: 1, to: 0, symbols: ["1"], bend: 0.25)],
            loops: [Loop(state: 0, angle: down, symbols: ["0"]), Loop(state: 1, angle: down, symbols: ["0"])]),
        TextbookLayout(
            description: "ends in 01 (NFA)", alphabet: ["0", "1"], language: { $0.hasSuffix("01") },
            positions: [SketchPoint(0, 0), SketchPoint(1, 0), SketchPoint(2, 0)], finals: [2], initial: 0, initialAngle: left,
            edges: [Edge(from: 0, to: 1, symbols: ["0"], bend: 0), Edge(from: 1, to: 2, symbols: ["1"], bend: 0)],
            loops: [Loop(state: 0, angle: up, symbols: ["0", "1"])]),
        TextbookLayout(
            description: "contains aa", alphabet: ["a", "b"], language: { $0.contains("aa") },
            positions: [SketchPoint(0, 0), SketchPoint(1, 0), SketchPoint(2, 0)], finals: [2], initial: 0, initialAngle: up,
            edges: [
                Edge(from: 0, to: 1, symbols: ["a"], bend: 0.15), Edge(from: 1, to: 0, symbols: ["b"], bend: 0.3),
                Edge(from: 1, to: 2, symbols: ["a"], bend: 0),
            ],
            loops: [Loop(state: 0, angle: down, symbols: ["b"]), Loop(state: 2, angle: up, symbols: ["a", "b"])]),
        TextbookLayout(
            description: "a*b* with an ε-move", alphabet: ["a", "b"], language: { !$0.contains("ba") },
            positions: [SketchPoint(0, 0), SketchPoint(1, 0.3)], finals: [1], initial: 0, initialAngle: left,
            edges: [Edge(from: 0, to: 1, symbols: [], epsilon: true, bend: -0.1)],
            loops: [Loop(state: 0, angle: up, symbols: ["a"]), Loop(state: 1, angle: up, symbols: ["b"])]),
        TextbookLayout(
            description: "binary multiples of 3", alphabet: ["0", "1"],
            language: { word in word.reduce(0) { ($0 * 2 + ($1 == "1" ? 1 : 0)) % 3 } == 0 },
            positions: [SketchPoint(0, 0), SketchPoint(1, 0), SketchPoint(2, 0)], finals: [0], initial: 0, initialAngle: left,
            edges: [
                Edge(from: 0, to: 1, symbols: ["1"], bend: 0.2), Edge(from: 1, to: 0, symbols: ["1"], bend: 0.2),
                Edge(from: 1, to: 2, symbols: ["0"], bend: 0.2), Edge(from: 2, to: 1, symbols: ["0"], bend: 0.2),
            ],
            loops: [Loop(state: 0, angle: up, symbols: ["0"]), Loop(state: 2, angle: up, symbols: ["1"])]),
        TextbookLayout(
            description: "even a's and even b's", alphabet: ["a", "b"],
            language: { word in word.filter { $0 == "a" }.count % 2 == 0 && word.filter { $0 == "b" }.count % 2 == 0 },
            positions: [SketchPoint(0, 0), SketchPoint(1, 0), SketchPoint(0, 1), SketchPoint(1, 1)],
            finals: [0], initial: 0, initialAngle: left,
            edges: [
                Edge(from: 0, to: 1, symbols: ["a"], bend: 0.2), Edge(from: 1, to: 0, symbols: ["a"], bend: 0.2),
                Edge(from: 2, to: 3, symbols: ["a"], bend: 0.2), Edge(from: 3, to: 2, symbols: ["a"], bend: 0.2),
                Edge(from: 0, to: 2, symbols: ["b"], bend: 0.2), Edge(from: 2, to: 0, symbols: ["b"], bend: 0.2),
                Edge(from: 1, to: 3, symbols: ["b"], bend: 0.2), Edge(from: 3, to: 1, symbols: ["b"], bend: 0.2),
            ],
            loops: []),
        TextbookLayout(
            description: "starts with ab (NFA)", alphabet: ["a", "b"], language: { $0.hasPrefix("ab") },
            positions: [SketchPoint(0, 0), SketchPoint(1, 0), SketchPoint(2, 0)], finals: [2], initial: 0, initialAngle: left,
            edges: [Edge(from: 0, to: 1, symbols: ["a"], bend: 0.1), Edge(from: 1, to: 2, symbols: ["b"], bend: -0.1)],
            loops: [Loop(state: 2, angle: right, symbols: ["a", "b"])]),
    ]
}
