import Foundation
import StrokeData
import StrokeImage
import StrokeTraining
import Testing

/// A small QuickDraw corpus: a triangle-ish arrow, a square "circle", an unknown word, no word.
private let corpus = """
    {"word": "arrow", "key_id": 11, "drawing": [[[0, 10, 20], [0, 5, 0]]]}
    {"word": "circle", "key_id": "c/../1", "drawing": [[[0, 10, 10, 0, 0], [0, 0, 10, 10, 0]]]}
    {"word": "banana", "drawing": [[[0, 5], [0, 9]]]}
    {"drawing": [[[3, 4, 9], [1, 7, 2]]]}
    {"word": "none", "kind": "letterS", "drawing": [[[0, 3, 0], [0, 4, 8]]]}
    """

private func drawings() throws -> [QuickDrawDrawing] {
    try QuickDraw.parse(corpus, source: "corpus.ndjson").drawings
}

@Suite struct StrokeExamplesTests {
    let classes = ["arrow", "circle", "cycle"]

    @Test func examplesAreLabelledByWordAndRasterizedLikeTheRasterizer() throws {
        let known = try drawings().filter { $0.word == "arrow" || $0.word == "circle" }
        let conversion = try StrokeExamples.examples(from: known, source: "corpus.ndjson", classes: classes)
        #expect(conversion.examples.labels == [0, 1])
        #expect(conversion.examples.sources == ["corpus.ndjson:1 (11)", "corpus.ndjson:2 (c/../1)"])
        #expect(conversion.examples.images[1] == Rasterizer().rasterize(known[1].strokes))
        #expect(conversion.nonShapes.count == 0 && conversion.warnings.isEmpty)
    }

    @Test func aDrawingsFrameIsItsHeightOrItsPagesLabelHeightsOrNone() throws {
        let lines = """
            {"word": "o", "frame_height": 12, "frame_label_heights": [1, 2, 3], "drawing": [[[0, 5], [0, 5]]]}
            {"word": "o", "frame_label_heights": [10, 30, 20, 5], "drawing": [[[0, 5], [0, 5]]]}
            {"word": "o", "frame_label_heights": [10, "x", 20], "drawing": [[[0, 5], [0, 5]]]}
            {"word": "o", "frame_label_heights": [10, 20], "drawing": [[[0, 5], [0, 5]]]}
            {"word": "o", "frame_height": -1, "drawing": [[[0, 5], [0, 5]]]}
            """
        let frames = try QuickDraw.parse(lines, source: "frames.ndjson").drawings.map(StrokeExamples.frame(of:))
        #expect(frames[0] == CharacterFrame(height: 12), "frame_height wins")
        #expect(frames[1] == CharacterFrame(labelHeights: [10, 30, 20, 5]))
        #expect(abs(try #require(frames[1]).height - 1.2 * 15) < 1e-12)
        #expect(frames[2] == nil, "a list with a non-number is no frame")
        #expect(frames[3] == nil, "two labels are too few to say what is usual")
        #expect(frames[4] == nil)
    }

    @Test func unknownWordThrowsNamingTheLine() throws {
        #expect(throws: StrokeExamplesError.unknownWord(source: "corpus.ndjson", line: 3, word: "banana", classes: classes)) {
            try StrokeExamples.examples(from: try drawings(), source: "corpus.ndjson", classes: classes)
        }
        let message = StrokeExamplesError.unknownWord(source: "f.ndjson", line: 3, word: "banana", classes: classes).description
        #expect(message.hasPrefix("f.ndjson:3: word \"banana\""), "message: \(message)")
    }

    @Test func ignoreUnknownSkipsMissingAndUnknownWordsWithOneWarningEach() throws {
        let conversion = try StrokeExamples.examples(
            from: try drawings(), source: "corpus.ndjson", classes: classes, ignoreUnknown: true)
        #expect(conversion.examples.labels == [0, 1])
        #expect(conversion.warnings.count == 3, "warnings: \(conversion.warnings)")   // banana, no word, none
        #expect(conversion.warnings[1].contains("corpus.ndjson:4: no \"word\""), "warnings: \(conversion.warnings)")
    }

    @Test func nonShapeWordsAreSetAsideNotLabelled() throws {
        let conversion = try StrokeExamples.examples(
            from: try drawings(), source: "corpus.ndjson", classes: classes, nonShapeWords: ["none"], ignoreUnknown: true)
        #expect(conversion.nonShapes.sources == ["corpus.ndjson:5"])
        #expect(conversion.examples.count == 2)
    }

    @Test func aClassNamedNoneLabelsNonShapes() throws {
        let conversion = try StrokeExamples.examples(
            from: try drawings(), source: "corpus.ndjson", classes: classes + ["none"], ignoreUnknown: true)
        #expect(conversion.examples.labels == [0, 1, 3])
    }

    @Test func datasetFilesUseSafeWordAndKeyNames() throws {
        let (files, warnings) = StrokeExamples.datasetFiles(for: try drawings())
        #expect(files.map(\.relativePath) == [
            "arrow/11.png", "circle/c_.._1.png", "banana/line-3.png", "unlabeled/line-4.png", "none/line-5.png",
        ])
        #expect(warnings.count == 1 && warnings[0].contains("line 4"), "warnings: \(warnings)")
        let named = StrokeExamples.datasetFiles(for: try drawings(), defaultWord: "dot")
        #expect(named.files[3].relativePath == "dot/line-4.png" && named.warnings.isEmpty)
    }

    @Test func safeFileNamesCannotLeaveTheirFolder() {
        #expect(StrokeExamples.safeFileName("..", allowingSpaces: false) == "_.")
        #expect(StrokeExamples.safeFileName("a/b\\c", allowingSpaces: false) == "a_b_c")
        #expect(StrokeExamples.safeFileName("the eiffel tower", allowingSpaces: true) == "the eiffel tower")
        #expect(StrokeExamples.safeFileName("the eiffel tower", allowingSpaces: false) == "the_eiffel_tower")
        #expect(StrokeExamples.safeFileName("", allowingSpaces: true) == "_")
    }

    @Test func repeatedKeysGetDistinctFileNames() {
        let stroke = Stroke([(0, 0), (1, 1)])
        let repeated = (1...3).map { _ in QuickDrawDrawing(strokes: [stroke], word: "arrow", keyID: "k", lineNumber: 7) }
        let paths = StrokeExamples.datasetFiles(for: repeated).files.map(\.relativePath)
        #expect(Set(paths).count == 3, "paths: \(paths)")
    }

    @Test func writtenDatasetDecodesToTheRasterizersImages() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strokekit-rasterize-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try drawings()
        let rasterizer = Rasterizer(pen: .sourceUnits(2))
        let (files, _) = StrokeExamples.datasetFiles(for: input, rasterizer: rasterizer)
        let written = try StrokeExamples.writeDataset(files, to: directory)
        #expect(written.map(\.path) == files.map { directory.appendingPathComponent($0.relativePath).path })
        for (drawing, url) in zip(input, written) {
            let decoded = try PNG.read(contentsOf: url)
            #expect(decoded == rasterizer.rasterize(drawing.strokes), "\(url.path) differs from the rasterizer's image")
        }
        let arrowFolder = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("arrow").path)
        #expect(arrowFolder == ["11.png"], "no temporary files are left: \(arrowFolder)")
    }

    @Test func synthesizedCorpusHasWordsKeysAndNonShapeKinds() throws {
        let drawings = try StrokeExamples.synthesize(kinds: ["circle", "none"], count: 3, seed: 5)
        #expect(drawings.map(\.word) == ["circle", "circle", "circle", "none", "none", "none"])
        #expect(Set(drawings.compactMap(\.keyID)).count == 6)
        #expect(drawings[0].properties["kind"] == nil)
        guard case .string(let kind)? = drawings[3].properties["kind"] else {
            Issue.record("non-shape has no string \"kind\": \(drawings[3].properties)")
            return
        }
        #expect(StrokeSynthesizer.NonShapeKind(rawValue: kind) != nil, "kind: \(kind)")
        // Round trip through ndjson, as `strokekit synth` writes it.
        let parsed = try QuickDraw.parse(QuickDraw.encode(drawings), source: "synth").drawings
        #expect(parsed.map(\.keyID) == drawings.map(\.keyID))
        #expect(try StrokeExamples.synthesize(kinds: ["circle", "none"], count: 3, seed: 5) == drawings)
    }

    @Test func synthesizeRejectsUnknownKinds() {
        #expect(throws: StrokeExamplesError.unknownKind("square")) {
            try StrokeExamples.synthesize(kinds: ["arrow", "square"], count: 1, seed: 0)
        }
    }
}
