import Foundation
import StrokeTraining
import Testing
@testable import StrokeReport

@Suite struct ReportWriterTests {
    @Test func unknownExtensionIsRejectedNamingThePath() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        let url = directory.appendingPathComponent("report.pdf")
        let error = #expect(throws: ReportError.self) { try ReportWriter.write(ReportFixtures.fullContent(), to: url) }
        #expect(error == .unsupportedExtension(path: url.path))
        #expect(error?.description.contains(url.path) == true)
        #expect(error?.description.contains("FILE.html") == true)
    }

    @Test func missingFolderIsReported() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        let url = directory.appendingPathComponent("no/such/folder/report.html")
        let error = #expect(throws: ReportError.self) { try ReportWriter.write(ReportFixtures.fullContent(), to: url) }
        #expect(error == .directoryMissing(path: url.path, directory: url.deletingLastPathComponent().path))
        #expect(error?.description.contains("does not exist") == true)
    }

    @Test func fileInThePathIsReported() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        let file = directory.appendingPathComponent("plain.txt")
        try Data("x".utf8).write(to: file)
        let url = file.appendingPathComponent("report.html")
        let error = #expect(throws: ReportError.self) { try ReportWriter.write(ReportFixtures.fullContent(), to: url) }
        #expect(error == .notADirectory(path: url.path, component: file.path))
    }

    @Test func outputThatIsAFolderIsRejected() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        let url = directory.appendingPathComponent("looks-like.html")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        let error = #expect(throws: ReportError.self) { try ReportWriter.write(ReportFixtures.fullContent(), to: url) }
        #expect(error == .outputIsDirectory(path: url.path))
    }

    #if os(Linux)
    @Test func unwritableLocationGivesAWriteError() throws {
        // /proc refuses new files even for root, unlike a chmod-ed folder.
        let url = URL(fileURLWithPath: "/proc/strokekit-report-test.html")
        let error = #expect(throws: ReportError.self) { try ReportWriter.write(ReportFixtures.fullContent(), to: url) }
        guard case .writeFailed(let path, _)? = error else {
            Issue.record("expected writeFailed, got \(String(describing: error))")
            return
        }
        #expect(path == url.path)
    }
    #endif

    @Test func existingReportIsReplacedAtomicallyWithoutLeftovers() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        let url = directory.appendingPathComponent("report.html")
        try Data("old report".utf8).write(to: url)
        try ReportWriter.write(ReportFixtures.fullContent(), to: url)
        let written = try String(contentsOf: url, encoding: .utf8)
        #expect(written == HTMLReport.render(ReportFixtures.fullContent()))
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(entries == ["report.html"], "temporary files left behind: \(entries)")
    }

    @Test func pngReportIsTheHeatmapImage() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        let url = directory.appendingPathComponent("matrix.PNG")
        let content = ReportFixtures.fullContent()
        try ReportWriter.write(content, to: url)
        let decoded = try #require(TestPNG.decode(try Data(contentsOf: url), color: true))
        let expected = HeatmapImage.render(try #require(content.evaluation))
        #expect(decoded.width == expected.width && decoded.height == expected.height)
        #expect(decoded.pixels == expected.pixels)
    }

    @Test func pngReportWithoutEvaluationIsRejected() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        let url = directory.appendingPathComponent("matrix.png")
        let error = #expect(throws: ReportError.self) { try ReportWriter.write(ReportContent(title: "none"), to: url) }
        #expect(error == .nothingToDraw(path: url.path))
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
