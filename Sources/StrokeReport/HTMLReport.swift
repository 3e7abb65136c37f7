import Foundation
import StrokeTraining

/// The evaluation page: one self-contained HTML file (styles inline, drawings embedded as
/// data URIs, a Content-Security-Policy forbidding any network access) that opens in any
/// browser, reads with a keyboard and screen reader (real tables, alt text) and prints.
///
/// Sections, in order: summary, model and dataset, confusion heatmap (off-diagonal cells
/// preview their drawings and link to the full gallery), per-class precision/recall/F1,
/// training curves, misclassified drawings by cell, most and least confident correct
/// drawings per class, reject option, and the folds of a cross-validation.
public enum HTMLReport {
    /// Side of one cell of the main heatmap, in CSS pixels.
    static let cellSize = 136
    /// Side of one cell of a fold's compact heatmap.
    static let compactCellSize = 76
    /// Width of the heatmap's row-label column.
    static let rowHeaderWidth = 120
    /// Drawings previewed inside one heatmap cell before "+N more".
    static let previewsPerCell = 8
    /// Above this many classes the matrix is drawn small, without previews, after the
    /// accuracy by group and the list of the worst confusions (a 67-class matrix at full
    /// size would be 9,000 px wide).
    static let largestFullMatrix = 20
    /// Side of a cell of a large matrix, and how many of its worst confusions are listed.
    static let smallCellSize = 34
    static let worstConfusionsListed = 30
    /// Magnification of drawings in galleries (28 px -> 84 px).
    static let galleryScale = 3

    /// The whole page as one HTML string.
    public static func render(_ content: ReportContent) -> String {
        PageBuilder(content: content).build()
    }
}

/// Builds the page top-down; one method per section.
private struct PageBuilder {
    let content: ReportContent
    let evaluation: Evaluation?
    let thumbnails = ThumbnailEncoder()

    init(content: ReportContent) {
        self.content = content
        self.evaluation = content.overallEvaluation
    }

    func build() -> String {
        var sections: [(id: String, title: String, html: String)] = []
        sections.append(("summary", "Summary", summary()))
        if !content.modelMetadata.isEmpty || content.datasetSummary != nil {
            sections.append(("model-and-data", "Model and data", modelAndData()))
        }
        if let evaluation {
            sections.append(("confusion", "Confusion matrix", confusion(evaluation)))
            sections.append(("metrics", "Precision, recall and F1", metrics(evaluation)))
        }
        if !content.history.isEmpty {
            sections.append(("training", "Training curves", TrainingCurves.html(content.history, idPrefix: "")))
        }
        if let evaluation {
            sections.append(("misclassified", "Misclassified drawings", misclassified(evaluation)))
            sections.append(("confident", "Most and least confident correct drawings", confident(evaluation)))
        }
        if let reject = content.rejectOption {
            sections.append(("reject", "Reject option", rejectOption(reject)))
        }
        if !content.folds.isEmpty {
            sections.append(("folds", "Cross-validation folds", folds()))
        }

        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
            <meta name="generator" content="StrokeKit">
            <title>\(HTML.escape(content.title))</title>
            <style>\(ReportStyle.css)</style>
            </head>
            <body>
            <a class="skip-link" href="#\(evaluation == nil ? "main" : "confusion")">Skip to the \(evaluation == nil ? "report" : "confusion matrix")</a>
            <header class="page-header">
            <p class="eyebrow">StrokeKit report</p>
            <h1>\(HTML.escape(content.title))</h1>

            """
        if let generated = content.generated {
            html += "<p class=\"generated\">Generated \(HTML.escape(generated))</p>\n"
        }
        html += "<nav aria-label=\"Sections\"><ul>"
        for section in sections {
            html += "<li><a href=\"#\(section.id)\">\(HTML.escape(section.title))</a></li>"
        }
        html += "</ul></nav>\n</header>\n<main id=\"main\">\n"
        for section in sections {
            html += "<section id=\"\(section.id)\" aria-labelledby=\"\(section.id)-heading\">\n"
            html += "<h2 id=\"\(section.id)-heading\">\(HTML.escape(section.title))</h2>\n"
            html += section.html
            html += "</section>\n"
        }
        html += """
            </main>
            <footer><p>Made by StrokeKit. This page is self-contained: it loads nothing from the network.</p></footer>
            </body>
            </html>

            """
        return html
    }

    // MARK: - Summary, model, dataset

    private func summary() -> String {
        var cards: [(value: String, label: String)] = []
        if let evaluation {
            let correct = evaluation.predictions.lazy.filter(\.isCorrect).count
            cards.append((HTML.percent(evaluation.accuracy), "accuracy, \(correct) of \(evaluation.count) correct"))
            let macroF1 = evaluation.perClass.isEmpty
                ? 0 : evaluation.perClass.map(\.f1).reduce(0, +) / Double(evaluation.perClass.count)
            cards.append((String(format: "%.3f", macroF1), "macro-averaged F1"))
            cards.append((String(evaluation.count - correct), "misclassified drawings"))
            let rejected = evaluation.predictions.lazy.filter(\.isRejected).count
            if rejected > 0 || content.rejectOption != nil {
                cards.append((String(rejected), "rejected by the reject option"))
            }
        }
        if !content.folds.isEmpty {
            cards.append((String(content.folds.count), "cross-validation folds, matrices summed"))
        }
        guard !cards.isEmpty else { return "<p>This report has no evaluation.</p>\n" }
        var html = "<ul class=\"cards\">"
        for card in cards {
            html += "<li><span class=\"card-value\">\(HTML.escape(card.value))</span> <span class=\"card-label\">\(HTML.escape(card.label))</span></li>"
        }
        return html + "</ul>\n"
    }

    private func modelAndData() -> String {
        var html = "<div class=\"columns\">\n"
        if !content.modelMetadata.isEmpty {
            html += "<div><h3>Model</h3><table class=\"key-value\"><caption class=\"visually-hidden\">Model metadata</caption><tbody>\n"
            for entry in content.modelMetadata {
                html += "<tr><th scope=\"row\">\(HTML.escape(entry.key))</th><td>\(HTML.escape(entry.value))</td></tr>\n"
            }
            html += "</tbody></table></div>\n"
        }
        if let dataset = content.datasetSummary {
            html += "<div><h3>Dataset</h3><table class=\"key-value\"><caption class=\"visually-hidden\">Dataset</caption><tbody>\n"
            html += "<tr><th scope=\"row\">path</th><td>\(HTML.escape(dataset.path))</td></tr>\n"
            if let fingerprint = dataset.fingerprint {
                html += "<tr><th scope=\"row\">fingerprint</th><td>\(HTML.escape(fingerprint))</td></tr>\n"
            }
            html += "<tr><th scope=\"row\">examples</th><td>\(dataset.total)</td></tr>\n</tbody></table>\n"
            html += "<table class=\"numbers\"><caption>Examples per class</caption><thead><tr><th scope=\"col\">Class</th>"
            html += "<th scope=\"col\">Examples</th><th scope=\"col\">Share</th></tr></thead><tbody>\n"
            for entry in dataset.classCounts {
                let share = dataset.total == 0 ? 0 : Double(entry.count) / Double(dataset.total)
                html += "<tr><th scope=\"row\">\(HTML.escape(entry.label))</th><td>\(entry.count)</td><td>\(HTML.percent(share))</td></tr>\n"
            }
            html += "</tbody></table></div>\n"
        }
        return html + "</div>\n"
    }

    // MARK: - Confusion matrix

    private func confusion(_ evaluation: Evaluation) -> String {
        var html = """
            <p class="lede">Rows are the true classes, columns what the model predicted. Each cell gives the number \
            of drawings and their share of the row; the diagonal (blue) is correct, the rest (red) are confusions, \
            darker for a larger share. A confusion cell shows its drawings and links to all of them.</p>

            """
        if content.evaluation == nil && !content.folds.isEmpty {
            html += "<p>Summed over all \(content.folds.count) folds: every drawing was held out exactly once.</p>\n"
        }
        if evaluation.classes.count > HTMLReport.largestFullMatrix {
            html += groupsAndWorstConfusions(evaluation)
            html += heatmap(evaluation, id: "confusion-heatmap", cellSize: HTMLReport.smallCellSize, previews: false)
        } else {
            html += heatmap(evaluation, id: "confusion-heatmap", cellSize: HTMLReport.cellSize, previews: true)
        }
        html += """
            <p class="legend" aria-hidden="true"><span class="swatch" style="background:\(HeatmapColor.fill(share: 0.9, isDiagonal: true).hex)"></span> correct \
            <span class="swatch" style="background:\(HeatmapColor.fill(share: 0.1, isDiagonal: false).hex)"></span> confused \
            <span class="ramp"></span> share of the true class, 0 to 100%</p>

            """
        return html
    }

    /// For many classes: top-3 accuracy, accuracy per class group (among all classes and
    /// within the group), and the worst confusions with their drawings, before the small matrix.
    private func groupsAndWorstConfusions(_ evaluation: Evaluation) -> String {
        var html = "<p>Top-3 accuracy: \(HTML.percent(evaluation.topAccuracy(3))).</p>\n"
        let groups = CharacterGroups.groups(for: evaluation.classes)
        if !groups.isEmpty {
            html += """
                <table class="numbers"><caption>Accuracy by group: the prediction among all classes, and the most \
                probable class of the group alone</caption>
                <thead><tr><th scope="col">Group</th><th scope="col">Among all classes</th>\
                <th scope="col">Within the group</th><th scope="col">Support</th></tr></thead><tbody>

                """
            for group in groups.map(evaluation.accuracy(of:)) {
                html += "<tr><th scope=\"row\">\(HTML.escape(group.group))</th><td>\(HTML.percent(group.amongAllClasses))</td>"
                html += "<td>\(HTML.percent(group.withinGroup))</td><td>\(group.support)</td></tr>\n"
            }
            html += "</tbody></table>\n"
        }
        let worst = evaluation.worstConfusions(limit: HTMLReport.worstConfusionsListed)
        guard !worst.isEmpty else { return html }
        html += """
            <table class="numbers worst-confusions"><caption>The \(worst.count) largest confusions</caption>
            <thead><tr><th scope="col">True</th><th scope="col">Predicted</th><th scope="col">Count</th>\
            <th scope="col">Share of the true class</th><th scope="col">Drawings</th></tr></thead><tbody>

            """
        for cell in worst {
            let rowTotal = evaluation.confusionMatrix[cell.trueClass].reduce(0, +)
            html += "<tr><th scope=\"row\">\(HTML.escape(evaluation.classes[cell.trueClass]))</th>"
            html += "<td>\(HTML.escape(evaluation.classes[cell.predictedClass]))</td>"
            html += "<td><a href=\"#confusion-\(cell.trueClass)-\(cell.predictedClass)\">\(cell.count)</a></td>"
            html += "<td>\(HTML.percent(Double(cell.count) / Double(max(1, rowTotal))))</td><td>"
            html += cellPreviews(evaluation, row: cell.trueClass, column: cell.predictedClass, count: cell.count)
            html += "</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    /// The matrix as a table with fixed-size cells; with `previews`, confusion cells show up to
    /// `previewsPerCell` drawings at their natural 28 px and link to their gallery.
    private func heatmap(_ evaluation: Evaluation, id: String, cellSize: Int, previews: Bool) -> String {
        let classes = evaluation.classes
        var html = """
            <div class="heatmap-scroll"><table class="heatmap\(previews ? "" : " compact")" id="\(id)" style="width:\(HTMLReport.rowHeaderWidth + classes.count * cellSize)px">
            <caption class="visually-hidden">Confusion matrix: rows true class, columns predicted class, cells count and share of the row</caption>
            <colgroup><col style="width:\(HTMLReport.rowHeaderWidth)px">\(String(repeating: "<col style=\"width:\(cellSize)px\">", count: classes.count))</colgroup>
            <thead><tr><td class="corner"><span class="axis">true ↓</span> <span class="axis">predicted →</span></td>
            """
        for label in classes {
            html += "<th scope=\"col\">\(HTML.escape(label))</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for (row, label) in classes.enumerated() {
            let rowTotal = evaluation.confusionMatrix[row].reduce(0, +)
            html += "<tr><th scope=\"row\">\(HTML.escape(label))</th>"
            for column in classes.indices {
                let count = evaluation.confusionMatrix[row][column]
                let share = rowTotal == 0 ? 0 : Double(count) / Double(rowTotal)
                let isDiagonal = row == column
                let fill = HeatmapColor.fill(share: share, isDiagonal: isDiagonal)
                let text = HeatmapColor.text(share: share, isDiagonal: isDiagonal)
                html += "<td class=\"\(isDiagonal ? "diagonal" : count > 0 ? "confusion" : "empty")\" "
                html += "style=\"background:\(fill.hex);color:\(text.hex)\">"
                html += "<div class=\"cell\" style=\"width:\(cellSize)px;height:\(cellSize)px\">"
                let countHTML = "<span class=\"count\">\(count)</span>"
                if previews && !isDiagonal && count > 0 {
                    html += "<a class=\"cell-link\" href=\"#confusion-\(row)-\(column)\">\(countHTML)"
                    html += "<span class=\"visually-hidden\"> \(HTML.escape(label)) drawings predicted as \(HTML.escape(classes[column])), see them</span></a>"
                } else {
                    html += countHTML
                }
                html += "<span class=\"share\">\(rowTotal == 0 ? "–" : HTML.percent(share))</span>"
                if previews && !isDiagonal && count > 0 {
                    html += cellPreviews(evaluation, row: row, column: column, count: count)
                }
                html += "</div></td>"
            }
            html += "</tr>\n"
        }
        return html + "</tbody></table></div>\n"
    }

    private func cellPreviews(_ evaluation: Evaluation, row: Int, column: Int, count: Int) -> String {
        let drawings = drawings(in: evaluation, row: row, column: column)
        let shown = count > HTMLReport.previewsPerCell ? HTMLReport.previewsPerCell - 1 : count
        var html = "<span class=\"previews\">"
        for prediction in drawings.prefix(shown) {
            html += thumbnails.image(prediction, classes: evaluation.classes, scale: 1)
        }
        if count > shown {
            html += "<span class=\"more\" aria-hidden=\"true\">+\(count - shown)</span>"
        }
        return html + "</span>"
    }

    /// The drawings of one cell, least confident first (the order of `Evaluation.misclassified`).
    private func drawings(in evaluation: Evaluation, row: Int, column: Int) -> [Prediction] {
        evaluation.predictions
            .filter { $0.trueClass == row && $0.predictedClass == column }
            .sorted { $0.confidence < $1.confidence }
    }

    // MARK: - Metrics

    private func metrics(_ evaluation: Evaluation) -> String {
        var html = """
            <table class="numbers metrics"><caption>Per-class precision, recall and F1 (accuracy \(HTML.percent(evaluation.accuracy)))</caption>
            <thead><tr><th scope="col">Class</th><th scope="col">Precision</th><th scope="col">Recall</th>\
            <th scope="col">F1</th><th scope="col">Support</th></tr></thead>
            <tbody>

            """
        func score(_ value: Double) -> String {
            "<td><span class=\"bar\" style=\"--value:\(String(format: "%.3f", value))\"></span>\(String(format: "%.3f", value))</td>"
        }
        for metrics in evaluation.perClass {
            html += "<tr><th scope=\"row\">\(HTML.escape(metrics.label))</th>\(score(metrics.precision))"
            html += "\(score(metrics.recall))\(score(metrics.f1))<td>\(metrics.support)</td></tr>\n"
        }
        let classCount = Double(max(1, evaluation.perClass.count))
        let average = { (value: (ClassMetrics) -> Double) in evaluation.perClass.map(value).reduce(0, +) / classCount }
        html += "</tbody><tfoot><tr><th scope=\"row\">macro average</th>\(score(average(\.precision)))"
        html += "\(score(average(\.recall)))\(score(average(\.f1)))<td>\(evaluation.count)</td></tr></tfoot></table>\n"
        return html
    }

    // MARK: - Galleries

    private func misclassified(_ evaluation: Evaluation) -> String {
        let classes = evaluation.classes
        guard evaluation.predictions.contains(where: { !$0.isCorrect }) else {
            return "<p>No drawing was misclassified.</p>\n"
        }
        var html = "<p class=\"lede\">One group per confusion cell; least confident first.</p>\n"
        for row in classes.indices {
            for column in classes.indices where row != column {
                let drawings = drawings(in: evaluation, row: row, column: column)
                guard !drawings.isEmpty else { continue }
                let id = "confusion-\(row)-\(column)"
                html += "<section class=\"gallery\" id=\"\(id)\" aria-labelledby=\"\(id)-heading\">"
                html += "<h3 id=\"\(id)-heading\"><span class=\"true-label\">\(HTML.escape(classes[row]))</span> drawn, "
                html += "predicted <span class=\"predicted-label\">\(HTML.escape(classes[column]))</span> "
                html += "<span class=\"group-count\">(\(drawings.count))</span></h3>\n"
                html += gallery(drawings, classes: classes)
                html += "<p class=\"back\"><a href=\"#confusion\">Back to the matrix</a></p></section>\n"
            }
        }
        return html
    }

    private func confident(_ evaluation: Evaluation) -> String {
        let classes = evaluation.classes
        let perSide = max(1, content.examplesPerClass)
        var html = "<p class=\"lede\">Correctly classified drawings the model was surest and least sure about, per class.</p>\n"
        for (index, label) in classes.enumerated() {
            let correct = evaluation.predictions
                .filter { $0.trueClass == index && $0.isCorrect }
                .sorted { $0.confidence > $1.confidence }
            html += "<section class=\"gallery\" aria-labelledby=\"confident-\(index)-heading\">"
            html += "<h3 id=\"confident-\(index)-heading\">\(HTML.escape(label))</h3>\n"
            guard !correct.isEmpty else {
                html += "<p>No \(HTML.escape(label)) drawing was classified correctly.</p></section>\n"
                continue
            }
            let most = Array(correct.prefix(perSide))
            let least = Array(correct.dropFirst(most.count).suffix(perSide).reversed())
            html += "<div class=\"confidence-rows\"><div><h4>Most confident</h4>\(gallery(most, classes: classes))</div>"
            if !least.isEmpty {
                html += "<div><h4>Least confident</h4>\(gallery(least, classes: classes))</div>"
            }
            html += "</div></section>\n"
        }
        return html
    }

    private func gallery(_ predictions: [Prediction], classes: [String]) -> String {
        var html = "<ul class=\"thumbnails\">"
        for prediction in predictions {
            html += "<li><figure>\(thumbnails.image(prediction, classes: classes, scale: HTMLReport.galleryScale))"
            html += "<figcaption><span class=\"confidence\">\(HTML.percent(Double(prediction.confidence)))</span>"
            if prediction.isRejected { html += " <span class=\"badge\">rejected</span>" }
            html += "<span class=\"source\" title=\"\(HTML.escape(prediction.source))\">\(HTML.escape(HTML.displayName(prediction.source)))</span>"
            html += "</figcaption></figure></li>"
        }
        return html + "</ul>\n"
    }

    // MARK: - Reject option, folds

    private func rejectOption(_ reject: RejectSummary) -> String {
        func rate(_ count: Int, of total: Int, _ rate: Double?) -> String {
            "\(count) of \(total)" + (rate.map { " (\(HTML.percent($0)))" } ?? "")
        }
        var html = "<table class=\"key-value\"><caption class=\"visually-hidden\">Reject option</caption><tbody>\n"
        html += "<tr><th scope=\"row\">rule</th><td>\(HTML.escape(reject.rule))</td></tr>\n"
        html += "<tr><th scope=\"row\">threshold</th><td>\(String(format: "%.3f", reject.threshold))</td></tr>\n"
        html += "<tr><th scope=\"row\">true shapes rejected (lower is better)</th><td>"
        html += rate(reject.trueShapesRejected, of: reject.trueShapeCount, reject.trueShapeRejectionRate) + "</td></tr>\n"
        html += "<tr><th scope=\"row\">non-shapes rejected (higher is better)</th><td>"
        if let count = reject.nonShapeCount, let rejected = reject.nonShapesRejected {
            html += rate(rejected, of: count, reject.nonShapeRejectionRate)
        } else {
            html += "no non-shape drawings were evaluated"
        }
        return html + "</td></tr>\n</tbody></table>\n"
    }

    private func folds() -> String {
        var html = "<div class=\"folds\">\n"
        for fold in content.folds {
            let evaluation = fold.evaluation
            let correct = evaluation.predictions.lazy.filter(\.isCorrect).count
            html += "<section class=\"fold\" id=\"fold-\(fold.fold)\" aria-labelledby=\"fold-\(fold.fold)-heading\">"
            html += "<h3 id=\"fold-\(fold.fold)-heading\">Fold \(fold.fold) of \(content.folds.count)</h3>"
            html += "<p>Accuracy \(HTML.percent(evaluation.accuracy)), \(correct) of \(evaluation.count) held-out drawings.</p>\n"
            html += heatmap(evaluation, id: "fold-\(fold.fold)-heatmap", cellSize: HTMLReport.compactCellSize, previews: false)
            if !fold.history.isEmpty {
                html += "<details><summary>Training curves of fold \(fold.fold)</summary>"
                html += TrainingCurves.html(fold.history, idPrefix: "fold-\(fold.fold)-") + "</details>"
            }
            html += "</section>\n"
        }
        if content.evaluation != nil {
            let summed = Evaluation.combined(content.folds.map(\.evaluation))
            html += "<section class=\"fold\" aria-labelledby=\"folds-summed-heading\">"
            html += "<h3 id=\"folds-summed-heading\">All folds, summed</h3>"
            html += "<p>Accuracy \(HTML.percent(summed.accuracy)) over \(summed.count) held-out drawings.</p>\n"
            html += heatmap(summed, id: "folds-summed-heatmap", cellSize: HTMLReport.compactCellSize, previews: false)
            html += "</section>\n"
        }
        return html + "</div>\n"
    }
}
