/// How tensor values are stored in a file. In memory they are always `Float`.
public enum TensorDType: String, Sendable, CaseIterable {
    /// IEEE 754 binary32, little-endian: exact.
    case float32 = "F32"
    /// IEEE 754 binary16, little-endian: half the size, about 3 significant decimal digits.
    case float16 = "F16"
    /// Signed 8-bit integers, one scale per output channel in a tensor of its own
    /// (`<name>.scale`): a quarter of the size. As a storage precision, weights (tensors of
    /// rank 2 and more) are quantized symmetrically per output channel (`Int8Quantization`)
    /// and the other tensors stay F32.
    case int8 = "I8"

    /// Bytes per element.
    public var byteCount: Int {
        switch self {
        case .float32: 4
        case .float16: 2
        case .int8: 1
        }
    }
}

/// A named, shaped block of numbers: one weight or bias of a network, row-major
/// (C order), in the layout the file stores it (PyTorch's: conv weight (OC, C, KH, KW)).
public struct NamedTensor: Sendable, Equatable {
    /// The key in the file, e.g. `conv1.weight`.
    public var name: String
    /// Dimensions, outermost first. `[]` is a scalar.
    public var shape: [Int]
    /// `shape.reduce(1, *)` values, row-major.
    public var values: [Float]

    public init(name: String, shape: [Int], values: [Float]) {
        precondition(shape.allSatisfy { $0 >= 0 }, "NamedTensor '\(name)': negative dimension in \(shape)")
        precondition(
            shape.reduce(1, *) == values.count,
            "NamedTensor '\(name)': shape \(shape) needs \(shape.reduce(1, *)) values, got \(values.count)")
        self.name = name
        self.shape = shape
        self.values = values
    }
}

// MARK: - Element conversion (little-endian)

extension TensorDType {
    /// Appends `values` to `bytes` in this dtype. Values are finite and, for F16, within
    /// range (the encoder checks first). F16 rounds to nearest, ties to even (IEEE default);
    /// magnitudes below 2^-24 become 0. For I8 the values are already quantization levels
    /// (integers in -127...127, see `Int8Quantization`).
    func append(_ values: [Float], to bytes: inout [UInt8]) {
        switch self {
        case .float32:
            for value in values {
                let bits = value.bitPattern
                bytes.append(UInt8(truncatingIfNeeded: bits))
                bytes.append(UInt8(truncatingIfNeeded: bits >> 8))
                bytes.append(UInt8(truncatingIfNeeded: bits >> 16))
                bytes.append(UInt8(truncatingIfNeeded: bits >> 24))
            }
        case .float16:
            for value in values {
                let bits = Float16(value).bitPattern
                bytes.append(UInt8(truncatingIfNeeded: bits))
                bytes.append(UInt8(truncatingIfNeeded: bits >> 8))
            }
        case .int8:
            for value in values { bytes.append(UInt8(bitPattern: Int8(value))) }
        }
    }

    /// Reads `count` elements starting at `start`; the caller checked the range.
    func values(in bytes: [UInt8], from start: Int, count: Int) -> [Float] {
        var values = [Float]()
        values.reserveCapacity(count)
        switch self {
        case .float32:
            for offset in stride(from: start, to: start + 4 * count, by: 4) {
                let bits = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
                    | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
                values.append(Float(bitPattern: bits))
            }
        case .float16:
            for offset in stride(from: start, to: start + 2 * count, by: 2) {
                let bits = UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
                values.append(Float(Float16(bitPattern: bits)))
            }
        case .int8:
            // The levels; the decoder multiplies them by their channel's scale.
            for offset in start..<(start + count) { values.append(Float(Int8(bitPattern: bytes[offset]))) }
        }
        return values
    }
}
