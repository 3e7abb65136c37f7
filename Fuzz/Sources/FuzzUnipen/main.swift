import FuzzDriver
import StrokeData
import StrokeImage

// A UNIPEN data file and the files it may include: the input split at zero bytes is the data
// file, then include files named i0, i1, ...; then each segment rasterized as the classifier would.
runFuzzer { input in
    let parts = input.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
    var files: [String: [UInt8]] = [:]
    for (index, part) in parts.dropFirst().enumerated() { files["i\(index)"] = part }
    // Small limits keep each input fast; the limit checks themselves are what is exercised.
    let limits = Unipen.Limits(maximumFileBytes: 1 << 16, maximumIncludeDepth: 4, maximumIncludes: 16,
                               maximumPoints: 50_000, maximumComponents: 5_000, maximumSegments: 500,
                               maximumPointsPerSegment: 10_000)
    for axis in [Unipen.VerticalAxis.up, .down] {
        let document = try? Unipen.parse(parts[0], source: "fuzz.dat", verticalAxis: axis, limits: limits,
                                         skipBadSegments: axis == .up) { path in
            guard let bytes = files[path] else { throw UnipenError.unreadable(file: path, reason: "no such file") }
            return bytes
        }
        let rasterizer = Rasterizer()
        let segments = Array(document?.segments.prefix(8) ?? [])
        for segment in segments { _ = rasterizer.rasterize(segment.strokes) }
        // And framed by their writer's height, as the label model's training and evaluation draw them.
        let characters = segments.map {
            UnipenCharacter(label: $0.label, strokes: $0.strokes, category: "1a", site: "fuzz",
                            writer: "fuzz/\($0.writer ?? "")", source: "fuzz.dat:\($0.line)")
        }
        _ = UnipenCorpus.dataset(characters, classes: UnipenCorpus.labelClasses, parts: Set(UnipenCorpus.Part.allCases),
                                 framing: .characterDefault)
    }
}
