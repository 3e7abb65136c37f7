import Foundation
import StrokeKit

/// The model file a command uses: `modelPath`, or the bundled default model.
func modelURL(_ modelPath: String?) throws -> URL {
    if let modelPath { return URL(fileURLWithPath: modelPath) }
    do {
        return try ShapeClassifier.bundledModelURL()
    } catch ClassifierError.bundledModelMissing(let resource) {
        throw CLIError("no --model given, and this build has no bundled default model (\(resource)); "
                       + "pass --model FILE, e.g. one written by `strokekit train`")
    }
}

/// The classifier a command uses: the model at `modelPath`, or the bundled default model.
func loadClassifier(modelPath: String?) throws -> ShapeClassifier {
    try ShapeClassifier(contentsOf: modelURL(modelPath))
}
