import Foundation
import StrokeImage
import StrokeData
import StrokeTraining
import TestSupport
import Testing
@testable import StrokeReport

/// Regenerates `docs/report-screenshot.png` (and `docs/report-heatmap.png`) from the real
/// dataset's drawings with MADE-UP predictions, until a trained model can produce a real
/// evaluation. Off by default; run with:
///
///     STROKEKIT_WRITE_DOCS_SCREENSHOT=1 swift test --filter DocsScreenshotTests
@Suite(
    .enabled(if: ProcessInfo.processInfo.environment["STROKEKIT_WRITE_DOCS_SCREENSHOT"] == "1",
             "skipped: set STROKEKIT_WRITE_DOCS_SCREENSHOT=1 to regenerate docs/report-screenshot.png"),
    .enabled(if: Chromium.isAvailable, Chromium.skipMessage))
struct DocsScreenshotTests {
    @Test func writesTheDocsScreenshot() throws {
        let dataset = ProjectDataset.automataShapes
        let classes = ["arrow", "circle", "cycle"]
        // Made-up confusions in the spirit of the thesis's: cycles and circles mixed up.
        let confusions: [String: [(rate: Double, into: Int)]] = [
            "arrow": [(0.015, 2)], "circle": [(0.05, 2)], "cycle": [(0.07, 1), (0.01, 0)],
        ]
        var state: UInt64 = 42
        func nextUnit() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var predictions: [Prediction] = []
        var classCounts: [(label: String, count: Int)] = []
        for (trueClass, label) in classes.enumerated() {
            let folder = dataset.appendingPathComponent(label)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".png") }.sorted()
            classCounts.append((label, files.count))
            for file in files {
                let url = folder.appendingPathComponent(file)
                let decoded = try #require(TestPNG.decode(try Data(contentsOf: url), color: false), "cannot read \(url.path)")
                let image = GrayImage(width: decoded.width, height: decoded.height, pixels: decoded.pixels)
                var predicted = trueClass
                var draw = nextUnit()
                for confusion in confusions[label] ?? [] {
                    if draw < confusion.rate { predicted = confusion.into; break }
                    draw -= confusion.rate
                }
                let confidence = predicted == trueClass
                    ? Float(1 - 0.5 * pow(nextUnit(), 4)) : Float(0.4 + 0.45 * nextUnit())
                var probabilities = [Float](repeating: (1 - confidence) / 2, count: 3)
                probabilities[predicted] = confidence
                predictions.append(Prediction(
                    source: "automata-shapes/\(label)/\(file)", trueClass: trueClass, predictedClass: predicted,
                    confidence: confidence, probabilities: probabilities, isRejected: confidence < 0.5, image: image))
            }
        }
        let evaluation = Evaluation(classes: classes, predictions: predictions)
        let rejected = predictions.filter(\.isRejected).count
        let content = ReportContent(
            title: "Illustrative report: made-up predictions on automata-shapes",
            generated: "by DocsScreenshotTests (predictions are made up; regenerate from a trained model)",
            modelMetadata: [
                (key: "strokekit.format_version", value: "1"),
                (key: "strokekit.architecture", value: "conv16-pool-conv32-pool-dense64-dense3 (illustrative)"),
                (key: "strokekit.classes", value: classes.joined(separator: ",")),
                (key: "strokekit.input.ink", value: "white-on-black"),
            ],
            datasetSummary: DatasetSummary(
                path: "datasets/automata-shapes", fingerprint: nil, classCounts: classCounts),
            evaluation: evaluation,
            history: ReportFixtures.history(epochs: 20),
            rejectOption: RejectSummary(
                rule: "reject when the top probability is below the threshold", threshold: 0.5,
                trueShapeCount: predictions.count, trueShapesRejected: rejected))

        let docs = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
        let directory = try ReportFixtures.temporaryDirectory()
        let page = directory.appendingPathComponent("report.html")
        try ReportWriter.write(content, to: page)
        try ReportWriter.write(content, to: docs.appendingPathComponent("report-heatmap.png"))
        try Chromium.screenshot(
            of: page, to: docs.appendingPathComponent("report-screenshot.png"), width: 1200, height: 1700)
        print("DocsScreenshotTests: page at \(page.path); screenshot and heatmap in \(docs.path)")
        #expect(FileManager.default.fileExists(atPath: docs.appendingPathComponent("report-screenshot.png").path))
    }
}
