@testable import AutomataSketch
import Foundation
import StrokeImage
import StrokeKit
import Testing
import TestSupport

/// The same ink read differently must give the same automaton: every diagram of
/// `../shared/datasets/fa-diagrams` (22 real diagrams by 11 writers) scaled ×0.5 and ×2,
/// translated, resampled at half and at double the pen's point density, and mirrored (the
/// automaton mirrored with it) is read by the bundled CNN and the reader, and compared with
/// the reading of the ink as drawn: states (matched by where they are), finals, initial
/// states and transitions with their symbols. A reading that depends on the pen's sampling
/// rate, the screen's size or the side an arrow is drawn from fails here.
/// Skipped, with a message, when the dataset is absent.
@Suite struct MetamorphicDiagramTests {
    static let data = SharedDataset.folder("fa-diagrams")
    static let classifier = Result { try ShapeClassifier.bundledDefault() }

    /// One diagram: its name and its sketch lines, one symbol per line.
    struct Diagram: Sendable {
        var name: String
        var lines: [SketchLine]
    }

    static let diagrams: [Diagram] = {
        guard let data else { return [] }
        let folder = data.appendingPathComponent("sketches")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".ndjson") }.sorted()
        return names.compactMap { name in
            (try? SketchFile.read(contentsOf: folder.appendingPathComponent(name))).map { Diagram(name: name, lines: $0) }
        }
    }()

    /// A point transform and its inverse (to bring a state's centre back to the drawing's frame).
    struct Transform: Sendable {
        var name: String
        var points: @Sendable ([StrokePoint]) -> [StrokePoint]
        var inverse: @Sendable (SketchPoint) -> SketchPoint
    }

    static func mapped(_ name: String, _ map: @escaping @Sendable (SketchPoint) -> SketchPoint,
                       inverse: @escaping @Sendable (SketchPoint) -> SketchPoint) -> Transform {
        Transform(name: name, points: { points in
            points.map { point in
                let moved = map(SketchPoint(point.x, point.y))
                return StrokePoint(x: moved.x, y: moved.y, time: point.time)
            }
        }, inverse: inverse)
    }

    /// Every other point (the last one kept): a pen sampling half as often.
    static func halfDensity(_ points: [StrokePoint]) -> [StrokePoint] {
        guard points.count > 2 else { return points }
        var kept = points.indices.filter { $0 % 2 == 0 }.map { points[$0] }
        if (points.count - 1) % 2 != 0 { kept.append(points[points.count - 1]) }
        return kept
    }

    /// A point added halfway between every two: a pen sampling twice as often.
    static func doubleDensity(_ points: [StrokePoint]) -> [StrokePoint] {
        guard let first = points.first else { return points }
        var result = [first]
        for (previous, point) in zip(points, points.dropFirst()) {
            let time = previous.time.flatMap { first in point.time.map { (first + $0) / 2 } }
            result.append(StrokePoint(x: (previous.x + point.x) / 2, y: (previous.y + point.y) / 2, time: time))
            result.append(point)
        }
        return result
    }

    /// The automaton as a comparable text: states by their index in `anchors` (the nearest
    /// anchor to the state's centre brought back by `inverse`), finals, initial states, and
    /// transitions `from→to symbols`, sorted; `?` for a free end.
    static func automaton(_ sketch: Sketch, anchors: [SketchPoint], inverse: (SketchPoint) -> SketchPoint) -> [String] {
        func anchor(_ id: Int?) -> String {
            guard let state = id.flatMap(sketch.state) else { return "?" }
            let center = inverse(state.center)
            let index = anchors.indices.min { distance(anchors[$0], center) < distance(anchors[$1], center) }
            return index.map(String.init) ?? "?"
        }
        let states = sketch.states.map { "state \(anchor($0.id))\($0.isFinal ? " final" : "")\(sketch.isInitial($0.id) ? " initial" : "")" }
        let transitions = sketch.transitions.filter { !$0.isInitialMarker }.map {
            "\(anchor($0.from))→\(anchor($0.to)) \($0.symbols.sorted().joined(separator: ","))\($0.isEpsilon ? " ε" : "")"
        }
        return (states + transitions).sorted()
    }

    static func read(_ lines: [SketchLine], _ transform: ([StrokePoint]) -> [StrokePoint], classifier: ShapeClassifier) throws -> Sketch {
        var ink: [InkStroke] = []
        for (drawing, line) in lines.enumerated() {
            for (index, stroke) in line.strokes.enumerated() {
                ink.append(InkStroke(
                    stroke: Stroke(points: transform(stroke.points)), drawing: drawing,
                    symbols: index == 0 ? line.symbols : [], isEpsilon: index == 0 && line.isEpsilon,
                    name: index == 0 ? line.name : nil))
            }
        }
        var cache = ClassificationCache()
        return try SketchReader.read(ink, classifier: classifier, cache: &cache).sketch
    }

    static let transforms: [Transform] = [
        mapped("scaled ×0.5", { $0 * 0.5 }, inverse: { $0 * 2 }),
        mapped("scaled ×2", { $0 * 2 }, inverse: { $0 * 0.5 }),
        mapped("translated", { $0 + SketchPoint(1234.5, -678.25) }, inverse: { $0 - SketchPoint(1234.5, -678.25) }),
        Transform(name: "half the point density", points: halfDensity, inverse: { $0 }),
        Transform(name: "double the point density", points: doubleDensity, inverse: { $0 }),
        mapped("mirrored", { SketchPoint(1000 - $0.x, $0.y) }, inverse: { SketchPoint(1000 - $0.x, $0.y) }),
    ]

    @Test(.enabled(if: data != nil, Comment(rawValue: SharedDataset.absence("fa-diagrams"))),
          arguments: transforms.indices)
    func sameAutomatonWhenTheInkIsTransformed(_ transformIndex: Int) throws {
        let classifier = try Self.classifier.get()
        let transform = Self.transforms[transformIndex]
        #expect(Self.diagrams.count == 22, "fa-diagrams should hold 22 diagrams, found \(Self.diagrams.count)")
        for diagram in Self.diagrams {
            let original = try Self.read(diagram.lines, { $0 }, classifier: classifier)
            let anchors = original.states.map(\.center)
            let want = Self.automaton(original, anchors: anchors, inverse: { $0 })
            let transformed = try Self.read(diagram.lines, transform.points, classifier: classifier)
            let got = Self.automaton(transformed, anchors: anchors, inverse: transform.inverse)
            #expect(got == want, """
                \(diagram.name) \(transform.name): \
                missing \(want.filter { !got.contains($0) }), extra \(got.filter { !want.contains($0) })
                """)
        }
    }
}
