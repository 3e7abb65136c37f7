import ArgumentParser
import Foundation
import StrokeImage
import StrokeKit

/// `strokekit predict`: label and class probabilities of images.
struct PredictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Classify PNG images with a model.")

    @Option(help: ArgumentHelp("Model file (safetensors).", valueName: "file"))
    var model: String

    @Argument(help: ArgumentHelp("PNG images to classify (any size: aspect-fit into 28x28).", valueName: "image.png"))
    var images: [String]

    @Flag(help: "Print one JSON object per image.")
    var json = false

    func validate() throws {
        guard !images.isEmpty else { throw ValidationError("give at least one image") }
    }

    func run() throws {
        let classifier = try ShapeClassifier(contentsOf: URL(fileURLWithPath: model))
        for path in images {
            var image = try PNG.read(contentsOf: URL(fileURLWithPath: path))
            if image.isDarkInkOnLight {
                Terminal.warn(["\(path): dark ink on a light background; inverted (the model expects white on black)"])
                image = image.inverted()
            }
            if image.width != 28 || image.height != 28 {
                Terminal.warn(["\(path): \(image.width)x\(image.height), aspect-fit into 28x28"])
                image = image.aspectFit(into: 28)
            }
            let result = try classifier.classify(image)
            printClassification(result, source: path, classes: classifier.classes, json: json)
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
