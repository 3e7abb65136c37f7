import Foundation
import StrokeTensor
import Testing
import TestSupport
import StrokeModelFile
import StrokeSupport

@Suite struct SafeTensorsFileTests {
    // MARK: Round trips

    @Test func float32RoundTripIsExact() throws {
        let special: [Float] = [0, -0.0, 1, -1, .pi, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -Float.leastNormalMagnitude / 4]
        var file = Fixtures.smallFile
        file.tensors.append(NamedTensor(name: "special", shape: [special.count], values: special))
        file.tensors.append(NamedTensor(name: "empty", shape: [0, 4], values: []))
        file.tensors.append(NamedTensor(name: "scalar", shape: [], values: [42]))

        let decoded = try SafeTensorsFile.decode(try file.encode(precision: .float32), source: "roundtrip")
        #expect(decoded.tensors.map(\.name) == file.tensors.map(\.name), "tensors keep the order they were written in")
        for (original, read) in zip(file.tensors, decoded.tensors) {
            #expect(read.shape == original.shape, "\(original.name)")
            // Compare bit patterns: distinguishes -0.0 from 0 and checks subnormals exactly.
            #expect(read.values.map(\.bitPattern) == original.values.map(\.bitPattern), "\(original.name)")
        }
        #expect(decoded.metadata == file.metadata)
        #expect(Set(decoded.storedDTypes.values) == [.float32])
        #expect(decoded.verifiedChecksum?.count == 64)
    }

    @Test func float16RoundTripIsWithinHalfPrecisionAndHalfTheSize() throws {
        var generator = SeededGenerator(seed: 7)
        let values = (0..<1000).map { _ in Float.random(in: -4...4, using: &generator) }
        let file = SafeTensorsFile(tensors: [NamedTensor(name: "w", shape: [10, 100], values: values)])

        let float32Bytes = try file.encode(precision: .float32)
        let float16Bytes = try file.encode(precision: .float16)
        let decoded = try SafeTensorsFile.decode(float16Bytes, source: "f16")
        #expect(decoded.storedDTypes == ["w": .float16])
        let read = try #require(decoded.tensor(named: "w"))
        for (index, (original, stored)) in zip(values, read.values).enumerated() {
            // Round to nearest: error at most half an F16 ulp, 2^-11 relative (2^-25 absolute below 2^-14).
            let tolerance = max(abs(original), 0x1p-14) * 0x1p-11
            #expect(abs(stored - original) <= tolerance, "index \(index): wrote \(original), read \(stored), tolerance \(tolerance)")
            #expect(stored == Float(Float16(original)), "index \(index): not rounded to nearest even")
        }
        let ratio = Double(float16Bytes.count) / Double(float32Bytes.count)
        #expect(ratio > 0.45 && ratio < 0.55, "F16 file is \(float16Bytes.count) bytes, F32 \(float32Bytes.count)")
    }

    @Test func int8RoundTripIsWithinHalfAStepPerChannelAndAboutAQuarterOfTheSize() throws {
        // Channels of very different magnitudes: per-channel scales keep each one's resolution.
        var generator = SeededGenerator(seed: 8)
        let magnitudes: [Float] = [4, 0.01, 1, 0]
        let values = magnitudes.flatMap { magnitude in
            (0..<250).map { _ in Float.random(in: -1...1, using: &generator) * magnitude }
        }
        let file = SafeTensorsFile(tensors: [NamedTensor(name: "w", shape: [4, 25, 10], values: values),
                                             NamedTensor(name: "b", shape: [4], values: [0.1, -0.2, 0.3, 1e-7])])
        let float32Bytes = try file.encode(precision: .float32)
        let int8Bytes = try file.encode(precision: .int8)
        let decoded = try SafeTensorsFile.decode(int8Bytes, source: "i8")
        #expect(decoded.storedDTypes == ["w": .int8, "b": .float16], "weights I8, biases F16, scales not listed")
        #expect(decoded.tensor(named: "b")?.values == [0.1, -0.2, 0.3, 1e-7].map { Float(Float16($0)) }, "biases as F16")
        let read = try #require(decoded.tensor(named: "w"))
        for channel in 0..<4 {
            let range = (channel * 250)..<((channel + 1) * 250)
            let largest = values[range].map(abs).max()!
            // The F16 scale is at most one F16 step (2^-10 relative) above largest / 127.
            let step = largest / 127 * (1 + 0x1p-10)
            for index in range {
                #expect(abs(read.values[index] - values[index]) <= step / 2,
                        "channel \(channel) index \(index): wrote \(values[index]), read \(read.values[index]), step \(step)")
            }
            if largest > 0 {
                let peak = range.first { abs(values[$0]) == largest }!
                #expect(abs(read.values[peak] - values[peak]) <= largest * 0x1p-10, "the largest weight of a channel is kept to F16 precision")
            }
        }
        let ratio = Double(int8Bytes.count) / Double(float32Bytes.count)
        #expect(ratio > 0.2 && ratio < 0.35, "I8 file is \(int8Bytes.count) bytes, F32 \(float32Bytes.count)")
        // Quantizing dequantized weights again gives the same levels and scales: the same values.
        let again = try #require(SafeTensorsFile.decode(decoded.encode(precision: .int8), source: "i8 again").tensor(named: "w"))
        #expect(again.values == read.values, "re-quantizing changed the levels or scales")
    }

    @Test func int8FilesKeepEveryFloat16TensorAlignedAndNameTheScales() throws {
        let file = SafeTensorsFile(tensors: [NamedTensor(name: "w", shape: [3, 1], values: [1, -2, 3]),
                                             NamedTensor(name: "b", shape: [3], values: [1, 2, 3])])
        let bytes = try file.encode(precision: .int8)
        let headerLength = Int(bytes[0]) | Int(bytes[1]) << 8
        let header = String(decoding: bytes[8..<(8 + headerLength)], as: UTF8.self)
        // Scale and bias (F16) first, the I8 tensor of 3 bytes last.
        #expect(header.contains(#""w.scale":{"dtype":"F16","shape":[3],"data_offsets":[0,6]}"#), "\(header)")
        #expect(header.contains(#""b":{"dtype":"F16","shape":[3],"data_offsets":[6,12]}"#), "\(header)")
        #expect(header.contains(#""w":{"dtype":"I8","shape":[3,1],"data_offsets":[12,15]}"#), "\(header)")
    }

    @Test func int8ScalesAreFloat16ValuesThatKeepEveryLevelWithin127() throws {
        // Channel maxima whose nearest F16 scale (max / 127 rounded) falls below max / 127,
        // which would need level 128 without the step up, and ones in the F16 subnormal range.
        var generator = SeededGenerator(seed: 11)
        var maxima: [Float] = [1, 0.3, 5e-4, 3e-6, 1e-9]
        while maxima.count < 64 {
            let candidate = Float.random(in: 0.01...8, using: &generator)
            if Float(Float16(candidate / 127)) * 127 < candidate { maxima.append(candidate) }
        }
        let values = maxima.flatMap { [$0, -$0 / 3, $0 / 127 * 0.5] }
        let (levels, scales) = Int8Quantization.quantize(values, shape: [maxima.count, 3])
        for (channel, largest) in maxima.enumerated() {
            let scale = scales[channel]
            #expect(Float(Float16(scale)) == scale, "channel \(channel): scale \(scale) is not an F16 value")
            // The smallest F16 value whose 127 multiple reaches the channel's largest weight.
            #expect(scale * 127 >= largest && Float(Float16(scale).nextDown) * 127 < largest,
                    "channel \(channel): scale \(scale) for max \(largest)")
            for index in (channel * 3)..<(channel * 3 + 3) {
                #expect(abs(levels[index]) <= 127 && levels[index] == levels[index].rounded())
                #expect(abs(levels[index] * scale - values[index]) <= scale / 2, "channel \(channel) index \(index)")
            }
        }
    }

    @Test func int8EncodingRefusesWhatItsFloat16TensorsCannotHold() {
        let bias = SafeTensorsFile(tensors: [NamedTensor(name: "w", shape: [1, 1], values: [1]),
                                             NamedTensor(name: "b", shape: [2], values: [1, 70_000])])
        #expect(throws: ModelFileError.float16Overflow(source: "<memory>", tensor: "b", index: 1, value: 70_000)) {
            try bias.encode(precision: .int8)
        }
        // A weight of 70,000 has scale 551.2, an F16 value; one beyond 65504 · 127 has none.
        let weights = SafeTensorsFile(tensors: [NamedTensor(name: "w", shape: [2, 1], values: [70_000, 9e6])])
        #expect(throws: ModelFileError.float16Overflow(source: "<memory>", tensor: "w", index: 1, value: 9e6)) {
            try weights.encode(precision: .int8)
        }
        #expect(throws: Never.self) {
            try SafeTensorsFile(tensors: [NamedTensor(name: "w", shape: [1, 1], values: [70_000])]).encode(precision: .int8)
        }
    }

    @Test func int8EncodingRefusesATensorNamedLikeAScale() {
        let file = SafeTensorsFile(tensors: [NamedTensor(name: "w", shape: [1, 2], values: [1, 2]),
                                             NamedTensor(name: "w.scale", shape: [1], values: [1])])
        #expect(throws: ModelFileError.duplicateTensorName(source: "<memory>", tensor: "w.scale")) {
            try file.encode(precision: .int8)
        }
        #expect(throws: Never.self) { try file.encode(precision: .float32) }
    }

    @Test func float16KeepsTheLargestHalfValue() throws {
        let file = SafeTensorsFile(tensors: [NamedTensor(name: "w", shape: [2], values: [65504, -65519])])
        let decoded = try SafeTensorsFile.decode(try file.encode(precision: .float16), source: "f16")
        #expect(decoded.tensors[0].values == [65504, -65504])
    }

    @Test func headerIsPaddedWithSpacesToAMultipleOfEight() throws {
        for metadataLength in 0..<9 {
            let file = SafeTensorsFile(
                tensors: [NamedTensor(name: "t", shape: [1], values: [1])],
                metadata: ["k": String(repeating: "x", count: metadataLength)])
            let bytes = try file.encode()
            let headerLength = Int(bytes[0]) | Int(bytes[1]) << 8
            #expect(headerLength % 8 == 0, "header of \(headerLength) bytes")
            let header = try #require(String(validating: bytes[8..<(8 + headerLength)], as: UTF8.self))
            #expect(header.hasPrefix("{\"__metadata__\":{"))
            #expect(header.trimmingCharacters(in: .whitespaces).hasSuffix("}"))
            #expect(header.last == "}" || header.last == " ")
        }
    }

    @Test func encodeIsDeterministic() throws {
        #expect(try Fixtures.smallFile.encode() == Fixtures.smallFile.encode())
    }

    @Test func checksumKeyIsWrittenAndRemovedOnRead() throws {
        var file = Fixtures.smallFile
        file.metadata[SafeTensorsFile.checksumKey] = "stale value is overwritten"
        let bytes = try file.encode()
        let header = String(decoding: bytes[8..<200], as: UTF8.self)
        #expect(header.contains(SafeTensorsFile.checksumKey))
        let decoded = try SafeTensorsFile.decode(bytes, source: "checksum", requireChecksum: true)
        #expect(decoded.metadata[SafeTensorsFile.checksumKey] == nil)
        #expect(decoded.metadata == Fixtures.smallFile.metadata)
    }

    @Test func metadataWithEscapesRoundTrips() throws {
        let metadata = ["quote\"back\\slash": "line\nbreak\ttab \u{01} ünïcødé 🙂", "": "empty key"]
        let file = SafeTensorsFile(tensors: [], metadata: metadata)
        #expect(try SafeTensorsFile.decode(file.encode(), source: "escapes").metadata == metadata)
    }

    // MARK: Encoding errors

    func encodeError(_ file: SafeTensorsFile, precision: TensorDType = .float32) -> ModelFileError? {
        do {
            _ = try file.encode(precision: precision)
            return nil
        } catch {
            return error as? ModelFileError
        }
    }

    @Test func encodeRejectsDuplicateAndReservedNames() {
        let tensor = NamedTensor(name: "w", shape: [1], values: [1])
        #expect(encodeError(SafeTensorsFile(tensors: [tensor, tensor])) == .duplicateTensorName(source: "<memory>", tensor: "w"))
        var reserved = tensor
        reserved.name = "__metadata__"
        #expect(encodeError(SafeTensorsFile(tensors: [reserved])).map(Fixtures.caseName) == "invalidTensorName")
        reserved.name = ""
        #expect(encodeError(SafeTensorsFile(tensors: [reserved])).map(Fixtures.caseName) == "invalidTensorName")
    }

    @Test func encodeRejectsShapeThatDoesNotMatchValues() {
        var tensor = NamedTensor(name: "w", shape: [2, 2], values: [1, 2, 3, 4])
        tensor.shape = [3, 2]
        #expect(encodeError(SafeTensorsFile(tensors: [tensor])) == .valueCountMismatch(source: "<memory>", tensor: "w", shape: [3, 2], valueCount: 4))
        tensor.shape = [-2, -2]
        #expect(encodeError(SafeTensorsFile(tensors: [tensor])).map(Fixtures.caseName) == "valueCountMismatch")
    }

    @Test(arguments: [Float.nan, .infinity, -.infinity])
    func encodeRejectsNonFiniteValues(value: Float) {
        let file = SafeTensorsFile(tensors: [NamedTensor(name: "w", shape: [3], values: [1, value, 2])])
        #expect(encodeError(file) == .nonFiniteValue(source: "<memory>", tensor: "w", index: 1))
    }

    @Test func encodeRejectsValuesBeyondFloat16Range() {
        let file = SafeTensorsFile(tensors: [NamedTensor(name: "w", shape: [2], values: [1, -70000])])
        let error = encodeError(file, precision: .float16)
        #expect(error == .float16Overflow(source: "<memory>", tensor: "w", index: 1, value: -70000))
        #expect(error?.description.contains("F32") == true, "the message suggests saving as F32")
        #expect(encodeError(file, precision: .float32) == nil)
    }

    // MARK: Expected tensors

    static let expected: [(name: String, shape: [Int])] = [
        ("conv1.weight", [2, 1, 3, 3]), ("conv1.bias", [2]), ("dense1.weight", [3, 2]),
    ]

    func validationError(_ file: SafeTensorsFile, _ expected: [(name: String, shape: [Int])]) -> ModelFileError? {
        do {
            try file.validateShapes(expected: expected)
            return nil
        } catch {
            return error as? ModelFileError
        }
    }

    @Test func validateShapesAcceptsExactlyTheExpectedTensors() {
        #expect(validationError(Fixtures.smallFile, Self.expected) == nil)
    }

    @Test func validateShapesReportsMissingTensor() {
        let expected = Self.expected + [("dense1.bias", [3])]
        let error = validationError(Fixtures.smallFile, expected)
        #expect(error == .missingTensor(source: Fixtures.source, tensor: "dense1.bias", expectedShape: [3]))
    }

    @Test func validateShapesReportsWrongShape() {
        var expected = Self.expected
        expected[2].shape = [2, 3]
        let error = validationError(Fixtures.smallFile, expected)
        #expect(error == .shapeMismatch(source: Fixtures.source, tensor: "dense1.weight", expected: [2, 3], found: [3, 2]))
        #expect(error?.description.contains("[3, 2]") == true)
    }

    @Test func validateShapesReportsUnexpectedTensor() {
        let error = validationError(Fixtures.smallFile, Array(Self.expected.dropLast()))
        #expect(error == .unexpectedTensor(source: Fixtures.source, tensor: "dense1.weight"))
    }

    // MARK: Files

    @Test func writeThenReadRoundTripsThroughDisk() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("model.safetensors")
        try Fixtures.smallFile.write(to: url, precision: .float32)
        let read = try SafeTensorsFile.read(contentsOf: url, requireChecksum: true)
        #expect(read.tensors == Fixtures.smallFile.tensors)
        #expect(read.source == url.path)
        #expect(try directory.contents() == ["model.safetensors"])
    }

    @Test func readReportsMissingFileByPath() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("absent.safetensors")
        #expect(throws: ModelFileError.cannotRead(path: url.path, reason: "no such file")) {
            try SafeTensorsFile.read(contentsOf: url)
        }
    }

    @Test func readErrorsNameThePath() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("broken.safetensors")
        try AtomicFile.write([1, 2, 3], to: url)
        #expect(throws: ModelFileError.fileTooSmall(source: url.path, size: 3)) {
            try SafeTensorsFile.read(contentsOf: url)
        }
    }

    /// Writes files for `scripts/check-safetensors.py` when STROKEKIT_SAFETENSORS_OUT names a
    /// directory: `STROKEKIT_SAFETENSORS_OUT=/tmp/st swift test --filter writesFilesForPythonCheck`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STROKEKIT_SAFETENSORS_OUT"] != nil))
    func writesFilesForPythonCheck() throws {
        let directory = URL(fileURLWithPath: try #require(ProcessInfo.processInfo.environment["STROKEKIT_SAFETENSORS_OUT"]))
        let metadata = ModelMetadata(
            classes: ["arrow", "circle", "cycle"], architecture: "c2-p-d3",
            training: .init(seed: 42, epochs: 3, validationAccuracy: 0.75, created: Date(timeIntervalSince1970: 1_700_000_000)))
        let file = SafeTensorsFile(tensors: Fixtures.smallFile.tensors, modelMetadata: metadata)
        try file.write(to: directory.appendingPathComponent("swift-f32.safetensors"), precision: .float32)
        try file.write(to: directory.appendingPathComponent("swift-f16.safetensors"), precision: .float16)
    }
}
