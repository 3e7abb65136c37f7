import StrokeTensor
import Testing
import StrokeModelFile
import StrokeSupport

/// Every load error gets a hand-built file that triggers exactly it. Each check also asserts
/// that the message names the file and (where one is involved) the tensor.
@Suite struct SafeTensorsDecodingTests {
    /// A well-formed one-tensor header: "a" is F32 (2,) at [0, 8].
    static let tensorA = #""a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}"#
    static let twoFloats = Fixtures.float32Bytes([1, 2])

    func expectDecode(
        _ bytes: [UInt8], throws expectedCase: String, mentioning words: [String] = [],
        requireChecksum: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let error = Fixtures.decodeError(bytes, requireChecksum: requireChecksum) else {
            Issue.record("decode succeeded, expected \(expectedCase)", sourceLocation: sourceLocation)
            return
        }
        #expect(Fixtures.caseName(error) == expectedCase, "message: \(error)", sourceLocation: sourceLocation)
        for word in [Fixtures.source] + words {
            #expect(error.description.contains(word), "'\(word)' missing from: \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func handBuiltValidFileLoads() throws {
        let bytes = Fixtures.rawFile(header: "{\(Self.tensorA)}", data: Self.twoFloats)
        let file = try SafeTensorsFile.decode(bytes, source: Fixtures.source)
        #expect(file.tensors == [NamedTensor(name: "a", shape: [2], values: [1, 2])])
        #expect(file.metadata.isEmpty)
        #expect(file.verifiedChecksum == nil)
    }

    @Test func decodesFileWrittenByPythonSafetensors() throws {
        // Produced by safetensors 0.8.0 / numpy 2.4.6:
        //   safetensors.numpy.save({"weight": np.array([[1.5,-2,0.25],[3,0,-0.5]], np.float32),
        //       "bias": np.array([0.5,-1], np.float16)}, metadata={"framework": "numpy", "note": "écrit par Python"})
        let hex = "b8000000000000007b225f5f6d657461646174615f5f223a7b226672616d65776f726b223a226e756d7079222c226e6f7465223a22c3a9637269742070617220507974686f6e227d2c22776569676874223a7b226474797065223a22463332222c227368617065223a5b322c335d2c22646174615f6f666673657473223a5b302c32345d7d2c2262696173223a7b226474797065223a22463136222c227368617065223a5b325d2c22646174615f6f666673657473223a5b32342c32385d7d7d0000c03f000000c00000803e0000404000000000000000bf003800bc"
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        let file = try SafeTensorsFile.decode(bytes, source: "python.safetensors")
        #expect(file.tensors.map(\.name) == ["weight", "bias"])  // data order
        #expect(file.tensor(named: "weight") == NamedTensor(name: "weight", shape: [2, 3], values: [1.5, -2, 0.25, 3, 0, -0.5]))
        #expect(file.tensor(named: "bias") == NamedTensor(name: "bias", shape: [2], values: [0.5, -1]))
        #expect(file.storedDTypes == ["weight": .float32, "bias": .float16])
        #expect(file.metadata == ["framework": "numpy", "note": "écrit par Python"])
        #expect(Fixtures.decodeError(bytes, requireChecksum: true).map(Fixtures.caseName) == "checksumMissing")
    }

    // MARK: Layout

    @Test func loadRejectsFileShorterThanLengthField() {
        expectDecode([], throws: "fileTooSmall")
        expectDecode([8, 0, 0], throws: "fileTooSmall", mentioning: ["3 bytes"])
    }

    @Test func loadRejectsHeaderLengthAboveCap() {
        let bytes = Fixtures.rawFile(header: "{}", announcedLength: 200_000_000)
        expectDecode(bytes, throws: "headerTooLarge", mentioning: ["200000000"])
        expectDecode(Fixtures.rawFile(header: "{}", announcedLength: .max), throws: "headerTooLarge")
    }

    @Test func loadRejectsHeaderLengthPastEndOfFile() {
        let bytes = Fixtures.rawFile(header: "{}", announcedLength: 100)
        expectDecode(bytes, throws: "headerPastEndOfFile", mentioning: ["100"])
    }

    @Test func loadRejectsHeaderThatIsNotUTF8() {
        let bytes = withUnsafeBytes(of: UInt64(4).littleEndian) { Array($0) } + [0x7B, 0xFF, 0xFE, 0x7D]
        expectDecode(bytes, throws: "headerNotUTF8")
    }

    @Test(arguments: [
        #"{"a": "#, "{'a': 1}", "", "{} x", #"{"a":{"dtype":"F32",}}"#, #"{"a":"\q"}"#, #"{"a":01}"#,
        String(repeating: "[", count: 10_000),
    ])
    func loadRejectsHeaderThatIsNotJSON(header: String) {
        expectDecode(Fixtures.rawFile(header: header), throws: "headerNotJSON")
    }

    @Test(arguments: ["[1, 2]", "\"text\"", "3", "null"])
    func loadRejectsHeaderThatIsNotAnObject(header: String) {
        expectDecode(Fixtures.rawFile(header: header), throws: "headerNotObject")
    }

    @Test(arguments: [
        #"{"__metadata__":{"k":1}}"#, #"{"__metadata__":["k"]}"#,
        #"{"__metadata__":{"k":"a","k":"b"}}"#, #"{"__metadata__":{},"__metadata__":{}}"#,
    ])
    func loadRejectsMetadataThatIsNotAStringMap(header: String) {
        expectDecode(Fixtures.rawFile(header: header), throws: "invalidMetadataEntry")
    }

    // MARK: Tensor entries

    @Test func loadRejectsDuplicateTensorNames() {
        let header = #"{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}"#
        expectDecode(Fixtures.rawFile(header: header, data: Self.twoFloats), throws: "duplicateTensorName", mentioning: ["'a'"])
    }

    @Test(arguments: [
        (#"{"w":{"shape":[2],"data_offsets":[0,8]}}"#, "dtype"),
        (#"{"w":{"dtype":"F32","data_offsets":[0,8]}}"#, "shape"),
        (#"{"w":{"dtype":"F32","shape":[2]}}"#, "data_offsets"),
        (#"{"w":{"dtype":32,"shape":[2],"data_offsets":[0,8]}}"#, "dtype"),
        (#"{"w":{"dtype":"F32","shape":"2","data_offsets":[0,8]}}"#, "shape"),
        (#"{"w":{"dtype":"F32","shape":[2.5],"data_offsets":[0,8]}}"#, "shape"),
        (#"{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,4,8]}}"#, "data_offsets"),
        (#"{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,"8"]}}"#, "data_offsets"),
        (#"{"w":[1,2]}"#, "object"),
        (#"{"w":{"dtype":"F32","dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#, "dtype"),
    ])
    func loadRejectsMalformedTensorEntry(header: String, field: String) {
        expectDecode(
            Fixtures.rawFile(header: header, data: Self.twoFloats), throws: "invalidTensorEntry", mentioning: ["'w'", field])
    }

    @Test(arguments: ["BF16", "I16", "U8", "F64", "f32", ""])
    func loadRejectsUnsupportedDType(dtype: String) {
        let header = #"{"w":{"dtype":"\#(dtype)","shape":[2],"data_offsets":[0,8]}}"#
        expectDecode(
            Fixtures.rawFile(header: header, data: Self.twoFloats), throws: "unsupportedDType", mentioning: ["'w'", "'\(dtype)'"])
    }

    // MARK: I8 tensors and their scales

    /// "w" I8 (2, 2) at [0, 4], then "w.scale" described by `scale`, holding `scaleData`.
    func int8File(scale: String, scaleData: [UInt8]) -> [UInt8] {
        let header = #"{"w":{"dtype":"I8","shape":[2,2],"data_offsets":[0,4]},\#(scale)}"#
        return Fixtures.rawFile(header: header, data: [1, 0xFF, 127, 0x81] + scaleData)
    }

    @Test func int8TensorIsDequantizedWithItsChannelScalesAndTheScalesAreConsumed() throws {
        let bytes = int8File(scale: #""w.scale":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}"#,
                             scaleData: Fixtures.float32Bytes([0.5, 0.25]))
        let file = try SafeTensorsFile.decode(bytes, source: Fixtures.source)
        // Levels 1, -1 (channel 0, scale 0.5) and 127, -127 (channel 1, scale 0.25).
        #expect(file.tensors == [NamedTensor(name: "w", shape: [2, 2], values: [0.5, -0.5, 31.75, -31.75])])
        #expect(file.storedDTypes == ["w": .int8])
    }

    @Test func int8TensorAcceptsFloat16Scales() throws {
        let half = [Float16(0.5), Float16(2)].flatMap { value in withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
        let bytes = int8File(scale: #""w.scale":{"dtype":"F16","shape":[2],"data_offsets":[4,8]}"#, scaleData: half)
        let file = try SafeTensorsFile.decode(bytes, source: Fixtures.source)
        #expect(file.tensor(named: "w")?.values == [0.5, -0.5, 254, -254])
    }

    @Test func loadRejectsInt8TensorWithoutScales() {
        let bytes = int8File(scale: #""b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}"#,
                             scaleData: Fixtures.float32Bytes([1, 1]))
        expectDecode(bytes, throws: "missingQuantizationScale", mentioning: ["'w'", "'w.scale'"])
    }

    @Test(arguments: [
        (#""w.scale":{"dtype":"F32","shape":[3],"data_offsets":[4,16]}"#, Fixtures.float32Bytes([1, 1, 1]), "shape [3]"),
        (#""w.scale":{"dtype":"F32","shape":[2,1],"data_offsets":[4,12]}"#, Fixtures.float32Bytes([1, 1]), "expected [2]"),
        (#""w.scale":{"dtype":"I8","shape":[2],"data_offsets":[4,6]}"#, [1, 1], "dtype I8"),
        (#""w.scale":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}"#, Fixtures.float32Bytes([1, 0]), "positive"),
        (#""w.scale":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}"#, Fixtures.float32Bytes([-1, 1]), "positive"),
        (#""w.scale":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}"#, Fixtures.float32Bytes([1, .nan]), "finite"),
    ])
    func loadRejectsUnusableInt8Scales(scale: String, data: [UInt8], detail: String) {
        expectDecode(int8File(scale: scale, scaleData: data), throws: "invalidQuantizationScale", mentioning: ["'w'", detail])
    }

    @Test func loadRejectsScalarInt8Tensor() {
        let header = #"{"w":{"dtype":"I8","shape":[],"data_offsets":[0,1]}}"#
        expectDecode(Fixtures.rawFile(header: header, data: [3]), throws: "invalidQuantizationScale",
                     mentioning: ["'w'", "at least one dimension"])
    }

    @Test(arguments: [
        ("[-1,2]", "negative"),
        ("[4294967296,4294967296]", "overflows"),
        ("[99999999999999999999]", "64 bits"),
        ("[2305843009213693952]", "byte count"),  // 2^61 elements fit an Int, 2^63 bytes do not
    ])
    func loadRejectsNegativeOrOverflowingShape(shape: String, detail: String) {
        let header = #"{"w":{"dtype":"F32","shape":\#(shape),"data_offsets":[0,8]}}"#
        expectDecode(
            Fixtures.rawFile(header: header, data: Self.twoFloats), throws: "invalidShape", mentioning: ["'w'", detail])
    }

    @Test func loadRejectsOffsetsWithBeginAfterEnd() {
        let header = #"{"w":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}}"#
        expectDecode(Fixtures.rawFile(header: header, data: Self.twoFloats), throws: "invalidOffsets", mentioning: ["'w'", "after"])
    }

    @Test func loadRejectsNegativeOrHugeOffsets() {
        let negative = #"{"w":{"dtype":"F32","shape":[2],"data_offsets":[-8,0]}}"#
        expectDecode(Fixtures.rawFile(header: negative, data: Self.twoFloats), throws: "invalidOffsets", mentioning: ["'w'", "negative"])
        let huge = #"{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,18446744073709551624]}}"#
        expectDecode(Fixtures.rawFile(header: huge, data: Self.twoFloats), throws: "invalidOffsets", mentioning: ["'w'"])
    }

    @Test func loadRejectsOverlappingOffsets() {
        let header = #"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}"#
        expectDecode(
            Fixtures.rawFile(header: header, data: Fixtures.float32Bytes([1, 2, 3])),
            throws: "invalidOffsets", mentioning: ["'b'", "overlaps", "'a'"])
    }

    @Test func loadRejectsGapBetweenTensors() {
        let header = #"{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}}"#
        expectDecode(
            Fixtures.rawFile(header: header, data: Fixtures.float32Bytes([1, 2, 3])),
            throws: "invalidOffsets", mentioning: ["'b'", "unused"])
    }

    @Test func loadRejectsDataThatDoesNotStartAtZero() {
        let header = #"{"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}"#
        expectDecode(Fixtures.rawFile(header: header, data: Self.twoFloats), throws: "invalidOffsets", mentioning: ["'a'"])
    }

    @Test func loadRejectsByteLengthThatDoesNotMatchShape() {
        let header = #"{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}"#
        expectDecode(
            Fixtures.rawFile(header: header, data: Fixtures.float32Bytes([1])),
            throws: "byteLengthMismatch", mentioning: ["'w'", "8", "4"])
        let float16 = #"{"h":{"dtype":"F16","shape":[2],"data_offsets":[0,8]}}"#
        expectDecode(Fixtures.rawFile(header: float16, data: Self.twoFloats), throws: "byteLengthMismatch", mentioning: ["'h'"])
    }

    @Test func loadRejectsOffsetsPastEndOfData() {
        let header = "{\(Self.tensorA)}"
        expectDecode(
            Fixtures.rawFile(header: header, data: Array(Self.twoFloats.prefix(6))),
            throws: "truncatedData", mentioning: ["'a'", "truncated"])
    }

    @Test func loadRejectsTruncatedEncodedFile() throws {
        let bytes = try Fixtures.smallFile.encode()
        expectDecode(Array(bytes.dropLast(3)), throws: "truncatedData", mentioning: ["'dense1.weight'"])
    }

    @Test func loadRejectsBytesAfterLastTensor() throws {
        expectDecode(
            Fixtures.rawFile(header: "{\(Self.tensorA)}", data: Self.twoFloats + [0]),
            throws: "trailingData", mentioning: ["8 of 9"])
        expectDecode(try Fixtures.smallFile.encode() + [0, 0, 0, 0], throws: "trailingData")
    }

    // MARK: Checksum

    @Test func loadRejectsFlippedDataByte() throws {
        var bytes = try Fixtures.smallFile.encode()
        bytes[bytes.count - 5] ^= 0x01
        expectDecode(bytes, throws: "checksumMismatch", mentioning: ["SHA-256"])
    }

    @Test func loadRejectsMissingChecksumOnlyWhenRequired() throws {
        let bytes = Fixtures.rawFile(header: "{\(Self.tensorA)}", data: Self.twoFloats)
        #expect(Fixtures.decodeError(bytes) == nil)
        expectDecode(bytes, throws: "checksumMissing", requireChecksum: true)
        #expect(Fixtures.decodeError(try Fixtures.smallFile.encode(), requireChecksum: true) == nil)
    }

    // MARK: Robustness

    @Test func everyTruncationOfAValidFileThrows() throws {
        let bytes = try Fixtures.smallFile.encode()
        for length in 0..<bytes.count {
            let error = Fixtures.decodeError(Array(bytes.prefix(length)))
            #expect(error != nil, "prefix of \(length) of \(bytes.count) bytes loaded")
            #expect(error.map(Fixtures.caseName) != "cannotRead", "prefix of \(length): \(String(describing: error))")
        }
    }

    @Test func randomByteFlipsNeverCrashAndOnlyThrowModelFileErrors() throws {
        let original = try Fixtures.smallFile.encode()
        var generator = SeededGenerator(seed: 20_250_131)
        var rejected = 0
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[position] ^= UInt8.random(in: 1...255, using: &generator)
            }
            let error = Fixtures.decodeError(bytes)
            #expect(error.map(Fixtures.caseName) != "cannotRead", "\(String(describing: error))")
            if error != nil { rejected += 1 }
        }
        // Nearly every corruption must be caught (a flip inside padding or a metadata
        // value can legitimately survive; with seed 20250131, 2928 of 3000 are rejected).
        #expect(rejected > 2800, "only \(rejected) of 3000 corrupted files were rejected")
    }
}

@Suite struct HeaderEscapeTests {
    @Test func escapedNamesAndSurrogatePairsDecode() throws {
        let header = #"{"__metadata__":{"k":"caf\u00e9 \ud83d\ude42 \"q\" \/"},"w\u0031":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}"#
        let file = try SafeTensorsFile.decode(Fixtures.rawFile(header: header, data: Fixtures.float32Bytes([3])), source: "escapes")
        #expect(file.metadata == ["k": "café 🙂 \"q\" /"])
        #expect(file.tensors.map(\.name) == ["w1"])
    }

    @Test(arguments: [#"{"k\ud83d":1}"#, #"{"k\ude42":1}"#, #"{"k\u12":1}"#, "{\"tab\there\":1}"])
    func malformedEscapesAreNotJSON(header: String) {
        #expect(Fixtures.decodeError(Fixtures.rawFile(header: header)).map(Fixtures.caseName) == "headerNotJSON")
    }
}
