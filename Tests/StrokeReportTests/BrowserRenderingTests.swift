import Foundation
import StrokeTraining
import Testing
@testable import StrokeReport

/// Headless Chromium (Debian package `chromium`), when installed.
enum Chromium {
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser"] {
            for directory in path.split(separator: ":") {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    static var isAvailable: Bool { executable != nil }
    static let skipMessage: Comment = "skipped: chromium not installed (Debian: apt-get install chromium)"

    /// Runs headless Chromium with `arguments` and returns its standard output.
    /// NOTE: Chromium can hang on a busy machine; it is killed after `timeout` seconds.
    static func run(_ arguments: [String], timeout: Double = 120) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(executable))
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                             "--no-first-run", "--disable-extensions"] + arguments
        // Output goes to a file, not a pipe, so a large DOM dump cannot fill a pipe and stall Chromium.
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let output = try FileHandle(forWritingTo: outputURL)
        defer { try? output.close() }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning {
            process.terminate()
            Issue.record("chromium did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        return String(decoding: try Data(contentsOf: outputURL), as: UTF8.self)
    }

    /// Takes a `width` x `height` screenshot of the page at `page` into `screenshot`.
    static func screenshot(of page: URL, to screenshot: URL, width: Int, height: Int) throws {
        _ = try run(["--screenshot=\(screenshot.path)", "--window-size=\(width),\(height)", page.absoluteString])
    }
}

@Suite(.enabled(if: Chromium.isAvailable, Chromium.skipMessage), .serialized)
struct BrowserRenderingTests {
    @Test func reportRendersAsANonTrivialScreenshot() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        let page = directory.appendingPathComponent("report.html")
        let content = ReportFixtures.fullContent()
        try ReportWriter.write(content, to: page)
        let screenshot = directory.appendingPathComponent("screenshot.png")
        try Chromium.screenshot(of: page, to: screenshot, width: 1200, height: 1600)

        let data = try Data(contentsOf: screenshot)
        let decoded = try #require(TestPNG.decode(data, color: true), "chromium wrote no readable screenshot")
        #expect(decoded.width == 1200 && decoded.height == 1600)
        var colours = Set<UInt32>()
        for index in stride(from: 0, to: decoded.pixels.count, by: 3) {
            colours.insert(UInt32(decoded.pixels[index]) << 16 | UInt32(decoded.pixels[index + 1]) << 8
                           | UInt32(decoded.pixels[index + 2]))
        }
        #expect(colours.count > 200, "the screenshot has only \(colours.count) colours: is the page blank?")
        // The darkest diagonal cell's fill must be on screen (tolerating colour management).
        let evaluation = try #require(content.evaluation)
        let share = Double(evaluation.confusionMatrix[0][0]) / Double(evaluation.confusionMatrix[0].reduce(0, +))
        let fill = HeatmapColor.fill(share: share, isDiagonal: true)
        var fillPixels = 0
        for index in stride(from: 0, to: decoded.pixels.count, by: 3)
        where abs(Int(decoded.pixels[index]) - Int(fill.red)) <= 3
            && abs(Int(decoded.pixels[index + 1]) - Int(fill.green)) <= 3
            && abs(Int(decoded.pixels[index + 2]) - Int(fill.blue)) <= 3 {
            fillPixels += 1
        }
        #expect(fillPixels > 5000, "only \(fillPixels) pixels of the heatmap colour \(fill.hex) in the screenshot")
    }

    @Test func heatmapHasItsDesignedSizeAndAllDrawingsLoad() throws {
        let directory = try ReportFixtures.temporaryDirectory()
        let content = ReportFixtures.fullContent()
        // The page forbids scripts; this copy allows one inline probe, and keeps the rest of
        // the policy (no network, images only from data URIs) in force.
        let probe = """
            <script>
            window.addEventListener('load', () => {
              const table = document.getElementById('confusion-heatmap');
              const body = table.tBodies[0].getBoundingClientRect();
              const cell = table.tBodies[0].rows[0].cells[1].getBoundingClientRect();
              const images = [...document.querySelectorAll('img.drawing')];
              const loaded = images.filter(image => image.complete && image.naturalWidth === 28).length;
              document.body.dataset.probe = [body.width, body.height, cell.width, cell.height, images.length, loaded].join(' ');
            });
            </script>
            """
        let html = HTMLReport.render(content)
            .replacingOccurrences(of: "default-src 'none';", with: "default-src 'none'; script-src 'unsafe-inline';")
            .replacingOccurrences(of: "</body>", with: probe + "</body>")
        let page = directory.appendingPathComponent("probe.html")
        try Data(html.utf8).write(to: page)

        let dom = try Chromium.run(["--dump-dom", "--virtual-time-budget=5000", "--window-size=1200,1600", page.absoluteString])
        let attribute = try #require(dom.slice(from: "data-probe=\"", to: "\""), "the probe did not run; DOM: \(dom.prefix(300))")
        let numbers = attribute.dropFirst("data-probe=\"".count).dropLast().split(separator: " ").compactMap { Double($0) }
        try #require(numbers.count == 6, "unexpected probe output \(attribute)")
        let classCount = Double(ReportFixtures.classes.count)
        let expectedWidth = Double(HTMLReport.rowHeaderWidth) + classCount * Double(HTMLReport.cellSize)
        let expectedHeight = classCount * Double(HTMLReport.cellSize)
        #expect(abs(numbers[0] - expectedWidth) <= 1, "heatmap body is \(numbers[0]) px wide, expected \(expectedWidth)")
        #expect(abs(numbers[1] - expectedHeight) <= 1, "heatmap body is \(numbers[1]) px high, expected \(expectedHeight)")
        #expect(abs(numbers[2] - Double(HTMLReport.cellSize)) <= 1 && abs(numbers[3] - Double(HTMLReport.cellSize)) <= 1,
                "a heatmap cell is \(numbers[2])x\(numbers[3]), expected \(HTMLReport.cellSize) square")
        #expect(numbers[4] > 0 && numbers[5] == numbers[4], "\(Int(numbers[5])) of \(Int(numbers[4])) drawings loaded")
    }
}
