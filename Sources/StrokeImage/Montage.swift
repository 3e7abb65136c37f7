/// A contact sheet: images tiled row by row into one gray image, each upscaled by an integer
/// factor with nearest-neighbour sampling (pixels stay crisp squares), separated by a gap.
///
///     let sheet = Montage(gap: 2, scale: 3).render(rows: [realArrows, drawnArrows])
///
/// Every cell is as large as the largest image (times `scale`); smaller images are centred on
/// black in their cell. A row shorter than the longest leaves its last cells in the gap
/// colour. The gap surrounds every cell, the sheet's outer edge included.
public struct Montage: Sendable {
    /// Pixels between cells and around the sheet, in output pixels (not scaled).
    public let gap: Int
    /// Each image pixel becomes a `scale x scale` block.
    public let scale: Int
    /// Gray value of the gap: mid-gray, so it is visible between white-on-black tiles.
    public let gapValue: UInt8

    public init(gap: Int = 1, scale: Int = 1, gapValue: UInt8 = 96) {
        precondition(gap >= 0, "Montage gap must be zero or positive, got \(gap)")
        precondition(scale >= 1, "Montage scale must be at least 1, got \(scale)")
        self.gap = gap
        self.scale = scale
        self.gapValue = gapValue
    }

    /// Size of one cell in output pixels for these images: the largest width and height, scaled.
    public func cellSize(for rows: [[GrayImage]]) -> (width: Int, height: Int) {
        let images = rows.joined()
        return ((images.map(\.width).max() ?? 0) * scale, (images.map(\.height).max() ?? 0) * scale)
    }

    /// Top-left output pixel of the cell at `row`, `column`.
    public func cellOrigin(row: Int, column: Int, cellSize: (width: Int, height: Int)) -> (x: Int, y: Int) {
        (gap + column * (cellSize.width + gap), gap + row * (cellSize.height + gap))
    }

    /// Output size for these rows: `columns * cell + (columns + 1) * gap` wide, likewise high,
    /// where `columns` is the longest row's length.
    public func sheetSize(for rows: [[GrayImage]]) -> (width: Int, height: Int) {
        let cell = cellSize(for: rows)
        let columns = rows.map(\.count).max() ?? 0
        return (columns * cell.width + (columns + 1) * gap, rows.count * cell.height + (rows.count + 1) * gap)
    }

    /// The sheet with `rows[r][c]` in row r, column c.
    public func render(rows: [[GrayImage]]) -> GrayImage {
        let size = sheetSize(for: rows)
        let cell = cellSize(for: rows)
        var sheet = GrayImage(width: size.width, height: size.height,
                              pixels: [UInt8](repeating: gapValue, count: size.width * size.height))
        for (rowIndex, row) in rows.enumerated() {
            for (columnIndex, image) in row.enumerated() {
                let origin = cellOrigin(row: rowIndex, column: columnIndex, cellSize: cell)
                // The cell starts black; the image is centred in it (whole pixels, before scaling).
                for y in 0..<cell.height {
                    let start = (origin.y + y) * size.width + origin.x
                    sheet.pixels.replaceSubrange(start..<(start + cell.width), with: repeatElement(0, count: cell.width))
                }
                let left = origin.x + (cell.width / scale - image.width) / 2 * scale
                let top = origin.y + (cell.height / scale - image.height) / 2 * scale
                for y in 0..<(image.height * scale) {
                    let sourceRow = (y / scale) * image.width
                    let outputRow = (top + y) * size.width + left
                    for x in 0..<(image.width * scale) {
                        sheet.pixels[outputRow + x] = image.pixels[sourceRow + x / scale]
                    }
                }
            }
        }
        return sheet
    }
}
