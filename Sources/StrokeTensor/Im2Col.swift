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

/// One kernel offset (dy, dx) seen on an H×W plane: the column block of that offset is the
/// plane shifted by dy·W + dx in flat index, except at padding entries, whose source pixel
/// lies outside the plane (or would wrap in from the neighbouring row).
struct KernelOffset {
    let height: Int, width: Int
    /// Flat shift from a column entry to its source pixel.
    let shift: Int
    /// Flat indices i whose i + shift lies inside the plane.
    let flatRange: Range<Int>
    /// Output rows y whose source row y + dy is inside, and columns x whose x + dx is.
    let validRows: Range<Int>, validColumns: Range<Int>
    let dx: Int

    init(dy: Int, dx: Int, height: Int, width: Int) {
        self.height = height
        self.width = width
        self.dx = dx
        shift = dy * width + dx
        flatRange = max(0, -shift)..<max(max(0, -shift), min(height * width, height * width - shift))
        validRows = max(0, -dy)..<max(max(0, -dy), min(height, height - dy))
        validColumns = max(0, -dx)..<max(max(0, -dx), min(width, width - dx))
    }

    /// True when some entry has a source pixel (else the whole block is padding).
    var touchesThePlane: Bool { !flatRange.isEmpty && !validRows.isEmpty && !validColumns.isEmpty }

    /// Sets the padding entries of one H×W block to zero.
    func zeroPadding(_ block: UnsafeMutablePointer<Float>) {
        block.update(repeating: 0, count: validRows.lowerBound * width)
        (block + validRows.upperBound * width).update(repeating: 0, count: (height - validRows.upperBound) * width)
        guard dx != 0 else { return }
        for y in validRows {
            let row = block + y * width
            for x in 0..<validColumns.lowerBound { row[x] = 0 }
            for x in validColumns.upperBound..<width { row[x] = 0 }
        }
    }
}

/// Calls `body` for every (channel, kernel offset) with the offset's geometry and its row
/// block in the column matrix, in column-row order.
private func forEachKernelOffset(
    _ g: ConvolutionGeometry, columns: UnsafeMutablePointer<Float>,
    _ body: (_ channel: Int, _ offset: KernelOffset, _ block: UnsafeMutablePointer<Float>) -> Void
) {
    let padY = g.kernelHeight / 2, padX = g.kernelWidth / 2
    for c in 0..<g.channels {
        for ky in 0..<g.kernelHeight {
            for kx in 0..<g.kernelWidth {
                let offset = KernelOffset(dy: ky - padY, dx: kx - padX, height: g.height, width: g.width)
                body(c, offset, columns + ((c * g.kernelHeight + ky) * g.kernelWidth + kx) * g.columnCount)
            }
        }
    }
}

/// Fills `columns` (columnRows × columnCount) from `input` (C, N, H, W).
///
/// For each kernel offset and image plane: one bulk copy of the shifted plane, then its
/// padding entries are zeroed. That is a few large copies instead of one small copy per
/// output row, which dominated before.
public func im2col(
    _ input: UnsafePointer<Float>, into columns: UnsafeMutablePointer<Float>, geometry g: ConvolutionGeometry
) {
    let plane = g.height * g.width
    forEachKernelOffset(g, columns: columns) { c, offset, row in
        for n in 0..<g.batch {
            let target = row + n * plane
            guard offset.touchesThePlane else {
                target.update(repeating: 0, count: plane)
                continue
            }
            let source = input + (c * g.batch + n) * plane + offset.shift
            (target + offset.flatRange.lowerBound)
                .update(from: source + offset.flatRange.lowerBound, count: offset.flatRange.count)
            offset.zeroPadding(target)
        }
    }
}

/// The adjoint of `im2col`: sets `inputGradient` (C, N, H, W) to the sum, over every
/// column entry, of the gradient at that entry routed back to the input pixel it came from.
///
/// Entries of `columns` that im2col fills with padding zeros have no input pixel: they are
/// set to zero here on the way, so each kernel offset becomes one flat, vectorisable
/// shifted add over the whole plane instead of one short add per row. The centre offset
/// reaches every pixel and has no padding, so it is copied first instead of added to a
/// cleared gradient (one pass less).
///
/// `channelStride` is the distance between channels in `inputGradient` (default
/// N·H·W): a larger one lets the columns of a few images fill their part of a bigger batch.
public func col2im(
    _ columns: UnsafeMutablePointer<Float>, into inputGradient: UnsafeMutablePointer<Float>, geometry g: ConvolutionGeometry,
    channelStride: Int? = nil
) {
    let plane = g.height * g.width
    let stride = channelStride ?? g.batch * plane
    let centre = (g.kernelHeight / 2) * g.kernelWidth + g.kernelWidth / 2
    let offsetsPerChannel = g.kernelHeight * g.kernelWidth
    for c in 0..<g.channels {
        (inputGradient + c * stride)
            .update(from: columns + (c * offsetsPerChannel + centre) * g.columnCount, count: g.batch * plane)
    }
    forEachKernelOffset(g, columns: columns) { c, offset, row in
        guard offset.touchesThePlane, offset.shift != 0 || offset.dx != 0 else { return }
        for n in 0..<g.batch {
            let source = row + n * plane
            let target = inputGradient + c * stride + n * plane + offset.shift
            offset.zeroPadding(source)
            for i in offset.flatRange { target[i] += source[i] }
        }
    }
}
