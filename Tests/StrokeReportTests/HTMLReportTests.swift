import Foundation
import StrokeImage
import StrokeTraining
import Testing
@testable import StrokeReport

@Suite struct HTMLReportTests {
    @Test func pageLoadsNothingFromTheNetwork() {
        let html = HTMLReport.render(ReportFixtures.fullContent())
        for forbidden in ["http://", "https://", "<link", "<script", "src=\"/", "url("] {
            #expect(!html.contains(forbidden), "the page contains \(forbidden), so it is not self-contained")
        }
        #expect(html.contains("Content-Security-Policy\" content=\"default-src 'none'; img-src data:"))
    }

    @Test func labelsFileNamesAndMetadataAreEscaped() {
        let classes = ["<b>arrow</b>", "circle & co", "cycle\"'"]
        let base = ReportFixtures.evaluation(count: 21, errorEvery: 3, classes: classes)
        let hostile = base.predictions.map { prediction in
            var prediction = prediction
            prediction.source = "/tmp/<script>alert(1)</script>\"onerror=\"x.png"
            return prediction
        }
        var content = ReportFixtures.fullContent(evaluation: Evaluation(classes: classes, predictions: hostile))
        content.title = "<img src=x onerror=alert(1)>"
        content.modelMetadata = [(key: "<i>key</i>", value: "</td><script>")]
        let html = HTMLReport.render(content)
        for raw in ["<script", "<b>arrow", "<img src=x", "<i>key", "\"onerror=\""] {
            #expect(!html.contains(raw), "unescaped user text \(raw) reached the page")
        }
        #expect(html.contains("&lt;b&gt;arrow&lt;/b&gt;"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;onerror=&quot;x.png"))
    }

    @Test func everyConfusionCellListsAllItsDrawings() throws {
        let evaluation = ReportFixtures.evaluation(count: 90, errorEvery: 4)
        let html = HTMLReport.render(ReportContent(title: "cells", evaluation: evaluation))
        var checkedCells = 0
        for row in evaluation.classes.indices {
            for column in evaluation.classes.indices where row != column {
                let count = evaluation.confusionMatrix[row][column]
                let gallery = html.slice(from: "<section class=\"gallery\" id=\"confusion-\(row)-\(column)\"", to: "</section>")
                if count == 0 {
                    #expect(gallery == nil, "empty cell \(row),\(column) has a gallery")
                    continue
                }
                let section = try #require(gallery, "cell \(row),\(column) with \(count) drawings has no gallery")
                #expect(String(section).occurrences(of: "<figure>") == count,
                        "cell \(row),\(column): gallery shows \(String(section).occurrences(of: "<figure>")) of \(count) drawings")
                #expect(html.contains("href=\"#confusion-\(row)-\(column)\""), "cell \(row),\(column) does not link to its gallery")
                checkedCells += 1
            }
        }
        #expect(checkedCells > 0, "the fixture has no confusions, so nothing was checked")
    }

    @Test func heatmapCellsPreviewAtMostEightDrawings() throws {
        // 300 drawings, every second wrong: 50 in each confusion cell.
        let evaluation = ReportFixtures.evaluation(count: 300, errorEvery: 2)
        let html = HTMLReport.render(ReportContent(title: "previews", evaluation: evaluation))
        let heatmap = try #require(html.slice(from: "id=\"confusion-heatmap\"", to: "</table>"))
        let previews = String(heatmap).occurrences(of: "<img class=\"drawing\"")
        let confusionCells = evaluation.confusionMatrix.enumerated().flatMap { row, counts in
            counts.enumerated().filter { $0.offset != row && $0.element > 0 }
        }.count
        #expect(previews == confusionCells * (HTMLReport.previewsPerCell - 1),
                "\(previews) previews for \(confusionCells) crowded cells")
        #expect(String(heatmap).contains("+\(50 - (HTMLReport.previewsPerCell - 1))"))
    }

    @Test func heatmapTableHasOneCellPerMatrixEntryWithHeaders() throws {
        let evaluation = ReportFixtures.evaluation()
        let html = HTMLReport.render(ReportContent(title: "table", evaluation: evaluation))
        let table = String(try #require(html.slice(from: "id=\"confusion-heatmap\"", to: "</table>")))
        let classCount = evaluation.classes.count
        #expect(table.occurrences(of: "<th scope=\"col\">") == classCount)
        #expect(table.occurrences(of: "<th scope=\"row\">") == classCount)
        #expect(table.occurrences(of: "<td class=\"diagonal\"") == classCount)
        let cells = ["diagonal", "confusion", "empty"].map { table.occurrences(of: "<td class=\"\($0)\"") }
        #expect(cells.reduce(0, +) == classCount * classCount, "cells by kind (diagonal, confusion, empty): \(cells)")
        for row in 0..<classCount {
            let count = evaluation.confusionMatrix[row][row]
            #expect(table.contains("<span class=\"count\">\(count)</span>"), "diagonal count \(count) missing")
        }
    }

    @Test func thumbnailsAreEmbeddedPNGsOfTheDrawingsWithAltText() throws {
        let evaluation = ReportFixtures.evaluation()
        let html = HTMLReport.render(ReportContent(title: "thumbnails", evaluation: evaluation))
        let images = TestPNG.embeddedImages(in: html)
        try #require(!images.isEmpty, "no embedded images")
        let drawings = Set(evaluation.predictions.compactMap(\.image))
        for data in images {
            let decoded = try #require(TestPNG.decode(data, color: false), "an embedded image is not a valid PNG")
            #expect(decoded.width == 28 && decoded.height == 28)
            let image = GrayImage(width: decoded.width, height: decoded.height, pixels: decoded.pixels)
            #expect(drawings.contains(image), "an embedded image is none of the evaluation's drawings")
        }
        #expect(html.contains("alt=\"arrow drawing predicted as circle with confidence"))
        #expect(html.contains("width=\"84\" height=\"84\""), "gallery drawings are not shown at 3x")
        #expect(html.occurrences(of: "<img ") == html.occurrences(of: " alt=\""), "an image has no alt text")
    }

    @Test func predictionWithoutImageGetsALabelledPlaceholder() {
        let predictions = [
            Prediction(source: "key-1", trueClass: 0, predictedClass: 1, confidence: 0.6, probabilities: [0.4, 0.6]),
            Prediction(source: "key-2", trueClass: 1, predictedClass: 1, confidence: 0.9, probabilities: [0.1, 0.9]),
        ]
        let html = HTMLReport.render(
            ReportContent(title: "no images", evaluation: Evaluation(classes: ["a", "b"], predictions: predictions)))
        #expect(html.contains("role=\"img\" aria-label=\"a drawing predicted as b"))
        #expect(!html.contains("<img "))
    }

    @Test func confidentExamplesShowMostAndLeastConfidentWithoutRepeats() throws {
        let evaluation = ReportFixtures.evaluation(count: 90)
        var content = ReportContent(title: "confident", evaluation: evaluation)
        content.examplesPerClass = 4
        let html = HTMLReport.render(content)
        let section = String(try #require(html.slice(from: "<section id=\"confident\"", to: "</section>\n</section>")))
        let arrow = String(try #require(section.slice(from: "confident-0-heading", to: "</section>")))
        #expect(arrow.occurrences(of: "<figure>") == 8)
        let correct = evaluation.predictions.filter { $0.trueClass == 0 && $0.isCorrect }
        let best = try #require(correct.max { $0.confidence < $1.confidence })
        let worst = try #require(correct.min { $0.confidence < $1.confidence })
        let bestAt = try #require(arrow.range(of: "title=\"\(HTML.escape(best.source))\""))
        let worstAt = try #require(arrow.range(of: "title=\"\(HTML.escape(worst.source))\""))
        #expect(bestAt.lowerBound < worstAt.lowerBound, "most confident should come before least confident")
    }

    @Test func rejectSectionAppearsOnlyWithRejectFigures() {
        var content = ReportFixtures.fullContent()
        let with = HTMLReport.render(content)
        #expect(with.contains("id=\"reject\""))
        #expect(with.contains("3 of 60 (5.0%)"))
        #expect(with.contains("31 of 40 (77.5%)"))
        content.rejectOption = nil
        #expect(!HTMLReport.render(content).contains("id=\"reject\""))
    }

    @Test func trainingCurvesAppearOnlyWithHistory() throws {
        var content = ReportFixtures.fullContent()
        let html = HTMLReport.render(content)
        let loss = String(try #require(html.slice(from: "id=\"loss-chart\"", to: "</svg>")))
        #expect(loss.occurrences(of: "<polyline") == 2, "expected a training and a validation loss line")
        let points = try #require(loss.slice(from: "points=\"", to: "\"/>"))
        #expect(points.split(separator: " ").count == content.history.count)
        #expect(html.contains("id=\"accuracy-chart\""))
        #expect(html.contains("<caption>Training figures per epoch</caption>"))
        content.history = []
        #expect(!HTMLReport.render(content).contains("<svg"))
    }

    @Test func foldsShowEveryFoldAndTheSummedMatrix() throws {
        let folds = (1...3).map { fold in
            FoldResult(
                fold: fold, evaluation: ReportFixtures.evaluation(count: 30 + 3 * fold, errorEvery: 3 + fold),
                history: ReportFixtures.history(epochs: 4))
        }
        let html = HTMLReport.render(ReportContent(title: "folds", folds: folds))
        for fold in folds {
            #expect(html.contains("id=\"fold-\(fold.fold)-heatmap\""), "fold \(fold.fold) has no heatmap")
            #expect(html.contains("id=\"fold-\(fold.fold)-loss-chart\""), "fold \(fold.fold) has no curves")
        }
        let summed = Evaluation.combined(folds.map(\.evaluation))
        let main = String(try #require(html.slice(from: "id=\"confusion-heatmap\"", to: "</table>")))
        for row in summed.classes.indices {
            #expect(main.contains("<span class=\"count\">\(summed.confusionMatrix[row][row])</span>"))
        }
        #expect(html.contains("Summed over all 3 folds"))
    }

    @Test func longFileNamesAreShortenedKeepingStartAndEnd() {
        #expect(HTML.displayName("/d/cycle/004590B1-33F1-4CC2-9FF3-4A3E96F2E105.png") == "004590B…E105.png")
        #expect(HTML.displayName("/d/cycle/12.png") == "12.png")
        #expect(HTML.displayName("stroke-key-7") == "stroke-key-7")
    }

    @Test func reportWithoutEvaluationStillRenders() {
        let html = HTMLReport.render(ReportContent(title: "empty"))
        #expect(html.contains("<h1>empty</h1>"))
        #expect(html.contains("This report has no evaluation."))
        #expect(html.hasSuffix("</html>\n"))
    }
}

/// A 67-class evaluation stays readable: groups, the worst confusions, a small matrix.
@Suite struct LargeConfusionMatrixTests {
    static let classes = CharacterGroups.all.flatMap(\.classes)

    @Test func manyClassesGetGroupsWorstConfusionsAndASmallMatrix() {
        let evaluation = ReportFixtures.evaluation(count: 670, errorEvery: 5, classes: Self.classes)
        let html = HTMLReport.render(ReportContent(title: "characters", evaluation: evaluation))
        #expect(html.contains("Accuracy by group"))
        #expect(html.contains("The \(HTMLReport.worstConfusionsListed) largest confusions"))
        #expect(html.contains("width:\(HTMLReport.smallCellSize)px;height:\(HTMLReport.smallCellSize)px"))
        #expect(!html.contains("width:\(HTMLReport.cellSize)px;height:\(HTMLReport.cellSize)px"),
                "a 67-class matrix at full cell size would be \(67 * HTMLReport.cellSize) px wide")
        // Every listed confusion links to its gallery, which exists.
        for cell in evaluation.worstConfusions(limit: HTMLReport.worstConfusionsListed) {
            #expect(html.contains("href=\"#confusion-\(cell.trueClass)-\(cell.predictedClass)\""))
            #expect(html.contains("id=\"confusion-\(cell.trueClass)-\(cell.predictedClass)\""))
        }
    }

    @Test func fewClassesKeepTheFullMatrix() {
        let html = HTMLReport.render(ReportContent(title: "shapes", evaluation: ReportFixtures.evaluation()))
        #expect(!html.contains("largest confusions"))
        #expect(html.contains("width:\(HTMLReport.cellSize)px;height:\(HTMLReport.cellSize)px"))
    }
}
