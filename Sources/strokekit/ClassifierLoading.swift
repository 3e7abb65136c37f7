import Foundation
import StrokeKit

/// The classifier a command uses: the model at `modelPath`, or the bundled default model.
func loadClassifier(modelPath: String?) throws -> ShapeClassifier {
    if let modelPath {
        return try ShapeClassifier(contentsOf: URL(fileURLWithPath: modelPath))
    }
    return try ShapeClassifier.bundledDefault()
}
