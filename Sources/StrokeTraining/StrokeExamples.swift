import Foundation
import StrokeData
import StrokeImage
import StrokeModelFile
import StrokeSupport

/// A stroke corpus (QuickDraw ndjson drawings) as labelled 28x28 images: examples for the
/// evaluator, a folder-per-class PNG dataset on disk (MNIST Maker for any machine), and
/// synthetic drawings to fill such a corpus. The label of a drawing is its `word`.
public enum StrokeExamples {
    /// Examples and what was set aside, from `examples(from:classes:...)`.
    public struct Conversion: Sendable {
        /// Drawings whose word is one of the classes, labelled with its index.
        public var examples: LabeledExamples
        /// Drawings whose word is in `nonShapeWords`: images to check the reject option on,
        /// outside the classes. Labels are 0 and mean nothing.
        public var nonShapes: LabeledExamples
        /// One line per skipped drawing (only with `ignoreUnknown`).
        public var warnings: [String]
    }

    /// Where a drawing is named in sources, warnings and errors: `file:line` plus the key.
    public static func sourceName(_ drawing: QuickDrawDrawing, file: String) -> String {
        "\(file):\(drawing.lineNumber)" + (drawing.keyID.map { " (\($0))" } ?? "")
    }

    /// The drawing property that gives a drawing's frame, the height of its line of writing
    /// in the drawing's units (`CharacterFrame`); a drawing without it stands alone (aspect-fit).
    public static let frameHeightProperty = "frame_height"

    /// The drawing property that gives a drawing's frame as the heights of its page's labels
    /// (a diagram's, each label's box): the frame is their usual height,
    /// `CharacterFrame(labelHeights:)`.
    public static let frameLabelHeightsProperty = "frame_label_heights"

    /// The frame a drawing names with `frame_height` (a positive number), else with
    /// `frame_label_heights` (a list of numbers: the usual height of its page's labels),
    /// or nil (standing alone).
    public static func frame(of drawing: QuickDrawDrawing) -> CharacterFrame? {
        if case .number(let height)? = drawing.properties[frameHeightProperty], height.isFinite, height > 0 {
            return CharacterFrame(height: height)
        }
        guard case .array(let values)? = drawing.properties[frameLabelHeightsProperty] else { return nil }
        let heights = values.compactMap { value -> Double? in
            if case .number(let height) = value { return height }
            return nil
        }
        return heights.count == values.count ? CharacterFrame(labelHeights: heights) : nil
    }

    /// Rasterizes every drawing and labels it by its `word`'s index in `classes`. With a
    /// reference-height `framing` (a character model's), each drawing is framed by its
    /// `frame_height` (or `frame_label_heights`), or else stands alone, as `ShapeClassifier.classify(_:frame:)` does.
    ///
    /// A drawing whose word is in `nonShapeWords` (e.g. `none` for a model with only a
    /// confidence threshold) goes to `nonShapes`. Any other drawing whose word is missing or not
    /// a class throws `StrokeExamplesError.unknownWord` naming its line, unless `ignoreUnknown`,
    /// which skips it with a warning.
    public static func examples(
        from drawings: [QuickDrawDrawing], source: String, classes: [String],
        nonShapeWords: Set<String> = [], ignoreUnknown: Bool = false, rasterizer: Rasterizer = Rasterizer(),
        framing: InputFraming = .aspectFit
    ) throws -> Conversion {
        var conversion = Conversion(
            examples: LabeledExamples(images: [], labels: [], sources: []),
            nonShapes: LabeledExamples(images: [], labels: [], sources: []), warnings: [])
        let classIndex = Dictionary(classes.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for drawing in drawings {
            let name = sourceName(drawing, file: source)
            if let word = drawing.word, let label = classIndex[word] {
                conversion.examples.images.append(rasterizer.rasterize(drawing.strokes, framing: framing, frame: frame(of: drawing)))
                conversion.examples.labels.append(label)
                conversion.examples.sources.append(name)
            } else if let word = drawing.word, nonShapeWords.contains(word) {
                conversion.nonShapes.images.append(rasterizer.rasterize(drawing.strokes, framing: framing, frame: frame(of: drawing)))
                conversion.nonShapes.labels.append(0)
                conversion.nonShapes.sources.append(name)
            } else {
                let error = StrokeExamplesError.unknownWord(
                    source: source, line: drawing.lineNumber, word: drawing.word, classes: classes)
                guard ignoreUnknown else { throw error }
                conversion.warnings.append("\(error.problem); skipped")
            }
        }
        return conversion
    }

    // MARK: - A PNG dataset from strokes

    /// Folder for drawings without a `word` when no default word is given.
    public static let unlabeledFolder = "unlabeled"

    /// One PNG of a dataset being made: its path below the dataset folder and its image.
    public struct DatasetFile: Sendable {
        /// `<word>/<name>.png`, both parts safe as file names.
        public var relativePath: String
        public var image: GrayImage
    }

    /// The files `writeDataset` writes: one `side x side` image per drawing, in
    /// `<word>/<key>.png`. Words and keys are made safe as file names (anything but letters,
    /// digits, `-`, `_`, `.` and, in words, spaces becomes `_`; no leading dot). A drawing
    /// without `key_id` is named `line-N`; a name already taken gets `-line-N` appended.
    /// Drawings without `word` go to `defaultWord`, or to `unlabeled/` with a warning.
    public static func datasetFiles(
        for drawings: [QuickDrawDrawing], defaultWord: String? = nil, rasterizer: Rasterizer = Rasterizer()
    ) -> (files: [DatasetFile], warnings: [String]) {
        var files: [DatasetFile] = []
        var taken: Set<String> = []
        var unlabeledLines: [Int] = []
        for drawing in drawings {
            let word: String
            if let drawingWord = drawing.word {
                word = drawingWord
            } else if let defaultWord {
                word = defaultWord
            } else {
                word = unlabeledFolder
                unlabeledLines.append(drawing.lineNumber)
            }
            let folder = safeFileName(word, allowingSpaces: true)
            var name = drawing.keyID.map { safeFileName($0, allowingSpaces: false) } ?? "line-\(drawing.lineNumber)"
            if taken.contains("\(folder)/\(name)") {
                let base = name + "-line-\(drawing.lineNumber)"
                name = base
                var copy = 1
                while taken.contains("\(folder)/\(name)") { copy += 1; name = "\(base)-\(copy)" }
            }
            taken.insert("\(folder)/\(name)")
            files.append(DatasetFile(relativePath: "\(folder)/\(name).png", image: rasterizer.rasterize(drawing.strokes)))
        }
        var warnings: [String] = []
        if !unlabeledLines.isEmpty {
            let shown = unlabeledLines.prefix(10).map(String.init).joined(separator: ", ")
            warnings.append("\(unlabeledLines.count) drawing(s) have no \"word\" (line \(shown)"
                + (unlabeledLines.count > 10 ? ", ..." : "") + "): written to \(unlabeledFolder)/; "
                + "give a default word (--word) to name their class")
        }
        return (files, warnings)
    }

    /// Writes `files` below `directory` (created if needed, with one folder per word), each
    /// PNG atomically. Returns the URLs written, in order.
    public static func writeDataset(_ files: [DatasetFile], to directory: URL) throws -> [URL] {
        var written: [URL] = []
        written.reserveCapacity(files.count)
        var madeFolders: Set<String> = []
        for file in files {
            let url = directory.appendingPathComponent(file.relativePath)
            let folder = url.deletingLastPathComponent()
            if madeFolders.insert(folder.path).inserted {
                do {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                } catch {
                    throw StrokeExamplesError.cannotCreateFolder(path: folder.path, reason: error.localizedDescription)
                }
            }
            try AtomicFile.write(PNG.encode(file.image), to: url)
            written.append(url)
        }
        return written
    }

    /// `text` with every character that is not an ASCII letter or digit, `-`, `_`, `.` (or a
    /// space, when allowed) replaced by `_`, and a leading `.` too, so it names a file inside
    /// its folder and never `..` or a hidden file. Empty text gives `_`.
    public static func safeFileName(_ text: String, allowingSpaces: Bool) -> String {
        var result = String(text.unicodeScalars.prefix(120).map { scalar -> Character in
            let value = scalar.value
            let isSafe = (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
                || scalar == "-" || scalar == "_" || scalar == "." || (allowingSpaces && scalar == " ")
            return isSafe ? Character(scalar) : "_"
        })
        if result.isEmpty { return "_" }
        if result.hasPrefix(".") { result = "_" + result.dropFirst() }
        return result
    }

    // MARK: - Synthetic drawings

    /// The word of synthetic non-shapes (with a `kind` property naming the figure).
    public static let nonShapeWord = SyntheticExamples.rejectClass

    /// The kinds `synthesize` draws: the shape classes, then `none`.
    public static let synthesizableKinds = StrokeSynthesizer.ShapeKind.allCases.map(\.rawValue) + [nonShapeWord]

    /// `count` synthetic drawings of each of `kinds` (`arrow`, `circle`, `cycle`, or `none` for
    /// non-shapes), in that order, with timestamps. `word` is the kind, `key_id` is
    /// `synth-<seed>-<kind>-<n>`, and non-shapes carry `"kind"` (e.g. `letterS`). Coordinates
    /// are rounded to 0.01 units and times to 0.1 ms: finer digits only make the file longer.
    /// Throws `StrokeExamplesError.unknownKind` for any other kind.
    public static func synthesize(kinds: [String], count: Int, seed: UInt64) throws -> [QuickDrawDrawing] {
        for kind in kinds where !synthesizableKinds.contains(kind) {
            throw StrokeExamplesError.unknownKind(kind)
        }
        var synthesizer = StrokeSynthesizer(seed: seed)
        var drawings: [QuickDrawDrawing] = []
        drawings.reserveCapacity(kinds.count * max(count, 0))
        for kind in kinds {
            for index in 0..<max(count, 0) {
                var drawing = QuickDrawDrawing(strokes: [], word: kind, keyID: "synth-\(seed)-\(kind)-\(index)")
                if let shape = StrokeSynthesizer.ShapeKind(rawValue: kind) {
                    drawing.strokes = synthesizer.shape(shape)
                } else {
                    let (nonShape, strokes) = synthesizer.randomNonShape()
                    drawing.strokes = strokes
                    drawing.properties["kind"] = .string(nonShape.rawValue)
                }
                drawing.strokes = drawing.strokes.map(rounded)
                drawings.append(drawing)
            }
        }
        return drawings
    }

    private static func rounded(_ stroke: Stroke) -> Stroke {
        Stroke(points: stroke.points.map { point in
            StrokePoint(x: (point.x * 100).rounded() / 100, y: (point.y * 100).rounded() / 100,
                        time: point.time.map { ($0 * 10).rounded() / 10 })
        })
    }
}

/// Why a stroke corpus could not be turned into examples or a dataset.
public enum StrokeExamplesError: Error, CustomStringConvertible, Equatable {
    /// The drawing at `line` has no `word`, or one that is not among `classes`.
    case unknownWord(source: String, line: Int, word: String?, classes: [String])
    /// A synthetic kind other than arrow, circle, cycle, none.
    case unknownKind(String)
    case cannotCreateFolder(path: String, reason: String)

    /// The message without a hint: `source:line: problem`.
    public var problem: String {
        switch self {
        case let .unknownWord(source, line, word, classes):
            let found = word.map { "word \"\($0)\" is not one of the model's classes" } ?? "no \"word\" key"
            return "\(source):\(line): \(found) (\(classes.joined(separator: ", ")))"
        case .unknownKind, .cannotCreateFolder:
            return description
        }
    }

    public var description: String {
        switch self {
        case .unknownWord:
            return "\(problem); give --ignore-unknown to skip such drawings"
        case let .unknownKind(kind):
            return "unknown kind '\(kind)': use \(StrokeExamples.synthesizableKinds.joined(separator: ", "))"
        case let .cannotCreateFolder(path, reason):
            return "\(path): cannot create the folder (\(reason))"
        }
    }
}
