import Crypto
import Foundation
import StrokeSupport

/// A safetensors file in memory: named tensors plus a string-to-string metadata map.
///
/// Layout (see `docs/model-format.md`): an 8-byte little-endian header length N, N bytes of
/// UTF-8 JSON header padded with spaces to a multiple of 8, then the tensor data, each
/// tensor little-endian and row-major, stored contiguously in `tensors` order.
///
///     let file = try SafeTensorsFile.read(contentsOf: url, requireChecksum: true)
///     try file.validateShapes(expected: [("dense2.bias", [3]), ...])
///     let weights = file.tensor(named: "conv1.weight")
///
/// The encoder adds the SHA-256 of the data section as metadata `strokekit.tensors_sha256`;
/// the decoder verifies it when present and removes it from `metadata`.
public struct SafeTensorsFile: Sendable {
    /// The largest header accepted, as in the reference implementation (100 MB).
    public static let maximumHeaderLength = 100_000_000
    /// Largest file read, in bytes (1 GiB; the default model is 200 KB): a larger file is
    /// refused before it is read into memory.
    public static let maximumFileBytes = 1 << 30
    /// Most tensors in one file (a StrokeKit model has a few dozen).
    public static let maximumTensorCount = 10_000
    /// Metadata key of the lowercase hex SHA-256 of the data section as stored.
    public static let checksumKey = "strokekit.tensors_sha256"

    /// Names the file in error messages: its path, or "<memory>".
    public var source: String
    /// The `__metadata__` map, without `checksumKey`.
    public var metadata: [String: String]
    /// The tensors in file order (by data offset). Tensors stored as I8 hold their dequantized
    /// values; their `.scale` tensors are consumed and not listed.
    public var tensors: [NamedTensor]
    /// How each tensor was stored, for files that were read; empty for files built in memory.
    /// An I8 tensor is listed as `.int8`; its scale tensor is not listed (nor in `tensors`).
    public internal(set) var storedDTypes: [String: TensorDType] = [:]
    /// The checksum the file carried and that matched its data; nil when it carried none.
    public internal(set) var verifiedChecksum: String?

    public init(tensors: [NamedTensor], metadata: [String: String] = [:], source: String = "<memory>") {
        self.tensors = tensors
        self.metadata = metadata
        self.source = source
    }

    /// The tensor called `name`, if any.
    public func tensor(named name: String) -> NamedTensor? {
        tensors.first { $0.name == name }
    }

    /// Checks that the file holds exactly the expected tensors: each one present with exactly
    /// the expected shape, and no others. Throws `missingTensor`, `shapeMismatch` or
    /// `unexpectedTensor`, in that order of checking.
    public func validateShapes(expected: [(name: String, shape: [Int])]) throws {
        for (name, shape) in expected {
            guard let tensor = tensor(named: name) else {
                throw ModelFileError.missingTensor(source: source, tensor: name, expectedShape: shape)
            }
            guard tensor.shape == shape else {
                throw ModelFileError.shapeMismatch(source: source, tensor: name, expected: shape, found: tensor.shape)
            }
        }
        let expectedNames = Set(expected.map(\.name))
        if let extra = tensors.first(where: { !expectedNames.contains($0.name) }) {
            throw ModelFileError.unexpectedTensor(source: source, tensor: extra.name)
        }
    }
}

// MARK: - Files

extension SafeTensorsFile {
    /// Reads and checks the file at `url`. With `requireChecksum`, a file without
    /// `strokekit.tensors_sha256` is rejected (StrokeKit's own models always carry one).
    public static func read(contentsOf url: URL, requireChecksum: Bool = false) throws -> SafeTensorsFile {
        let bytes: [UInt8]
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
        if let size, size > maximumFileBytes {
            throw ModelFileError.fileTooLarge(source: url.path, size: size, limit: maximumFileBytes)
        }
        do {
            bytes = [UInt8](try Data(contentsOf: url))
        } catch {
            let reason = FileManager.default.fileExists(atPath: url.path)
                ? "\(error.localizedDescription)" : "no such file"
            throw ModelFileError.cannotRead(path: url.path, reason: reason)
        }
        return try decode(bytes, source: url.path, requireChecksum: requireChecksum)
    }

    /// Encodes the file and writes it atomically to `url` (see `AtomicFile`): a failure
    /// leaves any previous file at `url` unchanged.
    public func write(to url: URL, precision: TensorDType = .float32) throws {
        let bytes = try encode(precision: precision, source: url.path)
        try AtomicFile.write(bytes, to: url)
    }
}

// MARK: - Encoding

extension SafeTensorsFile {
    /// The file's bytes, every tensor stored with `precision`; with `.int8`, weights (rank 2
    /// and more) are quantized per output channel, each followed in the header by its F16
    /// `<name>.scale`, and the other tensors are F16 (see `Int8Quantization`).
    ///
    /// Throws (naming the tensor) for an empty, reserved or repeated name (a quantized
    /// weight's `.scale` name included), a shape that does not match the value count, a NaN
    /// or infinity, or a value F16 cannot hold: for F16 (and int8's F16 tensors) a magnitude
    /// above 65504, for an int8 weight one above `Int8Quantization.largestWeight`. Values
    /// are never silently clamped.
    public func encode(precision: TensorDType = .float32) throws -> [UInt8] {
        try encode(precision: precision, source: source)
    }

    func encode(precision: TensorDType, source: String) throws -> [UInt8] {
        try checkBeforeEncoding(precision: precision, source: source)

        var data = [UInt8]()
        data.reserveCapacity(tensors.reduce(0) { $0 + $1.values.count } * precision.byteCount)
        var entries: [(key: String, value: HeaderJSON)] = []
        func append(_ name: String, _ shape: [Int], _ values: [Float], as dtype: TensorDType) {
            let begin = data.count
            dtype.append(values, to: &data)
            entries.append((name, .object([
                ("dtype", .string(dtype.rawValue)),
                ("shape", .array(shape.map { .number(String($0)) })),
                ("data_offsets", .array([.number(String(begin)), .number(String(data.count))])),
            ])))
        }
        // I8 tensors go after every other one, so that each F16 tensor starts 2-byte aligned.
        var quantized: [(name: String, shape: [Int], levels: [Float])] = []
        for tensor in tensors {
            let dtype = Self.storedDType(of: tensor.shape, precision: precision)
            guard dtype == .int8 else {
                append(tensor.name, tensor.shape, tensor.values, as: dtype)
                continue
            }
            let (levels, scales) = Int8Quantization.quantize(tensor.values, shape: tensor.shape)
            append(Int8Quantization.scaleName(of: tensor.name), [tensor.shape[0]], scales, as: .float16)
            quantized.append((tensor.name, tensor.shape, levels))
        }
        for tensor in quantized { append(tensor.name, tensor.shape, tensor.levels, as: .int8) }

        var storedMetadata = metadata
        storedMetadata[Self.checksumKey] = sha256Hex(data[...])
        let metadataObject = HeaderJSON.object(storedMetadata.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
        var header = Array(HeaderJSON.object([("__metadata__", metadataObject)] + entries).serialized.utf8)
        // Pad with spaces (JSON whitespace) so the data starts 8-byte aligned, like the reference writer.
        header.append(contentsOf: repeatElement(UInt8(ascii: " "), count: (8 - header.count % 8) % 8))

        var bytes = [UInt8]()
        bytes.reserveCapacity(8 + header.count + data.count)
        withUnsafeBytes(of: UInt64(header.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: header)
        bytes.append(contentsOf: data)
        return bytes
    }

    /// The dtype a tensor of `shape` is stored as in a file written with `precision`: with
    /// `.int8`, weights (rank 2 and more) are I8 and everything else F16; otherwise `precision`.
    private static func storedDType(of shape: [Int], precision: TensorDType) -> TensorDType {
        guard precision == .int8 else { return precision }
        return Int8Quantization.quantizes(shape: shape) ? .int8 : .float16
    }

    private func checkBeforeEncoding(precision: TensorDType, source: String) throws {
        var seen = Set<String>()
        for tensor in tensors {
            guard !tensor.name.isEmpty, tensor.name != "__metadata__" else {
                throw ModelFileError.invalidTensorName(source: source, tensor: tensor.name)
            }
            let dtype = Self.storedDType(of: tensor.shape, precision: precision)
            var names = [tensor.name]
            if dtype == .int8 { names.append(Int8Quantization.scaleName(of: tensor.name)) }
            for name in names where !seen.insert(name).inserted {
                throw ModelFileError.duplicateTensorName(source: source, tensor: name)
            }
            // Fields are public and mutable, so the init's preconditions may no longer hold.
            guard let count = elementCount(tensor.shape), count == tensor.values.count else {
                throw ModelFileError.valueCountMismatch(
                    source: source, tensor: tensor.name, shape: tensor.shape, valueCount: tensor.values.count)
            }
            for (index, value) in tensor.values.enumerated() {
                guard value.isFinite else {
                    throw ModelFileError.nonFiniteValue(source: source, tensor: tensor.name, index: index)
                }
                // NOTE: Float16(x) becomes infinite once |x| rounds above 65504 (from 65520 up).
                if dtype == .float16 && !Float16(value).isFinite
                    || dtype == .int8 && abs(value) > Int8Quantization.largestWeight {
                    throw ModelFileError.float16Overflow(source: source, tensor: tensor.name, index: index, value: value)
                }
            }
        }
    }
}

// MARK: - Helpers shared with decoding

/// Product of the dimensions; nil when one is negative or the product overflows.
func elementCount(_ shape: [Int]) -> Int? {
    var count = 1
    for dimension in shape {
        guard dimension >= 0 else { return nil }
        let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
        guard !overflow else { return nil }
        count = product
    }
    return count
}

/// Lowercase hex SHA-256.
func sha256Hex(_ bytes: ArraySlice<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var hex = [UInt8]()
    for byte in SHA256.hash(data: bytes) {
        hex.append(digits[Int(byte >> 4)])
        hex.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: hex, as: UTF8.self)
}
