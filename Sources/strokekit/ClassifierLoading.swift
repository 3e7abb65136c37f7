import ArgumentParser
import StrokeKit

/// The classifier `recognize` uses: the model at `modelPath`, or the bundled default model.
/// TODO(lead): replace this body with the CNN loader once StrokeKit's classifier exists.
func loadClassifier(modelPath: String?) throws -> any StrokeClassifying {
    throw ValidationError(
        "no classifier available yet in this build of strokekit"
            + (modelPath.map { " (cannot load \($0))" } ?? ""))
}
