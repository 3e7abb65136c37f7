import Foundation
import Testing
import StrokeModelFile
import TestSupport

/// The model reader's size limits, each fed a file just over it.
@Suite struct ModelFileLimitTests {
    /// A safetensors file whose header lists `count` empty tensors.
    func file(tensors count: Int) -> [UInt8] {
        let entries = (0..<count).map { "\"t\($0)\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}" }
        let header = Array(("{" + entries.joined(separator: ",") + "}").utf8)
        var bytes: [UInt8] = (0..<8).map { UInt8(truncatingIfNeeded: UInt64(header.count) >> (8 * UInt64($0))) }
        bytes += header
        return bytes
    }

    @Test func tensorCountJustOverTheLimit() {
        let limit = SafeTensorsFile.maximumTensorCount
        #expect(throws: ModelFileError.tooManyTensors(source: "many.safetensors", count: limit + 1, limit: limit)) {
            try SafeTensorsFile.decode(file(tensors: limit + 1), source: "many.safetensors")
        }
        // At the limit the count is accepted (empty tensors then all sit at offset 0, which is fine).
        #expect(throws: Never.self) { try SafeTensorsFile.decode(file(tensors: limit), source: "ok.safetensors") }
        let message = ModelFileError.tooManyTensors(source: "m", count: 2, limit: 1).description
        #expect(message.contains("SafeTensorsFile.maximumTensorCount"), "\(message)")
    }

    @Test func fileSizeJustOverTheLimitIsRefusedBeforeReading() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("huge.safetensors")
        // A sparse file: its size is over the limit, but it takes no disk space.
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(SafeTensorsFile.maximumFileBytes + 1))
        try handle.close()
        #expect(throws: ModelFileError.fileTooLarge(
            source: url.path, size: SafeTensorsFile.maximumFileBytes + 1, limit: SafeTensorsFile.maximumFileBytes)) {
            try SafeTensorsFile.read(contentsOf: url)
        }
    }

    @Test func headerLengthJustOverTheLimit() {
        let announced = UInt64(SafeTensorsFile.maximumHeaderLength + 1)
        let bytes: [UInt8] = (0..<8).map { UInt8(truncatingIfNeeded: announced >> (8 * UInt64($0))) } + Array("{}".utf8)
        #expect(throws: ModelFileError.headerTooLarge(
            source: "h.safetensors", headerLength: announced, limit: SafeTensorsFile.maximumHeaderLength)) {
            try SafeTensorsFile.decode(bytes, source: "h.safetensors")
        }
    }
}
