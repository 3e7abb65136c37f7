import StrokeImage
import Testing

/// A `side x side` image filled with `value`.
private func filled(_ value: UInt8, side: Int = 2) -> GrayImage {
    GrayImage(width: side, height: side, pixels: [UInt8](repeating: value, count: side * side))
}

@Suite struct MontageTests {
    @Test func sheetSizeCountsCellsAndGapsAroundThem() {
        let montage = Montage(gap: 2, scale: 3)
        let rows = [[filled(10), filled(20), filled(30)], [filled(40)]]
        let size = montage.sheetSize(for: rows)
        // 3 columns of 2*3 px, 4 gaps of 2 px; 2 rows likewise.
        #expect(size.width == 3 * 6 + 4 * 2 && size.height == 2 * 6 + 3 * 2, "size: \(size)")
        let sheet = montage.render(rows: rows)
        #expect(sheet.width == size.width && sheet.height == size.height)
    }

    @Test func tilesAreUpscaledCrispAtTheirCellOrigins() {
        let image = GrayImage(width: 2, height: 2, pixels: [1, 2, 3, 4])
        let montage = Montage(gap: 1, scale: 3, gapValue: 99)
        let sheet = montage.render(rows: [[filled(50), image]])
        let origin = montage.cellOrigin(row: 0, column: 1, cellSize: montage.cellSize(for: [[image]]))
        #expect(origin.x == 1 + 6 + 1 && origin.y == 1)
        for y in 0..<6 {
            for x in 0..<6 {
                let expected = image[x / 3, y / 3]
                #expect(sheet[origin.x + x, origin.y + y] == expected, "pixel (\(x), \(y)) of the second tile")
            }
        }
        #expect(sheet[0, 0] == 99 && sheet[7, 3] == 99, "gap pixels keep the gap value")
        #expect(sheet[1, 1] == 50 && sheet[6, 6] == 50)
    }

    @Test func shortRowsLeaveGapColouredCellsAndSmallImagesAreCentredOnBlack() {
        let montage = Montage(gap: 1, scale: 1, gapValue: 99)
        let sheet = montage.render(rows: [[filled(200, side: 4), filled(200, side: 4)], [filled(255, side: 2)]])
        // Row 2 starts at y = 1 + 4 + 1 = 6; its 2x2 image sits at offset (1, 1) in a black 4x4 cell.
        #expect(sheet[1, 6] == 0 && sheet[2, 7] == 255 && sheet[3, 8] == 255 && sheet[4, 9] == 0)
        // Its missing second cell stays gap-coloured.
        #expect(sheet[6, 7] == 99)
    }
}
