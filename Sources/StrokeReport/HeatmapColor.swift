/// The confusion heatmap's colours, shared by the HTML page and the PNG.
///
/// A cell is shaded by its share of its row (the true class), so a class with few examples
/// is read the same way as a large one. Two sequential scales keep the diagonal (correct)
/// and the off-diagonal (confusions) apart even in grayscale print: blue for correct,
/// red for confusions. The stops are ColorBrewer's 9-class "Blues" and "Reds".
enum HeatmapColor {
    private static let blues: [RGB] = [
        RGB(247, 251, 255), RGB(222, 235, 247), RGB(198, 219, 239), RGB(158, 202, 225), RGB(107, 174, 214),
        RGB(66, 146, 198), RGB(33, 113, 181), RGB(8, 81, 156), RGB(8, 48, 107),
    ]
    private static let reds: [RGB] = [
        RGB(255, 245, 240), RGB(254, 224, 210), RGB(252, 187, 161), RGB(252, 146, 114), RGB(251, 106, 74),
        RGB(239, 59, 44), RGB(203, 24, 29), RGB(165, 15, 21), RGB(103, 0, 13),
    ]
    /// An empty off-diagonal cell: near-white, so that zero is visibly "nothing".
    static let empty = RGB(248, 248, 248)
    /// Text on an empty cell: muted, so zeros recede (4.6:1 on `empty`, still WCAG AA).
    static let emptyText = RGB(107, 116, 128)

    /// The fill of a cell holding `share` (0...1) of its row.
    /// NOTE: confusions are usually a few percent of a row, which a linear scale would leave
    /// nearly white; the square root spreads small shares (4% -> 0.2, 25% -> 0.5), and any
    /// non-empty confusion gets at least 0.15 so a single error is never invisible.
    static func fill(share: Double, isDiagonal: Bool) -> RGB {
        let share = min(max(share, 0), 1)
        if isDiagonal { return interpolate(blues, at: share) }
        if share == 0 { return empty }
        return interpolate(reds, at: max(0.15, share.squareRoot()))
    }

    /// The text colour for a cell: muted on empty confusion cells, otherwise `text(on:)`.
    static func text(share: Double, isDiagonal: Bool) -> RGB {
        !isDiagonal && share == 0 ? emptyText : text(on: fill(share: share, isDiagonal: isDiagonal))
    }

    /// Black or white, whichever contrasts more with `background` (WCAG 2 contrast ratio).
    /// One of the two always reaches at least 4.58:1, above WCAG AA's 4.5 for small text.
    static func text(on background: RGB) -> RGB {
        let luminance = background.luminance
        let contrastWithWhite = 1.05 / (luminance + 0.05)
        let contrastWithBlack = (luminance + 0.05) / 0.05
        return contrastWithWhite >= contrastWithBlack ? .white : .black
    }

    private static func interpolate(_ stops: [RGB], at position: Double) -> RGB {
        let scaled = position * Double(stops.count - 1)
        let lower = min(Int(scaled), stops.count - 2)
        let fraction = scaled - Double(lower)
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8((Double(a) + (Double(b) - Double(a)) * fraction).rounded())
        }
        let from = stops[lower], to = stops[lower + 1]
        return RGB(mix(from.red, to.red), mix(from.green, to.green), mix(from.blue, to.blue))
    }
}
