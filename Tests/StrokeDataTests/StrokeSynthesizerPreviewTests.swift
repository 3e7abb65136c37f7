import Foundation
import StrokeData
import StrokeImage
import Testing

/// Not a check: writes sample drawings of every kind as JSON (`[[Stroke]]`, one file per kind)
/// into the folder named by `STROKEKIT_SYNTH_PREVIEW`, for rendering and looking at by eye.
/// Run with `STROKEKIT_SYNTH_PREVIEW=/tmp/synth swift test --filter StrokeSynthesizerPreview`.
@Suite struct StrokeSynthesizerPreviewTests {
    static let folder = ProcessInfo.processInfo.environment["STROKEKIT_SYNTH_PREVIEW"]

    @Test(.enabled(if: folder != nil, "set STROKEKIT_SYNTH_PREVIEW=DIR to write sample drawings"))
    func writePreviewDrawings() throws {
        let folder = URL(fileURLWithPath: try #require(Self.folder))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var synthesizer = StrokeSynthesizer(seed: 2024)
        var drawings: [String: [[Stroke]]] = [:]
        for _ in 0..<32 {
            for kind in StrokeSynthesizer.ShapeKind.allCases {
                drawings[kind.rawValue, default: []].append(synthesizer.shape(kind))
            }
            for kind in StrokeSynthesizer.NonShapeKind.allCases {
                drawings[kind.rawValue, default: []].append(synthesizer.nonShape(kind))
            }
        }
        // A scripted sketch: two states, a transition between them, a self-loop on each.
        var sketch: [Stroke] = []
        sketch.append(synthesizer.circle(center: SIMD2(150, 200), radius: 50))
        sketch.append(synthesizer.circle(center: SIMD2(450, 200), radius: 50))
        sketch.append(synthesizer.arrow(from: SIMD2(205, 200), to: SIMD2(395, 200), head: .open))
        sketch.append(synthesizer.arrow(from: SIMD2(410, 240), to: SIMD2(190, 240), head: .open, bend: 0.25))
        sketch.append(synthesizer.selfLoop(stateCenter: SIMD2(150, 200), stateRadius: 50, angle: -Double.pi / 2))
        sketch.append(synthesizer.selfLoop(stateCenter: SIMD2(450, 200), stateRadius: 50, angle: 0.3))
        drawings["sketch"] = [synthesizer.inSequence(sketch)]
        let encoder = JSONEncoder()
        for (name, list) in drawings {
            try encoder.encode(list).write(to: folder.appendingPathComponent("\(name).json"))
        }
    }
}
