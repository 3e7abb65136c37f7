import ArgumentParser
import Foundation
import InkML
import StrokeImage
import StrokeKit
import StrokeTraining

/// `strokekit predict`: label and class probabilities of images or stroke drawings.
struct PredictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Classify PNG images, QuickDraw ndjson drawings or InkML ink with a model.",
        discussion: """
            With --strokes, every drawing of the ndjson file is rasterized as the training \
            images were and classified; results name the file, line and key_id. An InkML \
            file's drawings are its outermost trace groups, and each trace outside a group.
            """)

    @Option(help: ArgumentHelp("Model file (safetensors); default: the bundled model.", valueName: "file"))
    var model: String?

    @Argument(help: ArgumentHelp("PNG images to classify (any size: aspect-fit into 28x28).", valueName: "image.png"))
    var images: [String] = []

    @Option(help: ArgumentHelp("QuickDraw ndjson or InkML file: classify each drawing.", valueName: "file.ndjson|file.inkml"))
    var strokes: String?

    @Flag(help: "With --strokes: skip malformed lines with a warning instead of stopping.")
    var skipBad = false

    @Option(help: ArgumentHelp("Invert black-on-white images: auto (when mean > 127, with a warning), no, yes.",
                               valueName: "auto|no|yes"))
    var invert: InversionPolicy = .auto

    @Flag(help: "Print one JSON object per image or drawing.")
    var json = false

    func validate() throws {
        guard !images.isEmpty || strokes != nil else { throw ValidationError("give PNG images or --strokes FILE.ndjson") }
    }

    func run() throws {
        let classifier = try loadClassifier(modelPath: model)
        if let strokes { try predictStrokes(strokes, classifier: classifier) }
        for path in images {
            let (image, warnings) = try ImagePreparation.preparePNG(
                contentsOf: URL(fileURLWithPath: path), side: ModelInput.side, invert: invert)
            Terminal.warn(warnings)
            let result = try classifier.classify(image)
            printClassification(result, source: path, classes: classifier.classes, json: json)
        }
    }

    private func predictStrokes(_ path: String, classifier: ShapeClassifier) throws {
        let url = URL(fileURLWithPath: path)
        if let head = FileHandle(forReadingAtPath: path).flatMap({ try? $0.read(upToCount: 64) }), InkML.looksLikeXML(head) {
            let drawings = InkML.drawings(try InkML.read(contentsOf: url))
            let results = try classifier.classify(strokeBatch: drawings.map(\.strokes))
            for (number, (drawing, result)) in zip(drawings, results).enumerated() {
                var extra: [String: Any] = ["drawing": number + 1, "line": drawing.firstTrace.line]
                if let id = drawing.firstTrace.id { extra["trace"] = id }
                printClassification(result, source: "\(path):\(drawing.firstTrace.line)", classes: classifier.classes,
                                    json: json, extra: extra)
            }
            return
        }
        let (drawings, warnings) = try QuickDraw.read(contentsOf: url, skipBad: skipBad)
        Terminal.warn(warnings)
        let results = try classifier.classify(strokeBatch: drawings.map(\.strokes), frames: drawings.map(StrokeExamples.frame(of:)))
        for (drawing, result) in zip(drawings, results) {
            var extra: [String: Any] = ["line": drawing.lineNumber]
            if let keyID = drawing.keyID { extra["key_id"] = keyID }
            if let word = drawing.word { extra["word"] = word }
            printClassification(result, source: StrokeExamples.sourceName(drawing, file: path),
                                classes: classifier.classes, json: json, extra: extra)
        }
    }
}

/// One classification as a JSON line or a readable line.
func printClassification(_ result: Classification, source: String, classes: [String], json: Bool,
                         extra: [String: Any] = [:]) {
    if json {
        var object: [String: Any] = [
            "source": source, "label": result.label, "confidence": Double(result.confidence),
            "probabilities": Dictionary(uniqueKeysWithValues: result.probabilities.map { ($0.key, Double($0.value)) }),
            "rejected": result.isRejected,
        ]
        object.merge(extra) { _, new in new }
        try? printJSON(object)
    } else {
        let probabilities = classes.map { "\($0) \(String(format: "%.3f", result.probabilities[$0] ?? 0))" }
            .joined(separator: ", ")
        let verdict = result.isRejected ? "rejected (closest: \(result.label))" : result.label
        print("\(source): \(verdict) \(String(format: "%.1f%%", result.confidence * 100))  [\(probabilities)]")
    }
}
