import Foundation  // String(format:)
import StrokeTraining

/// The confusion matrix as a picture, for READMEs and issue trackers (`--report FILE.png`).
///
/// Layout, top to bottom: accuracy line, "PREDICTED" over the column labels, then one row per
/// true class (label on the left), then a two-line legend. Each cell shows its count and its
/// share of the row, shaded with `HeatmapColor` (blue diagonal, red confusions). Text uses
/// the built-in `BitmapFont`, so labels are drawn in capitals.
public enum HeatmapImage {
    /// Default side of one matrix cell, in pixels.
    public static let defaultCellSize = 96

    private static let margin = 16
    private static let labelScale = 2
    private static let countScale = 3
    static let gap = 2
    private static let labelPadding = 12
    private static let ink = RGB(33, 37, 41)
    private static let quietInk = RGB(90, 96, 104)

    /// Where things go; computed once and shared with the tests.
    struct Layout {
        var cellSize: Int
        var labelColumnWidth: Int
        var rowLabels: [String]
        var heading: String
        var legend: [String]
        var gridLeft: Int
        var headingTop: Int
        var predictedTop: Int
        var columnLabelTop: Int
        var gridTop: Int
        var legendTop: Int
        var width: Int
        var height: Int

        init(_ evaluation: Evaluation, cellSize requestedCellSize: Int) {
            cellSize = max(48, requestedCellSize)
            let classCount = evaluation.classes.count
            let lineHeight = BitmapFont.height(scale: labelScale)
            // Row labels: as wide as the widest label, capped so one long name cannot swallow the image.
            rowLabels = evaluation.classes.map {
                BitmapFont.fitting($0, maximumWidth: 200, scale: labelScale)
            }
            labelColumnWidth = max(
                BitmapFont.width(of: "TRUE", scale: labelScale),
                rowLabels.map { BitmapFont.width(of: $0, scale: labelScale) }.max() ?? 0) + labelPadding
            let correct = evaluation.predictions.lazy.filter(\.isCorrect).count
            heading = "ACCURACY \(String(format: "%.1f%%", evaluation.accuracy * 100)) (\(correct)/\(evaluation.count))"
            legend = ["BLUE: CORRECT  RED: CONFUSED", "SHADE: SHARE OF THE TRUE CLASS"]

            gridLeft = margin + labelColumnWidth
            let contentWidth = max(
                labelColumnWidth + classCount * cellSize,
                ([heading] + legend).map { BitmapFont.width(of: $0, scale: labelScale) }.max() ?? 0)
            headingTop = margin
            predictedTop = headingTop + lineHeight + 14
            columnLabelTop = predictedTop + lineHeight + 8
            gridTop = columnLabelTop + lineHeight + 8
            legendTop = gridTop + classCount * cellSize + 14
            width = contentWidth + 2 * margin
            height = legendTop + 2 * lineHeight + 6 + margin
        }
    }

    /// Draws `evaluation`'s confusion matrix; `cellSize` is clamped to at least 48 pixels so
    /// counts stay legible.
    public static func render(_ evaluation: Evaluation, cellSize: Int = defaultCellSize) -> RGBImage {
        let layout = Layout(evaluation, cellSize: cellSize)
        let cellSize = layout.cellSize, gridLeft = layout.gridLeft, gridTop = layout.gridTop
        let gridWidth = evaluation.classes.count * cellSize
        let classCount = evaluation.classes.count
        let lineHeight = BitmapFont.height(scale: labelScale)
        let (heading, legend, rowLabels) = (layout.heading, layout.legend, layout.rowLabels)
        let (headingTop, predictedTop, columnLabelTop, legendTop) =
            (layout.headingTop, layout.predictedTop, layout.columnLabelTop, layout.legendTop)
        var image = RGBImage(width: layout.width, height: layout.height)

        BitmapFont.draw(heading, into: &image, x: margin, y: headingTop, scale: labelScale, colour: ink)
        let predictedWidth = BitmapFont.width(of: "PREDICTED", scale: labelScale)
        BitmapFont.draw(
            "PREDICTED", into: &image, x: gridLeft + (gridWidth - predictedWidth) / 2, y: predictedTop,
            scale: labelScale, colour: quietInk)
        BitmapFont.draw(
            "TRUE", into: &image, x: gridLeft - labelPadding - BitmapFont.width(of: "TRUE", scale: labelScale),
            y: columnLabelTop, scale: labelScale, colour: quietInk)

        for column in 0..<classCount {
            let label = BitmapFont.fitting(evaluation.classes[column], maximumWidth: cellSize - 8, scale: labelScale)
            let width = BitmapFont.width(of: label, scale: labelScale)
            BitmapFont.draw(
                label, into: &image, x: gridLeft + column * cellSize + (cellSize - width) / 2, y: columnLabelTop,
                scale: labelScale, colour: ink)
        }

        for row in 0..<classCount {
            let top = gridTop + row * cellSize
            let label = rowLabels[row]
            BitmapFont.draw(
                label, into: &image, x: gridLeft - labelPadding - BitmapFont.width(of: label, scale: labelScale),
                y: top + (cellSize - lineHeight) / 2, scale: labelScale, colour: ink)
            let rowTotal = evaluation.confusionMatrix[row].reduce(0, +)
            for column in 0..<classCount {
                let count = evaluation.confusionMatrix[row][column]
                let share = rowTotal == 0 ? 0 : Double(count) / Double(rowTotal)
                let fill = HeatmapColor.fill(share: share, isDiagonal: row == column)
                let left = gridLeft + column * cellSize
                image.fillRectangle(
                    x: left + gap / 2, y: top + gap / 2, width: cellSize - gap, height: cellSize - gap, with: fill)
                drawCellText(
                    count: count, share: rowTotal == 0 ? nil : share, into: &image, left: left, top: top,
                    cellSize: cellSize, colour: HeatmapColor.text(share: share, isDiagonal: row == column))
            }
        }

        for (index, line) in legend.enumerated() {
            BitmapFont.draw(
                line, into: &image, x: margin, y: legendTop + index * (lineHeight + 6), scale: labelScale,
                colour: quietInk)
        }
        return image
    }

    /// The count, large, with the row share below it, centred in the cell.
    private static func drawCellText(
        count: Int, share: Double?, into image: inout RGBImage, left: Int, top: Int, cellSize: Int, colour: RGB
    ) {
        let countText = String(count)
        let shareText = share.map(percent) ?? ""
        let countScale = BitmapFont.width(of: countText, scale: countScale) <= cellSize - 8 ? countScale : labelScale
        let countHeight = BitmapFont.height(scale: countScale)
        let shareHeight = BitmapFont.height(scale: labelScale)
        let blockHeight = countHeight + 6 + shareHeight
        let blockTop = top + (cellSize - blockHeight) / 2
        BitmapFont.draw(
            countText, into: &image,
            x: left + (cellSize - BitmapFont.width(of: countText, scale: countScale)) / 2, y: blockTop,
            scale: countScale, colour: colour)
        BitmapFont.draw(
            shareText, into: &image,
            x: left + (cellSize - BitmapFont.width(of: shareText, scale: labelScale)) / 2,
            y: blockTop + countHeight + 6, scale: labelScale, colour: colour)
    }

    /// "95%", or "99.5%" when rounding to whole percent would hide a difference from 100%.
    static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        if value > 99 && value < 100 || value > 0 && value < 1 {
            return String(format: "%.1f%%", value)
        }
        return "\(Int(value.rounded()))%"
    }
}
