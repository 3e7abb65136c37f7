import Foundation
import StrokeModelFile

/// Builders for hand-made safetensors bytes and for checking which error a decode throws.
enum Fixtures {
    static let source = "fixture.safetensors"

    /// The 8-byte little-endian length, then `header`, then `data`.
    /// `announcedLength` overrides the length field to build lying files.
    static func rawFile(header: String, data: [UInt8] = [], announcedLength: UInt64? = nil) -> [UInt8] {
        let headerBytes = Array(header.utf8)
        let length = announcedLength ?? UInt64(headerBytes.count)
        return withUnsafeBytes(of: length.littleEndian) { Array($0) } + headerBytes + data
    }

    /// Little-endian F32 bytes of `values`.
    static func float32Bytes(_ values: [Float]) -> [UInt8] {
        values.flatMap { value in withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
    }

    /// A small model-like file: two tensors and some metadata.
    static let smallFile = SafeTensorsFile(
        tensors: [
            NamedTensor(name: "conv1.weight", shape: [2, 1, 3, 3], values: (0..<18).map { Float($0) * 0.125 - 1 }),
            NamedTensor(name: "conv1.bias", shape: [2], values: [0.5, -0.25]),
            NamedTensor(name: "dense1.weight", shape: [3, 2], values: [1, 2, 3, 4, 5, 6]),
        ],
        metadata: ["strokekit.format": "strokekit-classifier", "note": "fixture"],
        source: source)

    /// The name of the enum case of `error`, e.g. "invalidOffsets".
    static func caseName(_ error: ModelFileError) -> String {
        Mirror(reflecting: error).children.first?.label ?? "\(error)"
    }

    /// The `ModelFileError` that decoding `bytes` throws, or nil when it succeeds.
    /// Any other error type is returned as a failing placeholder so tests see it.
    static func decodeError(_ bytes: [UInt8], requireChecksum: Bool = false) -> ModelFileError? {
        do {
            _ = try SafeTensorsFile.decode(bytes, source: source, requireChecksum: requireChecksum)
            return nil
        } catch let error as ModelFileError {
            return error
        } catch {
            return .cannotRead(path: "unexpected error type", reason: "\(error)")
        }
    }
}
