import ArgumentParser
import Foundation
import StrokeSupport
import StrokeData
import StrokeExport
import StrokeKit
import StrokeModelFile

/// `strokekit export`: a model file as ONNX or Core ML.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a model file to ONNX (opset 13) or Core ML (.mlmodel, iOS 13+).",
        discussion: """
            ONNX: input 'image' float32 (N, 1, 28, 28), pixel/255; outputs 'probabilities' and \
            'logits' (N, classes). Core ML: a neural-network classifier with a 28x28 grayscale \
            image input 'image' and outputs 'classLabel' and 'classProbabilities'. Both carry the \
            classes, the reject rule and the model's provenance as metadata. Weights are exported \
            as float32 (float16 model files are widened exactly). An existing output file is \
            replaced atomically.

            --check-data DIR --check-output FILE.json also writes StrokeKit's own inputs and \
            probabilities for every image of a folder-per-class dataset, for scripts/check-exports.sh.
            """)

    @Option(help: ArgumentHelp("Model file (safetensors).", valueName: "file"))
    var model: String

    @Option(help: ArgumentHelp("onnx or coreml.", valueName: "format"))
    var format: ExportFormat

    @Option(help: ArgumentHelp("The exported file (.onnx or .mlmodel).", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("Dataset folder whose images go into --check-output.", valueName: "dir"))
    var checkData: String?

    @Option(help: ArgumentHelp("Where to write StrokeKit's inputs and probabilities (JSON).", valueName: "file.json"))
    var checkOutput: String?

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
        guard (checkData == nil) == (checkOutput == nil) else {
            throw ValidationError("--check-data and --check-output go together")
        }
    }

    func run() throws {
        let exporter = try ModelExporter(contentsOf: URL(fileURLWithPath: model))
        let size = try exporter.write(format, to: URL(fileURLWithPath: output))
        if let checkData, let checkOutput {
            let dataset = try LabeledImageDataset(root: URL(fileURLWithPath: checkData))
            Terminal.warn(dataset.warnings)
            let bytes = try ReferenceOutputs.json(
                classifier: ShapeClassifier(model: exporter.model),
                images: dataset.samples.map { (source: $0.url.path, image: $0.image) })
            do {
                try AtomicFile.write(bytes, to: URL(fileURLWithPath: checkOutput))
            } catch let error as ModelFileError {
                throw ClassifierError.modelFile(error)
            }
        }
        let weights: String
        switch exporter.storedPrecision {
        case .float32: weights = "float32"
        case .float16: weights = "float32 (widened from the file's float16)"
        case .int8: weights = "float32 (dequantized from the file's int8)"
        }
        if json {
            try printJSON([
                "model": model, "format": format.rawValue, "output": output, "bytes": size,
                "classes": exporter.model.metadata.classes, "architecture": exporter.model.metadata.architecture,
                "weights": weights,
            ] as [String: Any])
        } else {
            print("\(output): \(format.rawValue), \(exporter.model.metadata.architecture), "
                + "classes \(exporter.model.metadata.classes.joined(separator: ", ")), \(weights) weights, \(size) bytes")
        }
    }
}

extension ExportFormat: ExpressibleByArgument {}
