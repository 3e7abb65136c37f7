import Foundation
import StrokeImage
import StrokeKit

/// StrokeKit's own network inputs and probabilities for a set of images, so that another
/// runtime (onnxruntime, a Core ML interpreter) can be fed the very same floats and
/// compared (`scripts/check-exports.sh`).
///
/// JSON object: `classes`, `sources` (one per image), `input_shape` (N, 1, 28, 28),
/// `inputs` (the N·784 floats `ModelInput` feeds the network) and `probabilities` (N·classes,
/// from `ShapeClassifier`), both base64 of little-endian float32, so every value is exact.
public enum ReferenceOutputs {
    /// The reference JSON for `images` (each `ModelInput.side`², white on black) classified
    /// by `classifier`.
    public static func json(classifier: ShapeClassifier, images: [(source: String, image: GrayImage)]) throws -> [UInt8] {
        let side = ModelInput.side
        var inputs = [Float](repeating: 0, count: images.count * side * side)
        inputs.withUnsafeMutableBufferPointer { buffer in
            for (index, entry) in images.enumerated() {
                ModelInput.fill(entry.image, into: buffer.baseAddress! + index * side * side)
            }
        }
        let classifications = try classifier.classify(images: images.map(\.image))
        let probabilities = classifications.flatMap { result in classifier.classes.map { result.probabilities[$0]! } }
        let object: [String: Any] = [
            "classes": classifier.classes,
            "sources": images.map(\.source),
            "input_shape": [images.count, 1, side, side],
            "inputs": base64(inputs),
            "probabilities": base64(probabilities),
        ]
        return [UInt8](try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
    }

    private static func base64(_ values: [Float]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 4)
        for value in values {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return Data(bytes).base64EncodedString()
    }
}
