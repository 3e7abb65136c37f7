/// Why a model file could not be read, checked or written.
///
/// Every case names the file (`source`: a path, or a description such as "<memory>") and,
/// where one is involved, the tensor or metadata key. `docs/model-format.md` lists them all.
public enum ModelFileError: Error, Equatable, Sendable, CustomStringConvertible {
    // MARK: Layout
    /// The file is shorter than the 8-byte header length that starts every safetensors file.
    case fileTooSmall(source: String, size: Int)
    /// The header length exceeds `SafeTensorsFile.maximumHeaderLength`.
    case headerTooLarge(source: String, headerLength: UInt64, limit: Int)
    /// The file is larger than `SafeTensorsFile.maximumFileBytes`.
    case fileTooLarge(source: String, size: Int, limit: Int)
    /// The header lists more tensors than `SafeTensorsFile.maximumTensorCount`.
    case tooManyTensors(source: String, count: Int, limit: Int)
    /// The header length points past the end of the file.
    case headerPastEndOfFile(source: String, headerLength: UInt64, fileSize: Int)
    /// The header bytes are not valid UTF-8.
    case headerNotUTF8(source: String)
    /// The header is not valid JSON.
    case headerNotJSON(source: String, detail: String)
    /// The header is valid JSON but not an object.
    case headerNotObject(source: String)
    /// `__metadata__` is not an object whose values are all strings.
    case invalidMetadataEntry(source: String, detail: String)

    // MARK: Tensor entries
    /// Two header entries (or two tensors given to the encoder) share a name.
    case duplicateTensorName(source: String, tensor: String)
    /// A tensor name the encoder refuses (empty, or the reserved `__metadata__`).
    case invalidTensorName(source: String, tensor: String)
    /// A tensor entry lacks `dtype`, `shape` or `data_offsets`, or one has the wrong JSON type.
    case invalidTensorEntry(source: String, tensor: String, detail: String)
    /// A dtype other than F32, F16 and I8.
    case unsupportedDType(source: String, tensor: String, dtype: String)
    /// An I8 tensor without its `<name>.scale` tensor.
    case missingQuantizationScale(source: String, tensor: String, scaleTensor: String)
    /// An I8 tensor whose scales are unusable: wrong dtype or shape, not finite and positive,
    /// or the I8 tensor is a scalar.
    case invalidQuantizationScale(source: String, tensor: String, detail: String)
    /// A negative dimension, or an element count that overflows.
    case invalidShape(source: String, tensor: String, detail: String)
    /// Offsets that are negative, reversed, overlapping, or leave a gap.
    case invalidOffsets(source: String, tensor: String, detail: String)
    /// The byte range of a tensor does not match its element count times the dtype size.
    case byteLengthMismatch(source: String, tensor: String, expected: Int, found: Int)
    /// The file ends before the data of a tensor does.
    case truncatedData(source: String, tensor: String, end: Int, dataSize: Int)
    /// Bytes after the last tensor: the offsets do not cover the data section exactly.
    case trailingData(source: String, covered: Int, dataSize: Int)

    // MARK: Checksum
    /// The SHA-256 of the data section differs from `strokekit.tensors_sha256`.
    case checksumMismatch(source: String, expected: String, found: String)
    /// The file has no `strokekit.tensors_sha256` and the caller demanded one.
    case checksumMissing(source: String)

    // MARK: Encoding
    /// A tensor's value count differs from the product of its shape.
    case valueCountMismatch(source: String, tensor: String, shape: [Int], valueCount: Int)
    /// A tensor holds NaN or an infinity; StrokeKit never writes those.
    case nonFiniteValue(source: String, tensor: String, index: Int)
    /// A value too large in magnitude for F16 (beyond ±65504), or for an int8 weight's F16
    /// scale (beyond ±65504 · 127).
    case float16Overflow(source: String, tensor: String, index: Int, value: Float)

    // MARK: Expected tensors
    /// A tensor the architecture needs is absent.
    case missingTensor(source: String, tensor: String, expectedShape: [Int])
    /// A tensor has a different shape than the architecture needs.
    case shapeMismatch(source: String, tensor: String, expected: [Int], found: [Int])
    /// A tensor the architecture does not use.
    case unexpectedTensor(source: String, tensor: String)

    // MARK: Metadata
    /// A required `__metadata__` key is absent.
    case missingMetadataKey(source: String, key: String)
    /// A metadata value that does not follow its rule.
    case invalidMetadataValue(source: String, key: String, value: String, expected: String)
    /// `strokekit.format` names another kind of file.
    case wrongFormat(source: String, found: String)
    /// The file was written by a newer StrokeKit with a structurally different format.
    case unsupportedFormatVersion(source: String, found: String, supported: Int)

    // MARK: Files
    /// The file could not be read.
    case cannotRead(path: String, reason: String)

    public var description: String {
        switch self {
        case let .fileTooSmall(source, size):
            return "\(source): not a safetensors file: \(size) bytes, fewer than the 8-byte header length"
        case let .headerTooLarge(source, headerLength, limit):
            return "\(source): header length \(headerLength) exceeds the limit of \(limit) bytes (SafeTensorsFile.maximumHeaderLength); the file is corrupt or not a safetensors file"
        case let .fileTooLarge(source, size, limit):
            return "\(source): the file is \(size) bytes, over the limit of \(limit) (SafeTensorsFile.maximumFileBytes; a StrokeKit model is a few hundred KB): not a StrokeKit model"
        case let .tooManyTensors(source, count, limit):
            return "\(source): the header lists \(count) tensors, over the limit of \(limit) (SafeTensorsFile.maximumTensorCount): not a StrokeKit model"
        case let .headerPastEndOfFile(source, headerLength, fileSize):
            return "\(source): header length \(headerLength) points past the end of the file (\(fileSize) bytes); the file is truncated or not a safetensors file"
        case let .headerNotUTF8(source):
            return "\(source): the header is not valid UTF-8"
        case let .headerNotJSON(source, detail):
            return "\(source): the header is not valid JSON: \(detail)"
        case let .headerNotObject(source):
            return "\(source): the header is JSON but not an object"
        case let .invalidMetadataEntry(source, detail):
            return "\(source): invalid __metadata__: \(detail)"
        case let .duplicateTensorName(source, tensor):
            return "\(source): tensor '\(tensor)' appears more than once"
        case let .invalidTensorName(source, tensor):
            return "\(source): '\(tensor)' cannot be a tensor name (empty or reserved)"
        case let .invalidTensorEntry(source, tensor, detail):
            return "\(source): tensor '\(tensor)': \(detail)"
        case let .unsupportedDType(source, tensor, dtype):
            return "\(source): tensor '\(tensor)' has dtype '\(dtype)'; StrokeKit reads F32, F16 and I8 (with per-channel scales) only (convert the file, e.g. with numpy, to float32)"
        case let .missingQuantizationScale(source, tensor, scaleTensor):
            return "\(source): tensor '\(tensor)' is stored as I8 but its scales '\(scaleTensor)' are missing"
        case let .invalidQuantizationScale(source, tensor, detail):
            return "\(source): I8 tensor '\(tensor)': \(detail)"
        case let .invalidShape(source, tensor, detail):
            return "\(source): tensor '\(tensor)' has an invalid shape: \(detail)"
        case let .invalidOffsets(source, tensor, detail):
            return "\(source): tensor '\(tensor)' has invalid data_offsets: \(detail)"
        case let .byteLengthMismatch(source, tensor, expected, found):
            return "\(source): tensor '\(tensor)' needs \(expected) bytes for its shape and dtype but its data_offsets span \(found)"
        case let .truncatedData(source, tensor, end, dataSize):
            return "\(source): truncated: tensor '\(tensor)' ends at data byte \(end) but the data section has only \(dataSize) bytes"
        case let .trailingData(source, covered, dataSize):
            return "\(source): the tensors cover \(covered) of \(dataSize) data bytes; the data must end exactly at the end of the file"
        case let .checksumMismatch(source, expected, found):
            return "\(source): tensor data is corrupt: SHA-256 is \(found) but strokekit.tensors_sha256 says \(expected); re-export the model with `strokekit train`"
        case let .checksumMissing(source):
            return "\(source): no strokekit.tensors_sha256 in the metadata; StrokeKit model files carry one (re-export the model with `strokekit train`)"
        case let .valueCountMismatch(source, tensor, shape, valueCount):
            return "\(source): tensor '\(tensor)' has shape \(shape) but \(valueCount) values"
        case let .nonFiniteValue(source, tensor, index):
            return "\(source): tensor '\(tensor)' holds a non-finite value at index \(index); training probably diverged"
        case let .float16Overflow(source, tensor, index, value):
            return "\(source): tensor '\(tensor)' value \(value) at index \(index) is too large for F16 storage (F16 holds magnitudes up to 65504, an int8 weight with its F16 scale up to 65504 x 127); save with F32 precision"
        case let .missingTensor(source, tensor, expectedShape):
            return "\(source): tensor '\(tensor)' with shape \(expectedShape) is missing"
        case let .shapeMismatch(source, tensor, expected, found):
            return "\(source): tensor '\(tensor)' has shape \(found), expected \(expected); the file was made for another architecture"
        case let .unexpectedTensor(source, tensor):
            return "\(source): unexpected tensor '\(tensor)'; the file was made for another architecture"
        case let .missingMetadataKey(source, key):
            return "\(source): required metadata key '\(key)' is missing"
        case let .invalidMetadataValue(source, key, value, expected):
            return "\(source): metadata '\(key)' is '\(value)', expected \(expected)"
        case let .wrongFormat(source, found):
            return "\(source): strokekit.format is '\(found)', expected '\(ModelMetadata.formatName)'; this is not a StrokeKit classifier"
        case let .unsupportedFormatVersion(source, found, supported):
            return "\(source): format version \(found) is newer than this StrokeKit reads (\(supported)); upgrade StrokeKit"
        case let .cannotRead(path, reason):
            return "\(path): cannot read: \(reason)"
        }
    }
}
