import ArgumentParser
import Foundation
import StrokeKit
import StrokeModelFile
import StrokeNN

/// `strokekit inspect FILE`: what a model file holds, checked the way the classifier loads it.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a model file's metadata, classes, layers and tensors.",
        discussion: """
            The file is checked as the classifier loads it (layout, checksum, metadata, input spec, \
            tensor shapes); a file that fails is reported on stderr with a non-zero exit code.

            A file without a checksum is shown, with a warning: the classifier refuses it.
            """)

    @Argument(help: "The model file (.safetensors).")
    var file: String

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        let url = URL(fileURLWithPath: file)
        let safeTensors: SafeTensorsFile
        do {
            safeTensors = try SafeTensorsFile.read(contentsOf: url)
        } catch let error as ModelFileError {
            throw ClassifierError.modelFile(error)
        }
        let model = try TrainedModel.load(file: safeTensors)
        let fileSize = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
        let layers = layerRows(model.network)
        let tensors = safeTensors.tensors.map { tensor in
            (name: tensor.name, shape: tensor.shape, dtype: safeTensors.storedDTypes[tensor.name]?.rawValue ?? "?")
        }

        if safeTensors.verifiedChecksum == nil {
            printToStandardError("warning: \(file) carries no \(SafeTensorsFile.checksumKey); "
                + "ShapeClassifier refuses it (re-export the model with `strokekit train`)")
        }
        if json {
            let object: [String: Any] = [
                "file": file,
                "file_size": fileSize.map { $0 as Any } ?? NSNull(),
                "checksum_verified": safeTensors.verifiedChecksum != nil,
                "checksum": safeTensors.verifiedChecksum.map { $0 as Any } ?? NSNull(),
                "metadata": safeTensors.metadata,
                "classes": model.metadata.classes,
                "architecture": model.metadata.architecture,
                "layers": layers.map { ["layer": $0.summary, "output_shape": $0.outputShape] as [String: Any] },
                "tensors": tensors.map { ["name": $0.name, "shape": $0.shape, "dtype": $0.dtype] as [String: Any] },
                "parameter_count": model.network.parameterCount,
            ]
            try printJSON(object)
            return
        }

        print("file:         \(file)" + (fileSize.map { " (\($0) bytes)" } ?? ""))
        print("checksum:     " + (safeTensors.verifiedChecksum.map { "verified (SHA-256 \($0))" } ?? "missing"))
        print("classes:      \(model.metadata.classes.joined(separator: ", "))")
        print("architecture: \(model.metadata.architecture)")
        print("parameters:   \(model.network.parameterCount)")
        print("metadata:")
        let keyWidth = safeTensors.metadata.keys.map(\.count).max() ?? 0
        for (key, value) in safeTensors.metadata.sorted(by: { $0.key < $1.key }) {
            print("  \(key.padding(toLength: keyWidth, withPad: " ", startingAt: 0))  \(value)")
        }
        print("layers (output shape per example):")
        let layerWidth = layers.map(\.summary.count).max() ?? 0
        for row in layers {
            let shape = row.outputShape.map(String.init).joined(separator: "x")
            print("  \(row.summary.padding(toLength: layerWidth, withPad: " ", startingAt: 0))  \(shape)")
        }
        print("tensors:")
        let nameWidth = tensors.map(\.name.count).max() ?? 0
        for tensor in tensors {
            let shape = "[" + tensor.shape.map(String.init).joined(separator: ", ") + "]"
            print("  \(tensor.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0))  \(tensor.dtype)  \(shape)")
        }
    }

    /// Each layer's summary and its output shape for one example: (C, H, W) for feature
    /// maps, (features) after flattening.
    func layerRows(_ network: Network) -> [(summary: String, outputShape: [Int])] {
        // Layers see channel-major batches (C, N, H, W) until Flatten makes them (N, features).
        var shape = [network.inputChannels, 1, network.inputHeight, network.inputWidth]
        return network.layers.map { layer in
            shape = layer.outputShape(for: shape)
            let perExample = shape.count == 4 ? [shape[0], shape[2], shape[3]] : Array(shape.dropFirst())
            return (layer.summary, perExample)
        }
    }

    private func printToStandardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
