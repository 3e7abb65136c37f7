import FuzzDriver
import StrokeImage

// QuickDraw ndjson drawings, then each drawing rasterized as the classifier would.
runFuzzer { input in
    let text = String(decoding: input, as: UTF8.self)
    guard let (drawings, _) = try? QuickDraw.parse(text, source: "fuzz.ndjson", skipBad: true) else { return }
    let rasterizer = Rasterizer()
    for drawing in drawings.prefix(8) { _ = rasterizer.rasterize(drawing.strokes) }
    _ = QuickDraw.encode(drawings)
}
