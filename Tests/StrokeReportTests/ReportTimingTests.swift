import Foundation
import StrokeTraining
import Testing
@testable import StrokeReport

@Suite struct ReportTimingTests {
    /// Prints how long the page and the PNG take for a dataset the size of automata-shapes
    /// (670 drawings); the issue asks for under a second beyond evaluation. Tests never
    /// assert on time, so this one checks only that the page holds every confusion.
    @Test func reportFor670DrawingsPrintsItsRenderTime() throws {
        let evaluation = ReportFixtures.evaluation(count: 670, errorEvery: 9)
        let content = ReportContent(title: "timing", evaluation: evaluation, history: ReportFixtures.history(epochs: 30))
        let directory = try ReportFixtures.temporaryDirectory()
        let clock = ContinuousClock()
        let htmlURL = directory.appendingPathComponent("timing.html")
        let htmlTime = try clock.measure { try ReportWriter.write(content, to: htmlURL) }
        let pngTime = try clock.measure {
            try ReportWriter.write(content, to: directory.appendingPathComponent("timing.png"))
        }
        let html = try String(contentsOf: htmlURL, encoding: .utf8)
        let misclassified = evaluation.misclassified.count
        print("StrokeReport timing: 670 drawings, \(misclassified) misclassified: HTML page rendered and written in "
              + "\(htmlTime), heatmap PNG in \(pngTime); page \(html.utf8.count / 1024) KiB")
        #expect(html.occurrences(of: "<figure>") >= misclassified)
    }
}
