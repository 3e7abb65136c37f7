import Foundation  // String(format:)
import StrokeTraining

/// Loss and accuracy per epoch as two inline SVG line charts, training solid and validation
/// dashed (distinguishable without colour), each with a text summary for screen readers and
/// the figures themselves in a table.
enum TrainingCurves {
    private static let width = 520.0
    private static let height = 240.0
    private static let plotLeft = 56.0, plotRight = 16.0, plotTop = 14.0, plotBottom = 40.0
    static let trainColour = "#2166ac"
    static let validationColour = "#d6604d"

    private struct Series {
        var name: String
        var points: [(epoch: Int, value: Double)]
        var colour: String
        var dashed: Bool
    }

    /// Both charts and the table of figures; `idPrefix` keeps element ids unique per fold.
    static func html(_ history: [EpochRecord], idPrefix: String) -> String {
        guard !history.isEmpty else { return "" }
        let loss = [
            Series(name: "training", points: history.map { ($0.epoch, $0.trainLoss) }, colour: trainColour, dashed: false),
            Series(
                name: "validation", points: history.compactMap { record in record.validationLoss.map { (record.epoch, $0) } },
                colour: validationColour, dashed: true),
        ]
        let accuracy = [
            Series(
                name: "training", points: history.map { ($0.epoch, $0.trainAccuracy) }, colour: trainColour,
                dashed: false),
            Series(
                name: "validation",
                points: history.compactMap { record in record.validationAccuracy.map { (record.epoch, $0) } },
                colour: validationColour, dashed: true),
        ]
        let maximumLoss = (loss.flatMap(\.points).map(\.value).max() ?? 1)
        var html = "<div class=\"charts\">\n"
        html += chart(
            title: "Loss (cross-entropy) per epoch", id: "\(idPrefix)loss-chart", series: loss,
            yRange: 0...niceCeiling(maximumLoss), format: { String(format: "%.2f", $0) })
        html += chart(
            title: "Accuracy per epoch", id: "\(idPrefix)accuracy-chart", series: accuracy, yRange: 0...1,
            format: { "\(Int(($0 * 100).rounded()))%" })
        html += "</div>\n"
        html += table(history)
        return html
    }

    private static func chart(
        title: String, id: String, series: [Series], yRange: ClosedRange<Double>, format: (Double) -> String
    ) -> String {
        let series = series.filter { !$0.points.isEmpty }
        let epochs = series.flatMap(\.points).map(\.epoch)
        let firstEpoch = epochs.min() ?? 1, lastEpoch = max(epochs.max() ?? 1, firstEpoch + 1)
        let plotWidth = width - plotLeft - plotRight, plotHeight = height - plotTop - plotBottom
        func x(_ epoch: Int) -> Double {
            plotLeft + Double(epoch - firstEpoch) / Double(lastEpoch - firstEpoch) * plotWidth
        }
        func y(_ value: Double) -> Double {
            plotTop + (1 - (value - yRange.lowerBound) / (yRange.upperBound - yRange.lowerBound)) * plotHeight
        }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }

        let description = series.map { line in
            let first = line.points.first!, last = line.points.last!
            return "\(line.name) went from \(format(first.value)) at epoch \(first.epoch) to \(format(last.value)) at epoch \(last.epoch)"
        }.joined(separator: "; ")
        var svg = """
            <figure class="chart">
            <svg viewBox="0 0 \(Int(width)) \(Int(height))" width="\(Int(width))" height="\(Int(height))" role="img" \
            aria-labelledby="\(id)-title \(id)-description" id="\(id)">
            <title id="\(id)-title">\(HTML.escape(title))</title>
            <desc id="\(id)-description">\(HTML.escape(description)).</desc>

            """
        // Horizontal grid lines with value labels.
        for step in 0...4 {
            let value = yRange.lowerBound + (yRange.upperBound - yRange.lowerBound) * Double(step) / 4
            svg += "<line class=\"grid\" x1=\"\(number(plotLeft))\" x2=\"\(number(width - plotRight))\" y1=\"\(number(y(value)))\" y2=\"\(number(y(value)))\"/>"
            svg += "<text class=\"tick\" x=\"\(number(plotLeft - 6))\" y=\"\(number(y(value) + 4))\" text-anchor=\"end\">\(format(value))</text>\n"
        }
        // Epoch ticks, thinned to at most about ten labels.
        let stride = max(1, Int((Double(lastEpoch - firstEpoch + 1) / 10).rounded(.up)))
        for epoch in Swift.stride(from: firstEpoch, through: lastEpoch, by: stride) {
            svg += "<text class=\"tick\" x=\"\(number(x(epoch)))\" y=\"\(number(height - plotBottom + 16))\" text-anchor=\"middle\">\(epoch)</text>"
        }
        svg += "<text class=\"axis-title\" x=\"\(number(plotLeft + plotWidth / 2))\" y=\"\(number(height - 4))\" text-anchor=\"middle\">epoch</text>\n"
        svg += "<line class=\"axis\" x1=\"\(number(plotLeft))\" x2=\"\(number(width - plotRight))\" y1=\"\(number(y(yRange.lowerBound)))\" y2=\"\(number(y(yRange.lowerBound)))\"/>\n"
        for line in series {
            let path = line.points.map { "\(number(x($0.epoch))),\(number(y($0.value)))" }.joined(separator: " ")
            let dash = line.dashed ? " stroke-dasharray=\"6 4\"" : ""
            svg += "<polyline fill=\"none\" stroke=\"\(line.colour)\" stroke-width=\"2\"\(dash) points=\"\(path)\"/>\n"
            if line.points.count <= 40 {
                for point in line.points {
                    svg += "<circle cx=\"\(number(x(point.epoch)))\" cy=\"\(number(y(point.value)))\" r=\"2.5\" fill=\"\(line.colour)\"/>"
                }
                svg += "\n"
            }
        }
        svg += "</svg>\n<figcaption>\(HTML.escape(title)) "
        for line in series {
            svg += "<span class=\"key\"><svg width=\"26\" height=\"10\" aria-hidden=\"true\"><line x1=\"1\" x2=\"25\" y1=\"5\" y2=\"5\" stroke=\"\(line.colour)\" stroke-width=\"2\"\(line.dashed ? " stroke-dasharray=\"6 4\"" : "")/></svg> \(line.name)</span> "
        }
        svg += "</figcaption>\n</figure>\n"
        return svg
    }

    private static func table(_ history: [EpochRecord]) -> String {
        func optional(_ value: Double?, _ format: (Double) -> String) -> String { value.map(format) ?? "–" }
        let loss = { (value: Double) in String(format: "%.4f", value) }
        let accuracy = { (value: Double) in String(format: "%.1f%%", value * 100) }
        var html = """
            <details class="epoch-figures"><summary>Figures per epoch</summary>
            <table class="numbers"><caption>Training figures per epoch</caption>
            <thead><tr><th scope="col">Epoch</th><th scope="col">Training loss</th><th scope="col">Training accuracy</th>\
            <th scope="col">Validation loss</th><th scope="col">Validation accuracy</th><th scope="col">Seconds</th></tr></thead>
            <tbody>

            """
        for record in history {
            html += "<tr><th scope=\"row\">\(record.epoch)</th><td>\(loss(record.trainLoss))</td><td>\(accuracy(record.trainAccuracy))</td>"
            html += "<td>\(optional(record.validationLoss, loss))</td><td>\(optional(record.validationAccuracy, accuracy))</td>"
            html += "<td>\(String(format: "%.2f", record.seconds))</td></tr>\n"
        }
        return html + "</tbody></table></details>\n"
    }

    /// The smallest of 1, 2, 2.5, 5 times a power of ten that is at least `value`, for axis tops.
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let magnitude = pow(10, (log10(value)).rounded(.down))
        for factor in [1, 2, 2.5, 5, 10] as [Double] where factor * magnitude >= value {
            return factor * magnitude
        }
        return 10 * magnitude
    }
}
