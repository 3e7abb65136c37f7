// Decoding treats the bytes as hostile: every number in the header is checked (with checked
// arithmetic) before it is used to index, following the rules of the reference reader,
// huggingface/safetensors `tensor.rs`: a header size cap, offsets contiguous from 0 without
// overlap or gap, each range as long as shape x dtype size, and data ending exactly at the
// end of the file. Then what only StrokeKit knows: the SHA-256 of the data.

extension SafeTensorsFile {
    /// Parses and checks a whole safetensors file held in `bytes`; `source` names it in errors.
    /// The checksum is verified when present; with `requireChecksum` it must be present.
    public static func decode(_ bytes: [UInt8], source: String, requireChecksum: Bool = false) throws -> SafeTensorsFile {
        guard bytes.count <= maximumFileBytes else {
            throw ModelFileError.fileTooLarge(source: source, size: bytes.count, limit: maximumFileBytes)
        }
        let header = try readHeader(bytes, source: source)
        let dataStart = 8 + header.length
        let dataSize = bytes.count - dataStart
        let (metadataEntries, entries) = try splitHeader(header.json, source: source)
        var metadata = try readMetadata(metadataEntries, source: source)
        let layout = try entries.map { try TensorEntry(name: $0.key, json: $0.value, source: source) }
        let ordered = try checkLayout(layout, dataSize: dataSize, source: source)

        let storedChecksum = metadata.removeValue(forKey: checksumKey)
        if let storedChecksum {
            let actual = sha256Hex(bytes[dataStart...])
            guard storedChecksum.lowercased() == actual else {
                throw ModelFileError.checksumMismatch(source: source, expected: storedChecksum, found: actual)
            }
        } else if requireChecksum {
            throw ModelFileError.checksumMissing(source: source)
        }

        func values(of entry: TensorEntry) -> [Float] {
            entry.dtype.values(in: bytes, from: dataStart + entry.begin, count: entry.elementCount)
        }
        let scales = try quantizationScales(ordered, source: source, values: values)
        let tensors = ordered.filter { !scales.consumed.contains($0.name) }
        var file = SafeTensorsFile(
            tensors: tensors.map { entry in
                let stored = values(of: entry)
                return NamedTensor(
                    name: entry.name, shape: entry.shape,
                    values: entry.dtype == .int8
                        ? Int8Quantization.dequantize(stored, shape: entry.shape, scales: scales.byTensor[entry.name]!)
                        : stored)
            },
            metadata: metadata, source: source)
        file.storedDTypes = Dictionary(uniqueKeysWithValues: tensors.map { ($0.name, $0.dtype) })
        file.verifiedChecksum = storedChecksum?.lowercased()
        return file
    }

    /// The scales of every I8 tensor, read from its `<name>.scale` tensor: F32 or F16, shape
    /// (first dimension of the I8 tensor), finite and positive. Those scale tensors are consumed.
    private static func quantizationScales(
        _ entries: [TensorEntry], source: String, values: (TensorEntry) -> [Float]
    ) throws -> (byTensor: [String: [Float]], consumed: Set<String>) {
        let byName = Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0) })
        var scales: [String: [Float]] = [:]
        var consumed = Set<String>()
        for entry in entries where entry.dtype == .int8 {
            func invalid(_ detail: String) -> ModelFileError {
                .invalidQuantizationScale(source: source, tensor: entry.name, detail: detail)
            }
            guard let channels = entry.shape.first else {
                throw invalid("an I8 tensor needs at least one dimension (its output channels), found shape []")
            }
            let scaleName = Int8Quantization.scaleName(of: entry.name)
            guard let scale = byName[scaleName] else {
                throw ModelFileError.missingQuantizationScale(source: source, tensor: entry.name, scaleTensor: scaleName)
            }
            guard scale.dtype == .float32 || scale.dtype == .float16 else {
                throw invalid("'\(scaleName)' has dtype \(scale.dtype.rawValue), expected F32 or F16")
            }
            guard scale.shape == [channels] else {
                throw invalid("'\(scaleName)' has shape \(scale.shape), expected [\(channels)] (one scale per output channel)")
            }
            let channelScales = values(scale)
            if let bad = channelScales.firstIndex(where: { !($0.isFinite && $0 > 0) }) {
                throw invalid("'\(scaleName)' holds \(channelScales[bad]) at index \(bad); scales must be finite and positive")
            }
            scales[entry.name] = channelScales
            consumed.insert(scaleName)
        }
        return (scales, consumed)
    }

    /// The 8-byte length and the JSON it announces.
    private static func readHeader(_ bytes: [UInt8], source: String) throws -> (length: Int, json: HeaderJSON) {
        guard bytes.count >= 8 else { throw ModelFileError.fileTooSmall(source: source, size: bytes.count) }
        let announced = bytes[0..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard announced <= UInt64(maximumHeaderLength) else {
            throw ModelFileError.headerTooLarge(source: source, headerLength: announced, limit: maximumHeaderLength)
        }
        let length = Int(announced)  // fits: at most maximumHeaderLength
        guard length <= bytes.count - 8 else {
            throw ModelFileError.headerPastEndOfFile(source: source, headerLength: announced, fileSize: bytes.count)
        }
        let headerBytes = bytes[8..<(8 + length)]
        guard String(validating: headerBytes, as: UTF8.self) != nil else {
            throw ModelFileError.headerNotUTF8(source: source)
        }
        do {
            return (length, try HeaderJSON.parse(headerBytes))
        } catch {
            throw ModelFileError.headerNotJSON(source: source, detail: "\(error.message) at header byte \(error.offset)")
        }
    }

    /// Separates `__metadata__` from the tensor entries, rejecting repeated names.
    private static func splitHeader(_ json: HeaderJSON, source: String) throws
        -> (metadata: HeaderJSON?, tensors: [(key: String, value: HeaderJSON)])
    {
        guard case let .object(members) = json else { throw ModelFileError.headerNotObject(source: source) }
        var metadata: HeaderJSON?
        var tensors: [(key: String, value: HeaderJSON)] = []
        var seen = Set<String>()
        for member in members {
            guard seen.insert(member.key).inserted else {
                if member.key == "__metadata__" {
                    throw ModelFileError.invalidMetadataEntry(source: source, detail: "__metadata__ appears more than once")
                }
                throw ModelFileError.duplicateTensorName(source: source, tensor: member.key)
            }
            if member.key == "__metadata__" { metadata = member.value } else { tensors.append(member) }
        }
        guard seen.count - (metadata == nil ? 0 : 1) <= maximumTensorCount else {
            throw ModelFileError.tooManyTensors(source: source, count: seen.count - (metadata == nil ? 0 : 1),
                                                limit: maximumTensorCount)
        }
        return (metadata, tensors)
    }

    private static func readMetadata(_ json: HeaderJSON?, source: String) throws -> [String: String] {
        guard let json else { return [:] }
        guard case let .object(members) = json else {
            throw ModelFileError.invalidMetadataEntry(source: source, detail: "expected an object, found \(json.typeName)")
        }
        var metadata: [String: String] = [:]
        for member in members {
            guard case let .string(value) = member.value else {
                throw ModelFileError.invalidMetadataEntry(
                    source: source, detail: "key '\(member.key)' holds \(member.value.typeName), expected a string")
            }
            guard metadata.updateValue(value, forKey: member.key) == nil else {
                throw ModelFileError.invalidMetadataEntry(source: source, detail: "key '\(member.key)' appears more than once")
            }
        }
        return metadata
    }

    /// Sorts the entries by offset and checks they tile the data section exactly.
    private static func checkLayout(_ entries: [TensorEntry], dataSize: Int, source: String) throws -> [TensorEntry] {
        let ordered = entries.sorted { ($0.begin, $0.end) < ($1.begin, $1.end) }
        var covered = 0
        var previous: String?
        for entry in ordered {
            if entry.begin < covered {
                throw ModelFileError.invalidOffsets(
                    source: source, tensor: entry.name,
                    detail: "[\(entry.begin), \(entry.end)] overlaps tensor '\(previous ?? "")', which ends at \(covered)")
            }
            if entry.begin > covered {
                throw ModelFileError.invalidOffsets(
                    source: source, tensor: entry.name,
                    detail: "[\(entry.begin), \(entry.end)] leaves data bytes \(covered)..<\(entry.begin) unused")
            }
            guard entry.end <= dataSize else {
                throw ModelFileError.truncatedData(source: source, tensor: entry.name, end: entry.end, dataSize: dataSize)
            }
            covered = entry.end
            previous = entry.name
        }
        guard covered == dataSize else {
            throw ModelFileError.trailingData(source: source, covered: covered, dataSize: dataSize)
        }
        return ordered
    }
}

/// One tensor's header entry, checked on its own (the layout check looks at all of them).
private struct TensorEntry {
    var name: String
    var dtype: TensorDType
    var shape: [Int]
    var elementCount: Int
    var begin: Int
    var end: Int

    init(name: String, json: HeaderJSON, source: String) throws {
        func invalidEntry(_ detail: String) -> ModelFileError {
            .invalidTensorEntry(source: source, tensor: name, detail: detail)
        }
        guard case let .object(members) = json else {
            throw invalidEntry("expected an object with dtype, shape and data_offsets, found \(json.typeName)")
        }
        var fields: [String: HeaderJSON] = [:]
        for member in members {
            guard fields.updateValue(member.value, forKey: member.key) == nil else {
                throw invalidEntry("field '\(member.key)' appears more than once")
            }
        }
        guard let dtypeJSON = fields["dtype"] else { throw invalidEntry("missing 'dtype'") }
        guard let shapeJSON = fields["shape"] else { throw invalidEntry("missing 'shape'") }
        guard let offsetsJSON = fields["data_offsets"] else { throw invalidEntry("missing 'data_offsets'") }

        guard case let .string(dtypeName) = dtypeJSON else {
            throw invalidEntry("'dtype' is \(dtypeJSON.typeName), expected a string")
        }
        guard let dtype = TensorDType(rawValue: dtypeName) else {
            throw ModelFileError.unsupportedDType(source: source, tensor: name, dtype: dtypeName)
        }

        guard case let .array(dimensionsJSON) = shapeJSON else {
            throw invalidEntry("'shape' is \(shapeJSON.typeName), expected an array of integers")
        }
        var shape: [Int] = []
        for dimension in dimensionsJSON {
            switch dimension.integer {
            case .notAnInteger:
                throw invalidEntry("'shape' holds \(dimension.typeName == "a number" ? "a non-integer number" : dimension.typeName), expected integers")
            case .overflow:
                throw ModelFileError.invalidShape(source: source, tensor: name, detail: "a dimension does not fit in 64 bits")
            case let .value(value):
                guard value >= 0 else {
                    throw ModelFileError.invalidShape(source: source, tensor: name, detail: "negative dimension \(value)")
                }
                shape.append(value)
            }
        }
        guard let count = StrokeModelFile.elementCount(shape) else {
            throw ModelFileError.invalidShape(source: source, tensor: name, detail: "element count of \(shape) overflows")
        }
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: dtype.byteCount)
        guard !overflow else {
            throw ModelFileError.invalidShape(source: source, tensor: name, detail: "byte count of \(shape) overflows")
        }

        guard case let .array(offsets) = offsetsJSON, offsets.count == 2 else {
            throw invalidEntry("'data_offsets' must be an array of two integers [begin, end]")
        }
        var bounds: [Int] = []
        for offset in offsets {
            switch offset.integer {
            case .notAnInteger:
                throw invalidEntry("'data_offsets' must be an array of two integers [begin, end]")
            case .overflow:
                throw ModelFileError.invalidOffsets(source: source, tensor: name, detail: "an offset does not fit in 64 bits")
            case let .value(value):
                guard value >= 0 else {
                    throw ModelFileError.invalidOffsets(source: source, tensor: name, detail: "negative offset \(value)")
                }
                bounds.append(value)
            }
        }
        guard bounds[0] <= bounds[1] else {
            throw ModelFileError.invalidOffsets(source: source, tensor: name, detail: "begin \(bounds[0]) is after end \(bounds[1])")
        }
        guard bounds[1] - bounds[0] == byteCount else {
            throw ModelFileError.byteLengthMismatch(source: source, tensor: name, expected: byteCount, found: bounds[1] - bounds[0])
        }

        self.name = name
        self.dtype = dtype
        self.shape = shape
        self.elementCount = count
        self.begin = bounds[0]
        self.end = bounds[1]
    }
}
