import StrokeKit

/// Why no classifier could be loaded.
struct ClassifierUnavailable: Error, CustomStringConvertible {
    var modelPath: String?

    var description: String {
        "no classifier available yet in this build of strokekit"
            + (modelPath.map { " (cannot load \($0))" } ?? "")
    }
}

/// The classifier `recognize` uses: the model at `modelPath`, or the bundled default model.
/// TODO(lead): replace this body with the CNN loader once StrokeKit's classifier exists.
func loadClassifier(modelPath: String?) throws -> any StrokeClassifying {
    throw ClassifierUnavailable(modelPath: modelPath)
}
