/// im2col and its adjoint col2im for stride-1 'same' convolutions over a batch stored
/// channel-major, (C, N, H, W). In that layout a whole batch is one matrix product:
///
///     output (OC, N·H·W) = weight (OC, C·KH·KW) × columns (C·KH·KW, N·H·W)
///
/// Row `r = (c·KH + ky)·KW + kx` of `columns` holds, for every output position
/// (n, y, x), the input value at (c, n, y + ky − padY, x + kx − padX), or 0 outside.
public struct ConvolutionGeometry: Sendable, Equatable {
    public var channels: Int
    public var batch: Int
    public var height: Int
    public var width: Int
    public var kernelHeight: Int
    public var kernelWidth: Int

    public init(channels: Int, batch: Int, height: Int, width: Int, kernelHeight: Int, kernelWidth: Int) {
        precondition(kernelHeight % 2 == 1 && kernelWidth % 2 == 1, "'same' padding needs odd kernel sizes")
        self.channels = channels
        self.batch = batch
        self.height = height
        self.width = width
        self.kernelHeight = kernelHeight
        self.kernelWidth = kernelWidth
    }

    /// Rows of the column matrix: C·KH·KW.
    public var columnRows: Int { channels * kernelHeight * kernelWidth }
    /// Columns of the column matrix: N·H·W.
    public var columnCount: Int { batch * height * width }
}

/// Fills `columns` (columnRows × columnCount) from `input` (C, N, H, W).
///
/// For one kernel offset (dy, dx) and one image plane, the column block is the plane
/// shifted by dy·W + dx in flat index: one bulk copy, then the rows and columns that the
/// shift pulled from outside the plane (or wrapped from the next row) are zeroed. That is
/// a few large copies instead of one small copy per output row, which dominated before.
public func im2col(
    _ input: UnsafePointer<Float>, into columns: UnsafeMutablePointer<Float>, geometry g: ConvolutionGeometry
) {
    let padY = g.kernelHeight / 2, padX = g.kernelWidth / 2
    let (height, width) = (g.height, g.width)
    let plane = height * width
    for c in 0..<g.channels {
        for ky in 0..<g.kernelHeight {
            let dy = ky - padY
            for kx in 0..<g.kernelWidth {
                let dx = kx - padX
                let row = columns + ((c * g.kernelHeight + ky) * g.kernelWidth + kx) * g.columnCount
                let shift = dy * width + dx
                // Flat indices i whose source i + shift lies inside the plane.
                let copyStart = max(0, -shift), copyEnd = min(plane, plane - shift)
                // Output rows whose source row y + dy is outside, and columns whose x + dx is.
                let validRows = max(0, -dy)..<min(height, height - dy)
                let validColumns = max(0, -dx)..<min(width, width - dx)
                for n in 0..<g.batch {
                    let source = input + (c * g.batch + n) * plane
                    let target = row + n * plane
                    guard copyStart < copyEnd, !validRows.isEmpty, !validColumns.isEmpty else {
                        target.update(repeating: 0, count: plane)
                        continue
                    }
                    (target + copyStart).update(from: source + copyStart + shift, count: copyEnd - copyStart)
                    target.update(repeating: 0, count: validRows.lowerBound * width)
                    (target + validRows.upperBound * width)
                        .update(repeating: 0, count: (height - validRows.upperBound) * width)
                    if dx != 0 {
                        for y in validRows {
                            let targetRow = target + y * width
                            for x in 0..<validColumns.lowerBound { targetRow[x] = 0 }
                            for x in validColumns.upperBound..<width { targetRow[x] = 0 }
                        }
                    }
                }
            }
        }
    }
}

/// The adjoint of `im2col`: sets `inputGradient` (C, N, H, W) to the sum, over every
/// column entry, of the gradient at that entry routed back to the input pixel it came from.
///
/// Entries of `columns` that im2col fills with padding zeros have no input pixel: they are
/// set to zero here on the way, so each kernel offset becomes one flat, vectorisable
/// shifted add over the whole plane instead of one short add per row.
public func col2im(
    _ columns: UnsafeMutablePointer<Float>, into inputGradient: UnsafeMutablePointer<Float>, geometry g: ConvolutionGeometry
) {
    let padY = g.kernelHeight / 2, padX = g.kernelWidth / 2
    let (height, width) = (g.height, g.width)
    let plane = height * width
    inputGradient.update(repeating: 0, count: g.channels * g.batch * plane)
    for c in 0..<g.channels {
        for ky in 0..<g.kernelHeight {
            let dy = ky - padY
            for kx in 0..<g.kernelWidth {
                let dx = kx - padX
                let row = columns + ((c * g.kernelHeight + ky) * g.kernelWidth + kx) * g.columnCount
                let shift = dy * width + dx
                let addStart = max(0, -shift), addEnd = min(plane, plane - shift)
                let validRows = max(0, -dy)..<min(height, height - dy)
                let validColumns = max(0, -dx)..<min(width, width - dx)
                guard addStart < addEnd, !validRows.isEmpty, !validColumns.isEmpty else { continue }
                for n in 0..<g.batch {
                    let source = row + n * plane
                    let target = inputGradient + (c * g.batch + n) * plane + shift
                    // Zero the padding entries (as im2col wrote them), then add the whole plane.
                    source.update(repeating: 0, count: validRows.lowerBound * width)
                    (source + validRows.upperBound * width).update(repeating: 0, count: (height - validRows.upperBound) * width)
                    if dx != 0 {
                        for y in validRows {
                            let sourceRow = source + y * width
                            for x in 0..<validColumns.lowerBound { sourceRow[x] = 0 }
                            for x in validColumns.upperBound..<width { sourceRow[x] = 0 }
                        }
                    }
                    for i in addStart..<addEnd { target[i] += source[i] }
                }
            }
        }
    }
}
