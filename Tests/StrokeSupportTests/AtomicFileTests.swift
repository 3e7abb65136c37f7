import Foundation
import Testing
import StrokeSupport
import TestSupport

@Suite struct AtomicFileTests {
    @Test func writeCreatesFileWithExactBytes() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("out.bin")
        let bytes: [UInt8] = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try AtomicFile.write(bytes, to: url)
        #expect([UInt8](try Data(contentsOf: url)) == bytes)
        #expect(try directory.contents() == ["out.bin"], "no temporary file is left behind")
    }

    @Test func writeReplacesExistingFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("out.txt")
        try AtomicFile.write(Data("a much longer first version".utf8), to: url)
        try AtomicFile.write(Data("second".utf8), to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == "second")
        #expect(try directory.contents() == ["out.txt"])
    }

    @Test func writeOfNoBytesCreatesEmptyFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("empty")
        try AtomicFile.write([UInt8](), to: url)
        #expect(try Data(contentsOf: url).isEmpty)
    }

    @Test func writeIntoMissingDirectoryThrowsNamingIt() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.url.appendingPathComponent("no/such/dir")
        #expect(throws: AtomicFileError.directoryMissing(path: missing.path)) {
            try AtomicFile.write([1, 2, 3], to: missing.appendingPathComponent("out.bin"))
        }
        #expect(try directory.contents().isEmpty)
    }

    @Test func failedReplaceLeavesTargetUnchangedAndNoTemporaryFile() throws {
        // The target is a non-empty directory: rename(2) fails after the data was written
        // to the temporary file, which exercises the cleanup path.
        let directory = try TemporaryDirectory()
        let target = directory.url.appendingPathComponent("target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        let inside = target.appendingPathComponent("keep.txt")
        try AtomicFile.write(Data("keep".utf8), to: inside)

        var thrown: AtomicFileError?
        do {
            try AtomicFile.write([9, 9, 9], to: target)
        } catch {
            thrown = error as? AtomicFileError
        }
        let error = try #require(thrown)
        guard case .cannotWrite(let path, _) = error else {
            Issue.record("expected cannotWrite, got \(error)")
            return
        }
        #expect(path == target.path)
        #expect(try String(contentsOf: inside, encoding: .utf8) == "keep")
        #expect(try directory.contents() == ["target"], "the temporary file was removed")
    }
}
