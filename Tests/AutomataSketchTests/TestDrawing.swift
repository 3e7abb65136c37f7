import AutomataSketch
import Foundation
import StrokeImage
import StrokeKit

/// Hand-written strokes for rule tests: exact shapes, with optional jitter.
enum Pen {
    /// A circle around `center`, starting at `startAngle` (radians), going `turns` times round.
    static func circle(
        _ center: SketchPoint, _ radius: Double, turns: Double = 1, startAngle: Double = 0, pointCount: Int = 40
    ) -> Stroke {
        let count = max(8, Int(Double(pointCount) * turns))
        return Stroke((0...count).map { index in
            let angle = startAngle + 2 * Double.pi * turns * Double(index) / Double(count)
            return (center.x + radius * cos(angle), center.y + radius * sin(angle))
        })
    }

    /// A straight arrow from `start` to `tip`, with a two-barb head drawn in the same stroke
    /// (tip -> left barb -> tip -> right barb) when `head` is true.
    static func arrow(_ start: SketchPoint, _ tip: SketchPoint, head: Bool = true, steps: Int = 12) -> Stroke {
        var points = (0...steps).map { start + (tip - start) * (Double($0) / Double(steps)) }
        if head {
            let direction = (tip - start) / ((tip - start) * (tip - start)).sum().squareRoot()
            let normal = SketchPoint(-direction.y, direction.x)
            let size = 0.15 * ((tip - start) * (tip - start)).sum().squareRoot()
            points += [tip - direction * size + normal * size * 0.6, tip, tip - direction * size - normal * size * 0.6]
        }
        return Stroke(points.map { ($0.x, $0.y) })
    }

    /// A curved arc from `start` to `end` bulging by `bulge` (a back edge).
    static func arc(_ start: SketchPoint, _ end: SketchPoint, bulge: Double, steps: Int = 16) -> Stroke {
        let middle = (start + end) / 2
        let along = end - start
        let normal = SketchPoint(-along.y, along.x) / (along * along).sum().squareRoot()
        return Stroke((0...steps).map { index in
            let t = Double(index) / Double(steps)
            let point = start + along * t + normal * bulge * 4 * t * (1 - t)
            return (point.x, point.y)
        })
    }

    /// A self-loop on the rim of a state at `angle` (radians; -π/2 is straight up on screen).
    static func loop(_ stateCenter: SketchPoint, _ stateRadius: Double, angle: Double = -Double.pi / 2) -> Stroke {
        let loopCenter = stateCenter + SketchPoint(cos(angle), sin(angle)) * stateRadius * 1.35
        let loopRadius = stateRadius * 0.5
        // Start on the rim to one side, go round the far side, end on the rim the other side.
        return Stroke((0...30).map { index in
            let theta = angle + Double.pi + 0.6 + (2 * Double.pi - 1.2) * Double(index) / 30
            return (loopCenter.x + loopRadius * cos(theta), loopCenter.y + loopRadius * sin(theta))
        })
    }

    /// A zig-zag eraser stroke through the given points.
    static func through(_ points: [SketchPoint]) -> Stroke {
        Stroke(points.map { ($0.x, $0.y) })
    }
}

/// A classifier that knows each scripted drawing's intended label (and rejects unknown ones).
struct ScriptedClassifier: StrokeClassifying {
    var labels: [[Stroke]: String] = [:]

    mutating func remember(_ strokes: [Stroke], as label: String) {
        labels[strokes] = label
    }

    func classify(_ strokes: [Stroke]) throws -> Classification {
        guard let label = labels[strokes] else {
            return Classification(label: "arrow", confidence: 0.4, probabilities: ["arrow": 0.4], isRejected: true)
        }
        return Classification(label: label, confidence: 1, probabilities: [label: 1], isRejected: false)
    }
}

/// Builds a sketch file and the classifier that knows its labels, stroke by stroke.
struct ScriptedSketch {
    var lines: [SketchLine] = []
    var classifier = ScriptedClassifier()

    mutating func draw(
        _ stroke: Stroke, as label: String, symbols: [String] = [], epsilon: Bool = false, name: String? = nil
    ) {
        lines.append(SketchLine(lineNumber: lines.count + 1, strokes: [stroke], symbols: symbols, isEpsilon: epsilon, name: name))
        classifier.remember([stroke], as: label)
    }

    func recognize() throws -> Recognition {
        try SketchRecognizer.recognize(lines, classifier: classifier)
    }

    /// The sketch as ndjson text, as `strokekit recognize` reads it.
    var ndjson: String {
        lines.map { line in
            let drawing = line.strokes.map { stroke in
                "[[" + stroke.points.map { "\($0.x)" }.joined(separator: ",") + "],["
                    + stroke.points.map { "\($0.y)" }.joined(separator: ",") + "]]"
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
